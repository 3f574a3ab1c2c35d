#define _GNU_SOURCE
#include "nat/proc_root.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The filesystem of PID: -1 in *ROOT when paths are opened
   directly (our own, or one sharing our mount namespace), else an O_PATH
   fd for the process's root.  -1 with errno when neither.  */
static int proc_root_fd(pid_t pid, int *root)
{
	char name[64];
	struct stat own, its;

	*root = -1;
	if (pid == 0 || pid == getpid())
		return 0;
	/* Without namespaces there is only one filesystem.  */
	if (stat("/proc/self/ns/mnt", &own) != 0)
		return 0;
	snprintf(name, sizeof(name), "/proc/%d/ns/mnt", (int) pid);
	if (stat(name, &its) != 0)
		return -1;
	if (own.st_ino == its.st_ino && own.st_dev == its.st_dev)
		return 0;

	snprintf(name, sizeof(name), "/proc/%d/root", (int) pid);
	*root = open(name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return *root < 0 ? -1 : 0;
}

static void close_keep_errno(int fd)
{
	int saved = errno;

	if (fd >= 0)
		close(fd);
	errno = saved;
}

/* Open PATH inside ROOT so that absolute symlinks and ".." stay in the
   process's root, as the process itself would resolve them.  Kernels
   without openat2 get the plain /proc/PID/root/ prefix.  */
static int open_in_root(pid_t pid, int root, const char *path,
			int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (uint64_t) flags,
		.mode = (flags & O_CREAT) ? mode : 0,
		.resolve = RESOLVE_IN_ROOT,
	};
	char *full;
	long fd;

	fd = syscall(SYS_openat2, root, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return (int) fd;

	if (asprintf(&full, "/proc/%d/root/%s", (int) pid, path) < 0) {
		errno = ENOMEM;
		return -1;
	}
	fd = open(full, flags, mode);
	free(full);
	return (int) fd;
}

int proc_root_open(pid_t pid, const char *path, int flags, mode_t mode)
{
	int root, fd;

	flags |= O_CLOEXEC;     /* never leak GDB's files into inferiors */
	if (proc_root_fd(pid, &root) != 0)
		return -1;
	if (root < 0)
		return open(path, flags, mode);
	fd = open_in_root(pid, root, path, flags, mode);
	close_keep_errno(root);
	return fd;
}

long proc_root_readlink(pid_t pid, const char *path, char *out,
			size_t size)
{
	int root, link;
	long n;

	if (proc_root_fd(pid, &root) != 0)
		return -1;
	if (root < 0)
		return readlink(path, out, size);
	link = open_in_root(pid, root, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	close_keep_errno(root);
	if (link < 0)
		return -1;
	n = readlinkat(link, "", out, size);
	/* An empty path reports a non-link as ENOENT; readlink says EINVAL.  */
	if (n < 0 && errno == ENOENT)
		errno = EINVAL;
	close_keep_errno(link);
	return n;
}

int proc_root_unlink(pid_t pid, const char *path)
{
	char dir[PATH_MAX];
	const char *base, *slash;
	int root, at, ret;

	if (proc_root_fd(pid, &root) != 0)
		return -1;
	if (root < 0)
		return unlink(path);

	if (strlen(path) >= sizeof(dir)) {
		close(root);
		errno = ENAMETOOLONG;
		return -1;
	}
	/* unlinkat has no RESOLVE_IN_ROOT: resolve the directory with it.  */
	slash = strrchr(path, '/');
	if (slash) {
		size_t n = (size_t) (slash - path);

		memcpy(dir, path, n);
		strcpy(dir + n, n ? "" : "/");
		base = slash + 1;
	} else {
		strcpy(dir, ".");
		base = path;
	}
	at = open_in_root(pid, root, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	close_keep_errno(root);
	if (at < 0)
		return -1;
	ret = unlinkat(at, base, 0);
	close_keep_errno(at);
	return ret;
}
