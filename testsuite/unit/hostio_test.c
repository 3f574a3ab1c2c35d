#define _GNU_SOURCE
#include "server/hostio.h"
#include "server/rsp_escape.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "testsuite/emu/emu_test_main.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* gdbserver's packet buffer: with it as the reply limit our replies must
   equal its own byte for byte.  */
enum { gdbserver_pbufsiz = 0x4800 };

static struct hostio hio;
static struct ps_buf pkt, reply;
static char dir[64];

static int rm_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	return remove(path);
}

static void setup(void)
{
	hostio_init(&hio);
	ps_buf_init(&pkt);
	ps_buf_init(&reply);
	strcpy(dir, "/tmp/hostio_test.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	hostio_fini(&hio);
	ps_buf_fini(&pkt);
	ps_buf_fini(&reply);
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

TestSuite(hostio, .init = setup, .fini = teardown);

/* Start a packet "vFile:OP:" followed by PATH in hex, if any.  */
static void begin(const char *op, const char *path)
{
	ps_buf_reset(&pkt);
	ps_buf_printf(&pkt, "vFile:%s:", op);
	if (path)
		ps_buf_put_hex(&pkt, path, strlen(path));
}

static const char *send_max(size_t max_reply)
{
	ps_buf_reset(&reply);
	cr_assert_eq(hostio_handle(&hio, pkt.data, pkt.len, max_reply, &reply),
		     0);
	return reply.data ? reply.data : "";
}

static const char *send_pkt(void)
{
	return send_max(gdbserver_pbufsiz);
}

static const char *sendf(const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	cr_assert_geq(vasprintf(&text, fmt, ap), 0);
	va_end(ap);
	ps_buf_reset(&pkt);
	ps_buf_puts(&pkt, text);
	free(text);
	return send_pkt();
}

static char *path_in(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* An "F<hex>" result; the errno of "F-1,<hex>" as -errno.  */
static long result_of(const char *r)
{
	unsigned long v, e;

	if (sscanf(r, "F-1,%lx", &e) == 1)
		return -(long) e;
	cr_assert_eq(sscanf(r, "F%lx", &v), 1, "reply %s", r);
	return (long) v;
}

/* The unescaped data of an "F<count>;<data>" reply into OUT.  */
static long data_of(const struct ps_buf *r, void *out)
{
	const char *semi = memchr(r->data, ';', r->len);
	long count = result_of(r->data), n;

	cr_assert_not_null(semi, "reply %s", r->data);
	n = rsp_unescape(out, semi + 1, r->len - (size_t) (semi + 1 - r->data));
	cr_assert_eq(n, count, "count %ld, data %ld", count, n);
	return n;
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, data, len), (ssize_t) len);
	close(fd);
}

static long open_path(const char *path, unsigned flags, unsigned mode)
{
	begin("open", path);
	ps_buf_printf(&pkt, ",%x,%x", flags, mode);
	return result_of(send_pkt());
}

static uint8_t all_bytes[1024];

static void fill_all_bytes(void)
{
	for (size_t i = 0; i < sizeof(all_bytes); i++)
		all_bytes[i] = (uint8_t) (i * 7 + i / 256);
}

Test(hostio, pread_round_trips_every_byte)
{
	uint8_t got[sizeof(all_bytes)];
	long fd;

	fill_all_bytes();
	write_file(path_in("bytes"), all_bytes, sizeof(all_bytes));
	fd = open_path(path_in("bytes"), 0, 0);
	cr_assert_geq(fd, 0);

	sendf("vFile:pread:%lx,%zx,0", fd, sizeof(all_bytes));
	cr_assert_eq(data_of(&reply, got), (long) sizeof(all_bytes));
	cr_assert_arr_eq(got, all_bytes, sizeof(all_bytes));
	/* Nothing that frames a packet may appear raw.  */
	for (const char *p = strchr(reply.data, ';') + 1; *p; p++) {
		cr_assert(*p != '$' && *p != '#' && *p != '*');
		if (*p == '}')
			p++;
	}

	sendf("vFile:pread:%lx,10,3f8", fd);
	cr_assert_eq(data_of(&reply, got), 8);
	cr_assert_arr_eq(got, all_bytes + 0x3f8, 8);
	cr_assert_str_eq(sendf("vFile:pread:%lx,10,1000", fd), "F0;");

	cr_assert_str_eq(sendf("vFile:close:%lx", fd), "F0");
	cr_assert_str_eq(sendf("vFile:pread:%lx,10,0", fd), "F-1,9");
}

Test(hostio, pread_fits_the_reply_limit)
{
	uint8_t dollars[600], got[600];
	long fd, n;

	memset(dollars, '$', sizeof(dollars));
	write_file(path_in("dollars"), dollars, sizeof(dollars));
	fd = open_path(path_in("dollars"), 0, 0);
	cr_assert_geq(fd, 0);

	/* Every byte escapes to two: 100 bytes of reply, less "F<n>;".  */
	ps_buf_reset(&pkt);
	ps_buf_printf(&pkt, "vFile:pread:%lx,%x,0", fd, 0x7fffffff);
	send_max(100);
	cr_assert_leq(reply.len, 100);
	n = data_of(&reply, got);
	cr_assert_eq(n, (100 - 4) / 2, "%ld bytes in %s", n, reply.data);
	cr_assert_arr_eq(got, dollars, (size_t) n);

	/* A limit too small for any data still gives a valid reply.  */
	send_max(3);
	cr_assert_str_eq(reply.data, "F0;");
}

Test(hostio, pwrite_round_trips_every_byte)
{
	uint8_t got[sizeof(all_bytes)];
	struct ps_buf esc;
	long fd;
	int file;

	fill_all_bytes();
	fd = open_path(path_in("out"), 0x200 | 0x1, 0600);   /* CREAT|WRONLY */
	cr_assert_geq(fd, 0);

	ps_buf_init(&esc);
	cr_assert_eq(rsp_escape(&esc, all_bytes, sizeof(all_bytes), SIZE_MAX),
		     sizeof(all_bytes));
	ps_buf_reset(&pkt);
	ps_buf_printf(&pkt, "vFile:pwrite:%lx,10,", fd);
	ps_buf_append(&pkt, esc.data, esc.len);
	ps_buf_fini(&esc);
	cr_assert_eq(result_of(send_pkt()), (long) sizeof(all_bytes));

	file = open(path_in("out"), O_RDONLY);
	cr_assert_geq(file, 0);
	cr_assert_eq(pread(file, got, sizeof(got), 0x10), (ssize_t) sizeof(got));
	close(file);
	cr_assert_arr_eq(got, all_bytes, sizeof(all_bytes));

	/* A lone escape at the end is a malformed packet.  */
	ps_buf_reset(&pkt);
	ps_buf_printf(&pkt, "vFile:pwrite:%lx,0,ab}", fd);
	cr_assert_str_eq(send_pkt(), "F-1,16");
	/* A read-only fd cannot be written: the kernel's EBADF.  */
	write_file(path_in("ro"), "x", 1);
	fd = open_path(path_in("ro"), 0, 0);
	cr_assert_str_eq(sendf("vFile:pwrite:%lx,0,y", fd), "F-1,9");
}

static uint64_t be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

Test(hostio, fstat_is_big_endian_fileio_stat)
{
	uint8_t fst[64];
	struct stat st;
	long fd;

	write_file(path_in("f"), "hello, world", 12);
	cr_assert_eq(chmod(path_in("f"), 0751), 0);
	fd = open_path(path_in("f"), 0, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(stat(path_in("f"), &st), 0);

	sendf("vFile:fstat:%lx", fd);
	cr_assert_eq(data_of(&reply, fst), 64);
	cr_assert_eq(be(fst + 0, 4), (uint32_t) st.st_dev);
	cr_assert_eq(be(fst + 4, 4), (uint32_t) st.st_ino);
	cr_assert_eq(be(fst + 8, 4), 0100751);
	cr_assert_eq(be(fst + 12, 4), st.st_nlink);
	cr_assert_eq(be(fst + 16, 4), st.st_uid);
	cr_assert_eq(be(fst + 20, 4), st.st_gid);
	cr_assert_eq(be(fst + 28, 8), 12);
	cr_assert_eq(be(fst + 36, 8), (uint64_t) st.st_blksize);
	cr_assert_eq(be(fst + 44, 8), (uint64_t) st.st_blocks);
	cr_assert_eq(be(fst + 56, 4), (uint32_t) st.st_mtime);
	cr_assert_eq(be(fst + 60, 4), (uint32_t) st.st_ctime);

	/* A directory's mode carries S_IFDIR in File-I/O's value.  */
	fd = open_path(dir, 0, 0);
	cr_assert_geq(fd, 0);
	sendf("vFile:fstat:%lx", fd);
	cr_assert_eq(data_of(&reply, fst), 64);
	cr_assert_eq(be(fst + 8, 4) & 0170000, 040000);

	/* No partial struct: gdbserver fails the packet instead.  */
	ps_buf_reset(&pkt);
	ps_buf_printf(&pkt, "vFile:fstat:%lx", fd);
	cr_assert_str_eq(send_max(40), "E01");
}

Test(hostio, readlink_and_unlink)
{
	char target[300];

	write_file(path_in("file"), "", 0);
	cr_assert_eq(symlink("some/where else", path_in("link")), 0);

	begin("readlink", path_in("link"));
	send_pkt();
	cr_assert_eq(data_of(&reply, target), 15);
	cr_assert_arr_eq(target, "some/where else", 15);

	begin("readlink", path_in("file"));
	cr_assert_str_eq(send_pkt(), "F-1,16");       /* not a link: EINVAL */
	begin("readlink", path_in("none"));
	cr_assert_str_eq(send_pkt(), "F-1,2");

	begin("unlink", path_in("file"));
	cr_assert_str_eq(send_pkt(), "F0");
	cr_assert_neq(access(path_in("file"), F_OK), 0);
	begin("unlink", path_in("file"));
	cr_assert_str_eq(send_pkt(), "F-1,2");
	begin("unlink", dir);
	cr_assert_str_eq(send_pkt(), "F-1,15");       /* EISDIR, 21 */
}

Test(hostio, open_translates_fileio_flags)
{
	struct stat st;
	char buf[16];
	long fd;
	int file;

	/* CREAT|EXCL|WRONLY with mode 0640: Linux's values differ for all
	   three flags.  */
	umask(022);
	fd = open_path(path_in("new"), 0x200 | 0x800 | 0x1, 0640);
	cr_assert_geq(fd, 0);
	cr_assert_eq(stat(path_in("new"), &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0640);
	cr_assert_eq(fcntl((int) fd, F_GETFL) & O_ACCMODE, O_WRONLY);
	cr_assert(fcntl((int) fd, F_GETFD) & FD_CLOEXEC);
	cr_assert_eq(open_path(path_in("new"), 0x200 | 0x800 | 0x1, 0640),
		     -17);                          /* EEXIST */

	/* APPEND: a write lands at the end whatever the offset.  */
	write_file(path_in("app"), "abc", 3);
	fd = open_path(path_in("app"), 0x8 | 0x2, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fcntl((int) fd, F_GETFL) & O_ACCMODE, O_RDWR);
	cr_assert_str_eq(sendf("vFile:pwrite:%lx,0,de", fd), "F2");
	/* TRUNC empties the file.  */
	file = open(path_in("app"), O_RDONLY);
	cr_assert_eq(read(file, buf, sizeof(buf)), 5);
	cr_assert_arr_eq(buf, "abcde", 5);
	close(file);
	fd = open_path(path_in("app"), 0x400 | 0x1, 0);
	cr_assert_geq(fd, 0);
	cr_assert_eq(stat(path_in("app"), &st), 0);
	cr_assert_eq(st.st_size, 0);

	/* Bits File-I/O does not define are malformed, not ignored.  */
	cr_assert_eq(open_path(path_in("x"), 0x1000 | 0x200 | 0x1, 0600), -22);
	cr_assert_eq(open_path(path_in("x"), 0x200 | 0x1, 01600), -22);
	cr_assert_neq(access(path_in("x"), F_OK), 0);
	cr_assert_eq(open_path(path_in("missing"), 0, 0), -2);
}

Test(hostio, malformed_packets)
{
	long fd;

	write_file(path_in("f"), "data", 4);
	fd = open_path(path_in("f"), 0, 0);
	cr_assert_geq(fd, 0);

	cr_assert_str_eq(sendf("vFile:open:2f7,0,0"), "F-1,16");   /* odd */
	cr_assert_str_eq(sendf("vFile:open:2fzz,0,0"), "F-1,16");
	/* A NUL ends the path, as gdbserver takes it: this opens "/".  */
	cr_assert_geq(result_of(sendf("vFile:open:2f002f,0,0")), 0);
	cr_assert_str_eq(sendf("vFile:open:2f,0"), "F-1,16");
	cr_assert_str_eq(sendf("vFile:open:2f"), "F-1,16");
	cr_assert_str_eq(sendf("vFile:open:2f,0,0,"), "F-1,16");
	cr_assert_str_eq(sendf("vFile:pread:%lx,zz,0", fd), "F-1,16");
	cr_assert_str_eq(sendf("vFile:pread:%lx,10", fd), "F-1,16");
	cr_assert_str_eq(sendf("vFile:pread:%lx", fd), "F-1,16");
	cr_assert_str_eq(sendf("vFile:pread:%lx,10,0,", fd), "F-1,16");
	cr_assert_str_eq(sendf("vFile:pread:100000000,10,0"), "F-1,16");
	cr_assert_str_eq(sendf("vFile:pwrite:%lx,0", fd), "F-1,16");
	cr_assert_str_eq(sendf("vFile:close:%lxg", fd), "F-1,16");
	cr_assert_str_eq(sendf("vFile:fstat:"), "F-1,9");   /* fd 0: not ours */
	cr_assert_str_eq(sendf("vFile:setfs:-1"), "F-1,16");
	/* The file is still open and readable after all that.  */
	sendf("vFile:pread:%lx,4,0", fd);
	cr_assert_str_eq(reply.data, "F4;data");

	/* Only LEN bytes are the packet: what follows is not read.  */
	ps_buf_reset(&pkt);
	ps_buf_printf(&pkt, "vFile:pread:%lx,4,0", fd);
	{
		size_t len = pkt.len;

		ps_buf_puts(&pkt, ",junk");
		ps_buf_reset(&reply);
		cr_assert_eq(hostio_handle(&hio, pkt.data, len, 100, &reply), 0);
		cr_assert_str_eq(reply.data, "F4;data");
		ps_buf_reset(&reply);
		/* "...,4,": an empty field reads as 0, as in gdbserver.  */
		cr_assert_eq(hostio_handle(&hio, pkt.data, len - 1, 100, &reply),
			     0);
		cr_assert_str_eq(reply.data, "F4;data");
		ps_buf_reset(&reply);
		cr_assert_eq(hostio_handle(&hio, pkt.data, len - 2, 100, &reply),
			     0);
		cr_assert_str_eq(reply.data, "F-1,16");  /* "...,4" */
	}

	/* Unknown operations get the empty reply; other packets are not
	   ours at all.  */
	cr_assert_str_eq(sendf("vFile:stat:2f"), "");
	cr_assert_str_eq(sendf("vFile:"), "");
	cr_assert_eq(hostio_handle(&hio, "vFil", 4, 100, &reply), -pse_invalid);
	cr_assert_eq(hostio_handle(&hio, "qSupported", 10, 100, &reply),
		     -pse_invalid);
}

Test(hostio, only_its_own_fds)
{
	int mine = open("/dev/null", O_RDONLY);

	cr_assert_geq(mine, 0);
	/* The stub's own fds (and GDB's guesses) are off limits.  */
	cr_assert_str_eq(sendf("vFile:pread:%x,10,0", mine), "F-1,9");
	cr_assert_str_eq(sendf("vFile:fstat:%x", mine), "F-1,9");
	cr_assert_str_eq(sendf("vFile:close:%x", mine), "F-1,9");
	cr_assert_str_eq(sendf("vFile:pwrite:%x,0,a", mine), "F-1,9");
	cr_assert_str_eq(sendf("vFile:close:2"), "F-1,9");
	cr_assert_neq(fcntl(mine, F_GETFD), -1, "fd %d was closed", mine);
	close(mine);
}

Test(hostio, fini_closes_its_fds)
{
	long a, b;

	write_file(path_in("f"), "x", 1);
	a = open_path(path_in("f"), 0, 0);
	b = open_path(path_in("f"), 0, 0);
	cr_assert_geq(a, 0);
	cr_assert_geq(b, 0);
	cr_assert_neq(a, b);
	cr_assert_str_eq(sendf("vFile:close:%lx", a), "F0");
	hostio_fini(&hio);
	cr_assert_eq(fcntl((int) b, F_GETFD), -1);
	cr_assert_eq(errno, EBADF);
	hostio_init(&hio);
}

Test(hostio, offsets_past_4_gib)
{
	char got[4];
	long fd = open_path(path_in("sparse"), 0x200 | 0x2, 0600);

	cr_assert_geq(fd, 0);
	cr_assert_str_eq(sendf("vFile:pwrite:%lx,100000002,abcd", fd), "F4");
	sendf("vFile:pread:%lx,10,100000003", fd);
	cr_assert_eq(data_of(&reply, got), 3);
	cr_assert_arr_eq(got, "bcd", 3);
	cr_assert_str_eq(sendf("vFile:pread:%lx,10,8000000000000000", fd),
			 "F-1,16");
}

Test(hostio, fileio_errno_numbers)
{
	cr_assert_eq(hostio_fileio_errno(ENOENT), 2);
	cr_assert_eq(hostio_fileio_errno(EROFS), 30);
	cr_assert_eq(hostio_fileio_errno(ENOSYS), 88);
	cr_assert_eq(hostio_fileio_errno(ENAMETOOLONG), 91);
	cr_assert_eq(hostio_fileio_errno(ELOOP), 9999);
	cr_assert_eq(hostio_fileio_errno(ENOMEM), 9999);
}

/* vFile:setfs: a process in a mount namespace of its own, with a tmpfs
   on DIR that only it sees.  */
static pid_t spawn_in_own_mntns(void)
{
	int sync[2];
	char ok = 0;
	pid_t pid;

	cr_assert_eq(pipe(sync), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		char inner[256], link[256];

		close(sync[0]);
		snprintf(inner, sizeof(inner), "%s/inner", dir);
		snprintf(link, sizeof(link), "%s/abslink", dir);
		if (unshare(CLONE_NEWNS) == 0
		    && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0
		    && mount("none", dir, "tmpfs", 0, NULL) == 0) {
			int fd = open(inner, O_WRONLY | O_CREAT, 0644);

			if (fd >= 0 && write(fd, "inside", 6) == 6
			    && symlink(inner, link) == 0)
				ok = 1;
		}
		if (write(sync[1], &ok, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(sync[1]);
	if (read(sync[0], &ok, 1) != 1)
		ok = 0;
	close(sync[0]);
	if (!ok) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

Test(hostio, setfs_opens_in_the_process_mount_namespace)
{
	char got[16], target[256];
	pid_t child = spawn_in_own_mntns();
	long fd;

	if (child < 0)
		cr_skip_test("SKIP: cannot make a mount namespace here "
			     "(needs CAP_SYS_ADMIN)");

	/* Our own filesystem does not have it.  */
	cr_assert_str_eq(sendf("vFile:setfs:0"), "F0");
	cr_assert_eq(open_path(path_in("inner"), 0, 0), -2);

	cr_assert_str_eq(sendf("vFile:setfs:%x", child), "F0");
	fd = open_path(path_in("inner"), 0, 0);
	cr_assert_geq(fd, 0, "open in the child's namespace: %ld", fd);
	sendf("vFile:pread:%lx,10,0", fd);
	cr_assert_eq(data_of(&reply, got), 6);
	cr_assert_arr_eq(got, "inside", 6);

	/* An absolute symlink resolves in the process's root, not ours.  */
	fd = open_path(path_in("abslink"), 0, 0);
	cr_assert_geq(fd, 0, "open through the absolute link: %ld", fd);
	begin("readlink", path_in("abslink"));
	send_pkt();
	cr_assert_eq(data_of(&reply, target), (long) strlen(path_in("inner")));
	cr_assert_arr_eq(target, path_in("inner"), strlen(path_in("inner")));
	begin("readlink", path_in("inner"));
	cr_assert_str_eq(send_pkt(), "F-1,16");

	begin("unlink", path_in("abslink"));
	cr_assert_str_eq(send_pkt(), "F0");
	cr_assert_eq(open_path(path_in("abslink"), 0, 0), -2);
	begin("unlink", path_in("inner"));
	cr_assert_str_eq(send_pkt(), "F0");
	cr_assert_eq(open_path(path_in("inner"), 0, 0), -2);

	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	/* A process that is gone has no filesystem.  */
	cr_assert_eq(open_path(path_in("inner"), 0, 0), -2);
}

Test(hostio, setfs_same_namespace_opens_directly)
{
	pid_t child = fork();
	long fd;

	cr_assert_geq(child, 0);
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	write_file(path_in("here"), "x", 1);
	cr_assert_str_eq(sendf("vFile:setfs:%x", child), "F0");
	fd = open_path(path_in("here"), 0, 0);
	cr_assert_geq(fd, 0);
	cr_assert_str_eq(sendf("vFile:setfs:%x", getpid()), "F0");
	cr_assert_geq(open_path(path_in("here"), 0, 0), 0);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

/* Differential: the same packets to Debian's gdbserver, spoken to over
   a socket pair as GDB's `target remote | gdbserver - PROG` does.  */
struct peer {
	int fd;
	pid_t pid;
};

static int peer_start(struct peer *peer, const char *prog)
{
	const char *gdbserver = getenv("GDBSERVER");
	int sv[2];

	if (!gdbserver || !*gdbserver || !strcmp(gdbserver, "no"))
		gdbserver = "/usr/bin/gdbserver";
	if (access(gdbserver, X_OK) != 0)
		return -1;
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	peer->pid = fork();
	cr_assert_geq(peer->pid, 0);
	if (peer->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int null = open("/dev/null", O_WRONLY);

		dup2(sv[1], 0);
		dup2(sv[1], 1);
		dup2(null, 2);
		close(sv[0]);
		execl(gdbserver, gdbserver, "-", prog, (char *) NULL);
		_exit(127);
	}
	close(sv[1]);
	peer->fd = sv[0];
	return 0;
}

static int peer_getc(struct peer *peer)
{
	unsigned char c;

	cr_assert_eq(read(peer->fd, &c, 1), 1, "gdbserver went away");
	return c;
}

/* Send PACKET (LEN bytes) and return the reply, run-length decoded, in
   OUT: the payload exactly as escaping left it.  */
static void peer_call(struct peer *peer, const char *packet, size_t len,
		      struct ps_buf *out)
{
	struct ps_buf frame;
	unsigned sum = 0;
	int c;

	ps_buf_init(&frame);
	for (size_t i = 0; i < len; i++)
		sum += (unsigned char) packet[i];
	ps_buf_putc(&frame, '$');
	ps_buf_append(&frame, packet, len);
	ps_buf_printf(&frame, "#%02x", sum & 0xff);
	cr_assert_eq(write(peer->fd, frame.data, frame.len), (ssize_t) frame.len);
	ps_buf_fini(&frame);

	while ((c = peer_getc(peer)) != '$')
		;
	ps_buf_reset(out);
	while ((c = peer_getc(peer)) != '#') {
		if (c == '*') {
			int n = peer_getc(peer) - 29;
			char last = out->data[out->len - 1];

			while (n-- > 0)
				ps_buf_putc(out, last);
		} else {
			ps_buf_putc(out, (char) c);
		}
	}
	peer_getc(peer);
	peer_getc(peer);
	cr_assert_eq(write(peer->fd, "+", 1), 1);
	if (!out->data)
		ps_buf_puts(out, "");
}

/* Kill the inferior ("k" has no reply: gdbserver exits), then make
   sure gdbserver is gone: over stdio it may outlive its peer, spinning.  */
static void peer_stop(struct peer *peer)
{
	cr_assert_eq(write(peer->fd, "$k#6b", 5), 5);
	for (int tries = 0; tries < 200; tries++) {
		if (waitpid(peer->pid, NULL, WNOHANG) == peer->pid) {
			peer->pid = -1;
			break;
		}
		usleep(10000);
	}
	if (peer->pid > 0) {
		kill(peer->pid, SIGKILL);
		waitpid(peer->pid, NULL, 0);
	}
	close(peer->fd);
}

/* Send the packet FMT, with "%s" standing for each side's own fd, to
   both and compare the replies.  */
static void both(struct peer *peer, long our_fd, long its_fd, const char *fmt)
{
	struct ps_buf theirs;
	char *text;

	ps_buf_init(&theirs);
	cr_assert_geq(asprintf(&text, fmt, its_fd), 0);
	peer_call(peer, text, strlen(text), &theirs);
	free(text);
	cr_assert_geq(asprintf(&text, fmt, our_fd), 0);
	ps_buf_reset(&pkt);
	ps_buf_puts(&pkt, text);
	send_pkt();
	cr_assert_eq(reply.len, theirs.len, "%s: %zu bytes, gdbserver %zu",
		     text, reply.len, theirs.len);
	cr_assert_arr_eq(reply.data, theirs.data, reply.len, "%s differs", text);
	free(text);
	ps_buf_fini(&theirs);
}

Test(hostio, replies_equal_gdbserver_for_bin_true)
{
	struct peer peer;
	struct ps_buf theirs;
	long ours, its;

	if (peer_start(&peer, "/bin/true") < 0)
		cr_skip_test("SKIP: no gdbserver to compare with");
	ps_buf_init(&theirs);

	begin("open", "/bin/true");
	ps_buf_puts(&pkt, ",0,0");
	peer_call(&peer, pkt.data, pkt.len, &theirs);
	its = result_of(theirs.data);
	ours = result_of(send_pkt());
	cr_assert_geq(its, 0);
	cr_assert_geq(ours, 0);

	/* What GDB reads first, with its PacketSize as count.  */
	both(&peer, ours, its, "vFile:pread:%lx,47ff,0");
	both(&peer, ours, its, "vFile:pread:%lx,47ff,8390");
	both(&peer, ours, its, "vFile:pread:%lx,47ff,40");
	both(&peer, ours, its, "vFile:pread:%lx,10,0");
	both(&peer, ours, its, "vFile:pread:%lx,0,0");
	both(&peer, ours, its, "vFile:pread:%lx,100,1000000");
	both(&peer, ours, its, "vFile:fstat:%lx");
	both(&peer, ours, its, "vFile:pread:%lx,zz,0");

	both(&peer, 0, 0, "vFile:open:2f6e6f2f737563682f66696c65,0,0");
	both(&peer, 0, 0, "vFile:open:2f62696e2f74727565,1000,0");
	both(&peer, 0, 0, "vFile:open:2f62696e2f7472756,0,0");
	both(&peer, 0, 0, "vFile:readlink:2f6c6962363400");
	both(&peer, 0, 0, "vFile:stat:2f");
	both(&peer, 0, 0, "vFile:setfs:0");
	begin("readlink", "/lib64/ld-linux-x86-64.so.2");
	both(&peer, 0, 0, pkt.data);
	begin("readlink", "/bin/true");
	both(&peer, 0, 0, pkt.data);

	both(&peer, ours, its, "vFile:close:%lx");
	ps_buf_fini(&theirs);
	peer_stop(&peer);
}
