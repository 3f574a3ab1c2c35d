#define _GNU_SOURCE
#include "nat/osdata.h"
#include "common/ps_array.h"
#include "nat/procinfo.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void osdata_pids_init(struct osdata_pids *list)
{
	memset(list, 0, sizeof(*list));
}

void osdata_pids_fini(struct osdata_pids *list)
{
	free(list->pids);
	osdata_pids_init(list);
}

static int osdata_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *) a, y = *(const pid_t *) b;

	return (x > y) - (x < y);
}

/* The numeric names in folder PATH, at least MIN, ascending.  */
static int osdata_numbers(struct osdata_pids *list, const char *path, long min)
{
	DIR *dir = opendir(path);
	struct dirent *ent;

	list->count = 0;
	if (!dir)
		return ps_error_proc(errno);
	while ((ent = readdir(dir))) {
		char *end;
		long pid;

		if (!isdigit((unsigned char) ent->d_name[0]))
			continue;
		pid = strtol(ent->d_name, &end, 10);
		if (*end || pid < min || pid > 0x7fffffff)
			continue;
		if (PS_ARRAY_RESERVE(list->pids, list->cap, list->count + 1)) {
			closedir(dir);
			return -pse_nomem;
		}
		list->pids[list->count++] = (pid_t) pid;
	}
	closedir(dir);
	qsort(list->pids, list->count, sizeof(*list->pids), osdata_pid_cmp);
	return 0;
}

int osdata_pids_read(struct osdata_pids *list, const char *proc_dir)
{
	return osdata_numbers(list, proc_dir ? proc_dir : "/proc", 1);
}

int osdata_fds_read(pid_t pid, struct osdata_pids *fds)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd", (int) pid);
	return osdata_numbers(fds, path, 0);
}

int osdata_fd_name(pid_t pid, int fd, struct ps_buf *out)
{
	char path[64], target[1000];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int) pid, fd);
	n = readlink(path, target, sizeof(target) - 1);
	/* Unreadable (gone, or not ours): its number, as gdbserver lists
	   it.  */
	if (n < 0)
		return ps_buf_printf(out, "%d", fd);
	return ps_buf_append(out, target, (size_t) n);
}

/* Append the file /proc/PID/NAME whole to OUT; its length.  */
static long osdata_read_file(pid_t pid, const char *name, struct ps_buf *out)
{
	char path[64], chunk[4096];
	long total = 0;
	int fd, err;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int) pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ps_error_proc(errno);
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = ps_error_proc(errno);
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		err = ps_buf_append(out, chunk, (size_t) n);
		if (err < 0) {
			close(fd);
			return err;
		}
		total += n;
	}
	close(fd);
	return total;
}

int osdata_command(pid_t pid, struct ps_buf *out)
{
	struct ps_buf stat;
	const char *open_paren, *close_paren;
	long n;
	int err;

	ps_buf_init(&stat);
	n = osdata_read_file(pid, "stat", &stat);
	if (n < 0) {
		ps_buf_fini(&stat);
		return (int) n;
	}
	/* "PID (COMM) STATE ...": COMM may hold blanks and parentheses,
	   so it ends at the last ')'.  */
	open_paren = n ? memchr(stat.data, '(', stat.len) : NULL;
	close_paren = n ? memrchr(stat.data, ')', stat.len) : NULL;
	if (!open_paren || !close_paren || close_paren < open_paren)
		err = -pse_io;
	else
		err = ps_buf_append(out, open_paren + 1,
				    (size_t) (close_paren - open_paren - 1));
	ps_buf_fini(&stat);
	return err;
}

int osdata_command_line(pid_t pid, struct ps_buf *out)
{
	size_t start = out->len;
	long n = osdata_read_file(pid, "cmdline", out);
	int err;

	if (n < 0)
		return (int) n;
	if (n > 0) {
		/* Each argument ends in a NUL: each becomes a blank, the
		   last one too, as in gdbserver's listing.  */
		for (size_t i = start; i < out->len; i++)
			if (out->data[i] == '\0')
				out->data[i] = ' ';
		return 0;
	}
	err = ps_buf_putc(out, '[');
	if (!err)
		err = osdata_command(pid, out);
	if (!err)
		err = ps_buf_putc(out, ']');
	return err;
}

int osdata_user(pid_t pid, struct ps_buf *out)
{
	struct passwd pwd, *entry = NULL;
	struct stat st;
	char path[64], buf[1024];

	snprintf(path, sizeof(path), "/proc/%d", (int) pid);
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return ps_buf_puts(out, "?");
	if (getpwuid_r(st.st_uid, &pwd, buf, sizeof(buf), &entry) != 0 ||
	    !entry)
		return 0;
	return ps_buf_puts(out, entry->pw_name);
}

int osdata_pgid(pid_t pid, pid_t *pgid)
{
	pid_t g = getpgid(pid);

	if (g < 0)
		return ps_error_proc(errno);
	*pgid = g;
	return 0;
}

static int osdata_int_cmp(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;

	return (x > y) - (x < y);
}

int osdata_cores(pid_t pid, struct ps_buf *out)
{
	struct procinfo_tids tids;
	int *cores = NULL, err, first = 1;
	size_t n = 0;

	procinfo_tids_init(&tids);
	err = procinfo_threads(pid, &tids);
	if (err < 0)
		goto out;
	cores = calloc(tids.count ? tids.count : 1, sizeof(*cores));
	if (!cores) {
		err = -pse_nomem;
		goto out;
	}
	for (size_t i = 0; i < tids.count; i++) {
		int core = procinfo_thread_core(pid, tids.tids[i]);

		/* A thread that just exited has no core: skip it.  */
		if (core >= 0)
			cores[n++] = core;
	}
	qsort(cores, n, sizeof(*cores), osdata_int_cmp);
	for (size_t i = 0; i < n && !err; i++) {
		if (i && cores[i] == cores[i - 1])
			continue;
		err = ps_buf_printf(out, first ? "%d" : ",%d", cores[i]);
		first = 0;
	}
out:
	free(cores);
	procinfo_tids_fini(&tids);
	return err;
}
