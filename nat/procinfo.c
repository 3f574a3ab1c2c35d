#include "nat/procinfo.h"
#include "common/ps_array.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Why a /proc file of thread TID (0: of the process) could not be read:
   the thread alone may have exited while the process lives on.  */
static int proc_error(int err, pid_t pid, pid_t tid)
{
	char name[64];

	switch (err) {
	case ENOENT:
	case ESRCH:
		if (tid == 0)
			return -pse_noproc;
		snprintf(name, sizeof(name), "/proc/%d", (int) pid);
		return access(name, F_OK) == 0 ? -pse_nothread : -pse_noproc;
	default:
		return ps_error_proc(err);
	}
}

/* Read the small file NAME into BUF (SIZE bytes, NUL-terminated): its
   length, or -1 with errno.  */
static long read_small(const char *name, char *buf, size_t size)
{
	size_t len = 0;
	int fd = open(name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t) n;
	}
	close(fd);
	buf[len] = '\0';
	return (long) len;
}

int procinfo_exe_path(pid_t pid, struct ps_buf *path)
{
	char name[64], target[PATH_MAX];
	ssize_t n;

	snprintf(name, sizeof(name), "/proc/%d/exe", (int) pid);
	n = readlink(name, target, sizeof(target));
	if (n < 0)
		return proc_error(errno, pid, 0);
	if ((size_t) n == sizeof(target))
		return -pse_toolong;
	return ps_buf_append(path, target, (size_t) n);
}

int procinfo_thread_name(pid_t pid, pid_t tid, struct ps_buf *name)
{
	char file[96], comm[64];
	long n;

	snprintf(file, sizeof(file), "/proc/%d/task/%d/comm", (int) pid,
		 (int) tid);
	n = read_small(file, comm, sizeof(comm));
	if (n < 0)
		return proc_error(errno, pid, tid);
	if (n > 0 && comm[n - 1] == '\n')
		n--;
	return ps_buf_append(name, comm, (size_t) n);
}

int procinfo_ids(pid_t pid, struct procinfo_ids *ids)
{
	char file[64], status[4096];
	const char *p;
	long n;

	snprintf(file, sizeof(file), "/proc/%d/status", (int) pid);
	n = read_small(file, status, sizeof(status));
	if (n < 0)
		return proc_error(errno, pid, 0);
	memset(ids, 0, sizeof(*ids));
	p = strstr(status, "\nPPid:");
	if (!p || sscanf(p, "\nPPid: %ld", &ids->ppid) != 1)
		return -pse_io;
	p = strstr(status, "\nUid:");
	if (!p || sscanf(p, "\nUid: %ld %ld", &ids->uid, &ids->euid) != 2)
		return -pse_io;
	p = strstr(status, "\nGid:");
	if (!p || sscanf(p, "\nGid: %ld %ld", &ids->gid, &ids->egid) != 2)
		return -pse_io;
	return 0;
}

int procinfo_thread_core(pid_t pid, pid_t tid)
{
	/* Field 39 (processor) of stat; fields count from 1 and the second,
	   the name in parentheses, may hold spaces and parentheses itself.  */
	enum { stat_field_processor = 39, stat_field_after_name = 3 };
	char file[96], stat[1024];
	const char *p;
	long n, core;
	char *end;

	snprintf(file, sizeof(file), "/proc/%d/task/%d/stat", (int) pid,
		 (int) tid);
	n = read_small(file, stat, sizeof(stat));
	if (n < 0)
		return proc_error(errno, pid, tid);

	p = strrchr(stat, ')');
	if (!p || p[1] != ' ')
		return -pse_io;
	p += 2;
	for (int field = stat_field_after_name; field < stat_field_processor;
	     field++) {
		p = strchr(p, ' ');
		if (!p)
			return -pse_io;
		p++;
	}
	errno = 0;
	core = strtol(p, &end, 10);
	if (end == p || errno || core < 0 || core > INT_MAX)
		return -pse_io;
	return (int) core;
}

void procinfo_tids_init(struct procinfo_tids *list)
{
	list->tids = NULL;
	list->count = 0;
	list->cap = 0;
}

void procinfo_tids_fini(struct procinfo_tids *list)
{
	free(list->tids);
	procinfo_tids_init(list);
}

static int tids_add(struct procinfo_tids *list, pid_t tid)
{
	if (PS_ARRAY_RESERVE(list->tids, list->cap, list->count + 1))
		return -pse_nomem;
	list->tids[list->count++] = tid;
	return 0;
}

static int tid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *) a, y = *(const pid_t *) b;

	return (x > y) - (x < y);
}

int procinfo_threads(pid_t pid, struct procinfo_tids *list)
{
	char name[64];
	struct dirent *ent;
	DIR *dir;
	int err = 0;

	list->count = 0;
	snprintf(name, sizeof(name), "/proc/%d/task", (int) pid);
	dir = opendir(name);
	if (!dir)
		return proc_error(errno, pid, 0);

	while (!err && (ent = readdir(dir))) {
		char *end;
		long tid = strtol(ent->d_name, &end, 10);

		if (end == ent->d_name || *end || tid <= 0)
			continue;       /* "." and ".." */
		err = tids_add(list, (pid_t) tid);
	}
	closedir(dir);
	if (err < 0)
		return err;
	/* Only a process already reaped lists no thread at all.  */
	if (list->count == 0)
		return -pse_noproc;
	qsort(list->tids, list->count, sizeof(*list->tids), tid_cmp);
	return 0;
}
