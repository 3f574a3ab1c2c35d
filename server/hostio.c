#define _GNU_SOURCE
#include "server/hostio.h"
#include "nat/proc_root.h"
#include "common/ps_array.h"
#include "server/rsp_escape.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* GDB's File-I/O numbering (the File-I/O appendix of the GDB manual):
   fixed across hosts, so it is spelled out rather than taken from the
   host's headers.  */
enum {
	fio_o_wronly = 0x1,
	fio_o_rdwr = 0x2,
	fio_o_append = 0x8,
	fio_o_creat = 0x200,
	fio_o_trunc = 0x400,
	fio_o_excl = 0x800,
	fio_o_known = fio_o_wronly | fio_o_rdwr | fio_o_append | fio_o_creat
		| fio_o_trunc | fio_o_excl,

	fio_s_ifreg = 0100000,
	fio_s_ifdir = 040000,
	fio_s_ifchr = 020000,
	/* Permission bits have the usual octal values.  */
	fio_s_perm = 0777,
	/* Open modes may carry the file type bits, except a character
	   device's, as gdbserver accepts them.  */
	fio_s_open_known = fio_s_ifreg | fio_s_ifdir | fio_s_perm,

	fio_einval = 22,
	fio_enametoolong = 91,
	fio_eunknown = 9999,
};

/* Paths GDB sends are capped like gdbserver's: PATH_MAX with its NUL.  */
enum { hostio_path_max = PATH_MAX };

/* The fixed-size, big-endian struct stat of the File-I/O protocol.  */
enum { fio_stat_size = 64 };

int hostio_fileio_errno(int host_errno)
{
	/* File-I/O numbers equal Linux's for every error they name, except
	   ENAMETOOLONG (91 vs 36) and ENOSYS (88 vs 38).  */
	switch (host_errno) {
	case EPERM: case ENOENT: case EINTR: case EIO: case EBADF:
	case EACCES: case EFAULT: case EBUSY: case EEXIST: case ENODEV:
	case ENOTDIR: case EISDIR: case EINVAL: case ENFILE: case EMFILE:
	case EFBIG: case ENOSPC: case ESPIPE: case EROFS:
		return host_errno;
	case ENOSYS:
		return 88;
	case ENAMETOOLONG:
		return fio_enametoolong;
	default:
		return fio_eunknown;
	}
}

void hostio_init(struct hostio *hio)
{
	hio->fds = NULL;
	hio->count = 0;
	hio->cap = 0;
	hio->fs_pid = 0;
}

void hostio_fini(struct hostio *hio)
{
	for (size_t i = 0; i < hio->count; i++)
		close(hio->fds[i]);
	free(hio->fds);
	hostio_init(hio);
}

static int fd_add(struct hostio *hio, int fd)
{
	if (PS_ARRAY_RESERVE(hio->fds, hio->cap, hio->count + 1))
		return -pse_nomem;
	hio->fds[hio->count++] = fd;
	return 0;
}

/* The index of FD in the table, or -1.  An fd not from vFile:open is
   EBADF (gdbserver says EINVAL; GDB treats both as failure).  */
static long fd_find(const struct hostio *hio, uint64_t fd)
{
	for (size_t i = 0; i < hio->count; i++)
		if ((uint64_t) hio->fds[i] == fd)
			return (long) i;
	return -1;
}

static void fd_drop(struct hostio *hio, size_t index)
{
	hio->fds[index] = hio->fds[--hio->count];
}

/* Parsing: a cursor over the packet, which need not be NUL-terminated
   and whose pwrite data may hold any byte.  */
struct cursor {
	const char *p;
	const char *end;
};

/* A hex number up to the next ',' or the end.  An empty field reads as
   0, as gdbserver reads it; more than MAX is malformed.  */
static int take_num(struct cursor *cur, uint64_t max, uint64_t *value)
{
	uint64_t v = 0;

	for (; cur->p < cur->end && *cur->p != ','; cur->p++) {
		int d = ps_hex_digit((unsigned char) *cur->p);

		if (d < 0 || v > (max - (uint64_t) d) / 16)
			return -1;
		v = v * 16 + (uint64_t) d;
	}
	*value = v;
	return 0;
}

static int take_comma(struct cursor *cur)
{
	if (cur->p < cur->end && *cur->p == ',') {
		cur->p++;
		return 0;
	}
	return -1;
}

static int at_end(const struct cursor *cur)
{
	return cur->p == cur->end ? 0 : -1;
}

/* A hex-encoded path up to the next ',' or the end, into PATH.  */
static int take_path(struct cursor *cur, char *path)
{
	size_t n = 0;

	while (cur->p < cur->end && *cur->p != ',') {
		int hi, lo;

		if (n >= hostio_path_max - 1 || cur->end - cur->p < 2)
			return -1;
		hi = ps_hex_digit((unsigned char) cur->p[0]);
		lo = ps_hex_digit((unsigned char) cur->p[1]);
		/* A NUL inside ends the path, as it does for gdbserver.  */
		if (hi < 0 || lo < 0)
			return -1;
		path[n++] = (char) (hi * 16 + lo);
		cur->p += 2;
	}
	path[n] = '\0';
	return 0;
}

/* Replies.  */
static int reply_result(struct ps_buf *reply, uint64_t value)
{
	return ps_buf_printf(reply, "F%llx", (unsigned long long) value);
}

static int reply_fio_error(struct ps_buf *reply, int fio_errno)
{
	return ps_buf_printf(reply, "F-1,%x", fio_errno);
}

static int reply_errno(struct ps_buf *reply, int host_errno)
{
	return reply_fio_error(reply, hostio_fileio_errno(host_errno));
}

static int reply_malformed(struct ps_buf *reply)
{
	return reply_fio_error(reply, fio_einval);
}

/* How many leading bytes of DATA fit in ROOM characters once escaped.  */
static size_t escaped_fit(const uint8_t *data, size_t len, size_t room)
{
	size_t used = 0, n;

	for (n = 0; n < len; n++) {
		size_t w = rsp_needs_escape(data[n]) ? 2 : 1;

		if (used + w > room)
			break;
		used += w;
	}
	return n;
}

static size_t header_len(size_t count)
{
	return (size_t) snprintf(NULL, 0, "F%zx;", count);
}

/* Reply "F<count>;<data>" with as many of LEN bytes as fit in MAX_REPLY;
   the count sent is the count that fit, as gdbserver does.  */
static long reply_data(struct ps_buf *reply, const uint8_t *data, size_t len,
		       size_t max_reply)
{
	size_t head = header_len(len);
	size_t n = max_reply > head ? escaped_fit(data, len, max_reply - head)
		: 0;
	int err = ps_buf_printf(reply, "F%zx;", n);

	if (err < 0)
		return err;
	if (rsp_escape(reply, data, n, 2 * n) != n)
		return -pse_nomem;
	return (long) n;
}

/* Open flags and modes from File-I/O to Linux; -1 for unknown bits.  */
static int fio_to_open_flags(uint64_t fio, int *flags)
{
	int f = O_RDONLY;

	if (fio & ~(uint64_t) fio_o_known)
		return -1;
	if (fio & fio_o_wronly)
		f |= O_WRONLY;
	if (fio & fio_o_rdwr)
		f |= O_RDWR;
	if (fio & fio_o_append)
		f |= O_APPEND;
	if (fio & fio_o_creat)
		f |= O_CREAT;
	if (fio & fio_o_trunc)
		f |= O_TRUNC;
	if (fio & fio_o_excl)
		f |= O_EXCL;
	*flags = f;
	return 0;
}

static int fio_to_mode(uint64_t fio, mode_t *mode)
{
	mode_t m;

	if (fio & ~(uint64_t) fio_s_open_known)
		return -1;
	/* The permission bits share Linux's values.  */
	m = (mode_t) (fio & fio_s_perm);
	if (fio & fio_s_ifreg)
		m |= S_IFREG;
	if (fio & fio_s_ifdir)
		m |= S_IFDIR;
	*mode = m;
	return 0;
}

static uint32_t mode_to_fio(mode_t mode)
{
	uint32_t m = (uint32_t) (mode & fio_s_perm);

	if (S_ISREG(mode))
		m |= fio_s_ifreg;
	if (S_ISDIR(mode))
		m |= fio_s_ifdir;
	if (S_ISCHR(mode))
		m |= fio_s_ifchr;
	return m;
}

static void put_be(uint8_t *out, uint64_t value, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		out[i] = (uint8_t) (value >> (8 * (bytes - 1 - i)));
}

/* struct stat in File-I/O form: 32-bit fields truncate, as GDB's own
   conversion does.  */
static void stat_to_fio(const struct stat *st, uint8_t out[fio_stat_size])
{
	put_be(out + 0, (uint64_t) st->st_dev, 4);
	put_be(out + 4, (uint64_t) st->st_ino, 4);
	put_be(out + 8, mode_to_fio(st->st_mode), 4);
	put_be(out + 12, (uint64_t) st->st_nlink, 4);
	put_be(out + 16, (uint64_t) st->st_uid, 4);
	put_be(out + 20, (uint64_t) st->st_gid, 4);
	put_be(out + 24, (uint64_t) st->st_rdev, 4);
	put_be(out + 28, (uint64_t) st->st_size, 8);
	put_be(out + 36, (uint64_t) st->st_blksize, 8);
	put_be(out + 44, (uint64_t) st->st_blocks, 8);
	put_be(out + 52, (uint64_t) st->st_atime, 4);
	put_be(out + 56, (uint64_t) st->st_mtime, 4);
	put_be(out + 60, (uint64_t) st->st_ctime, 4);
}

/* The operations, each given the text after "vFile:NAME:".  */

static int op_setfs(struct hostio *hio, struct cursor *cur, size_t max_reply,
		    struct ps_buf *reply)
{
	uint64_t pid;

	if (take_num(cur, INT_MAX, &pid) || at_end(cur))
		return reply_malformed(reply);
	hio->fs_pid = (pid_t) pid;
	return reply_result(reply, 0);
}

static int op_open(struct hostio *hio, struct cursor *cur, size_t max_reply,
		   struct ps_buf *reply)
{
	char path[hostio_path_max];
	uint64_t fio_flags, fio_mode;
	int flags, fd, err;
	mode_t mode;

	if (take_path(cur, path) || take_comma(cur)
	    || take_num(cur, INT_MAX, &fio_flags) || take_comma(cur)
	    || take_num(cur, INT_MAX, &fio_mode) || at_end(cur)
	    || fio_to_open_flags(fio_flags, &flags)
	    || fio_to_mode(fio_mode, &mode))
		return reply_malformed(reply);

	fd = proc_root_open(hio->fs_pid, path, flags, mode);
	if (fd < 0)
		return reply_errno(reply, errno);
	err = fd_add(hio, fd);
	if (err < 0) {
		close(fd);
		return err;
	}
	return reply_result(reply, (uint64_t) fd);
}

static int op_close(struct hostio *hio, struct cursor *cur, size_t max_reply,
		    struct ps_buf *reply)
{
	uint64_t fd;
	long index;
	int ret;

	if (take_num(cur, INT_MAX, &fd) || at_end(cur))
		return reply_malformed(reply);
	index = fd_find(hio, fd);
	if (index < 0)
		return reply_errno(reply, EBADF);

	/* Linux frees the fd even when close reports an error.  */
	ret = close((int) fd);
	fd_drop(hio, (size_t) index);
	if (ret != 0)
		return reply_errno(reply, errno);
	return reply_result(reply, 0);
}

static int op_pread(struct hostio *hio, struct cursor *cur, size_t max_reply,
		    struct ps_buf *reply)
{
	uint64_t fd, count, offset;
	size_t cap;
	uint8_t *data;
	ssize_t got;
	long sent;

	/* Offsets past 2 GiB are fine here (gdbserver refuses them).  */
	if (take_num(cur, INT_MAX, &fd) || take_comma(cur)
	    || take_num(cur, INT_MAX, &count) || take_comma(cur)
	    || take_num(cur, INT64_MAX, &offset) || at_end(cur))
		return reply_malformed(reply);
	if (fd_find(hio, fd) < 0)
		return reply_errno(reply, EBADF);

	/* Never read more than an unescaped reply could carry.  */
	cap = max_reply > header_len(max_reply)
		? max_reply - header_len(max_reply) : 0;
	if (count > cap)
		count = cap;

	data = malloc(count ? count : 1);
	if (!data)
		return -pse_nomem;
	got = pread((int) fd, data, count, (off_t) offset);
	/* Files that cannot pread (pipes, some devices) may still seek.  */
	if (got < 0 && lseek((int) fd, (off_t) offset, SEEK_SET) != -1)
		got = read((int) fd, data, count);
	if (got < 0) {
		int saved = errno;

		free(data);
		return reply_errno(reply, saved);
	}
	sent = reply_data(reply, data, (size_t) got, max_reply);
	free(data);
	return sent < 0 ? (int) sent : 0;
}

static int op_pwrite(struct hostio *hio, struct cursor *cur, size_t max_reply,
		     struct ps_buf *reply)
{
	uint64_t fd, offset;
	uint8_t *data;
	ssize_t put;
	long len;

	if (take_num(cur, INT_MAX, &fd) || take_comma(cur)
	    || take_num(cur, INT64_MAX, &offset) || take_comma(cur))
		return reply_malformed(reply);

	data = malloc((size_t) (cur->end - cur->p) + 1);
	if (!data)
		return -pse_nomem;
	len = rsp_unescape(data, cur->p, (size_t) (cur->end - cur->p));
	if (len < 0) {
		free(data);
		return reply_malformed(reply);
	}
	if (fd_find(hio, fd) < 0) {
		free(data);
		return reply_errno(reply, EBADF);
	}

	put = pwrite((int) fd, data, (size_t) len, (off_t) offset);
	if (put < 0 && lseek((int) fd, (off_t) offset, SEEK_SET) != -1)
		put = write((int) fd, data, (size_t) len);
	if (put < 0) {
		int saved = errno;

		free(data);
		return reply_errno(reply, saved);
	}
	free(data);
	return reply_result(reply, (uint64_t) put);
}

static int op_fstat(struct hostio *hio, struct cursor *cur, size_t max_reply,
		    struct ps_buf *reply)
{
	uint8_t fst[fio_stat_size];
	struct stat st;
	uint64_t fd;
	size_t start = reply->len;
	long sent;

	if (take_num(cur, INT_MAX, &fd) || at_end(cur))
		return reply_malformed(reply);
	if (fd_find(hio, fd) < 0)
		return reply_errno(reply, EBADF);
	if (fstat((int) fd, &st) != 0)
		return reply_errno(reply, errno);

	stat_to_fio(&st, fst);
	sent = reply_data(reply, fst, sizeof(fst), max_reply);
	if (sent < 0)
		return (int) sent;
	/* A partial struct is no use: gdbserver fails the packet.  */
	if ((size_t) sent < sizeof(fst)) {
		reply->len = start;
		return ps_buf_puts(reply, "E01");
	}
	return 0;
}

static int op_unlink(struct hostio *hio, struct cursor *cur, size_t max_reply,
		     struct ps_buf *reply)
{
	char path[hostio_path_max];

	if (take_path(cur, path) || at_end(cur))
		return reply_malformed(reply);
	if (proc_root_unlink(hio->fs_pid, path) != 0)
		return reply_errno(reply, errno);
	return reply_result(reply, 0);
}

static int op_readlink(struct hostio *hio, struct cursor *cur,
		       size_t max_reply, struct ps_buf *reply)
{
	char path[hostio_path_max], target[hostio_path_max];
	size_t start = reply->len;
	long n, sent;

	if (take_path(cur, path) || at_end(cur))
		return reply_malformed(reply);
	n = proc_root_readlink(hio->fs_pid, path, target, sizeof(target) - 1);
	if (n < 0)
		return reply_errno(reply, errno);

	sent = reply_data(reply, (const uint8_t *) target, (size_t) n,
			  max_reply);
	if (sent < 0)
		return (int) sent;
	if (sent < n) {
		reply->len = start;
		return reply_fio_error(reply, fio_enametoolong);
	}
	return 0;
}

static int starts(const struct cursor *cur, const char *word)
{
	size_t n = strlen(word);

	return (size_t) (cur->end - cur->p) >= n && !memcmp(cur->p, word, n);
}

typedef int (*hostio_op_fn)(struct hostio *hio, struct cursor *cur,
			   size_t max_reply, struct ps_buf *reply);

static const struct {
	const char *name;
	hostio_op_fn fn;
} hostio_ops[] = {
	{ "open:", op_open },
	{ "close:", op_close },
	{ "pread:", op_pread },
	{ "pwrite:", op_pwrite },
	{ "fstat:", op_fstat },
	{ "unlink:", op_unlink },
	{ "readlink:", op_readlink },
	{ "setfs:", op_setfs },
};

int hostio_handle(struct hostio *hio, const char *packet, size_t len,
		  size_t max_reply, struct ps_buf *reply)
{
	static const char prefix[] = "vFile:";
	struct cursor cur = { packet, packet + len };

	if (!starts(&cur, prefix))
		return -pse_invalid;
	cur.p += sizeof(prefix) - 1;

	for (size_t i = 0; i < sizeof(hostio_ops) / sizeof(hostio_ops[0]); i++) {
		if (starts(&cur, hostio_ops[i].name)) {
			cur.p += strlen(hostio_ops[i].name);
			return hostio_ops[i].fn(hio, &cur, max_reply, reply);
		}
	}
	/* Unknown operations (vFile:stat, say) get the empty reply.  */
	return 0;
}
