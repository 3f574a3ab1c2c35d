/* The atomic bundle file writer (bt_bundle_file.h).  */
#include "btrace/bt_bundle_file.h"
#include "btrace/ptbundle.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Write all of DATA to FD; 0 or an errno.  */
static int bt_file_write_all(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return ENOSPC;
		p += n;
		size -= (size_t) n;
	}
	return 0;
}

static int bt_file_in_place(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return errno;
	err = bt_file_write_all(fd, data, size);
	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}

/* Write DATA to a new file beside PATH and rename it over PATH; 0 or
   an errno.  */
static int bt_file_replace(const char *path, const void *data, size_t size)
{
	char tmp[PATH_MAX + 32];
	int fd = -1, err;

	/* Our pid and a count: two writers of the same PATH (the stub and a
	   recorder) never share a temporary file.  */
	for (unsigned int n = 0; n <= 100; n++) {
		if (snprintf(tmp, sizeof(tmp), "%s.tmp%d.%u", path,
			     (int) getpid(), n) >= (int) sizeof(tmp))
			return ENAMETOOLONG;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return errno;
	/* The umask must not make a bundle unreadable to its user's tools.  */
	fchmod(fd, 0644);
	err = bt_file_write_all(fd, data, size);
	/* Delayed allocation (NFS, quotas) may report a full disk only on
	   fsync or close; a file system that cannot sync says EINVAL.  */
	if (!err && fsync(fd) < 0 && errno != EINVAL && errno != EROFS)
		err = errno;
	if (close(fd) < 0 && !err)
		err = errno;
	if (!err && rename(tmp, path) < 0)
		err = errno;
	if (err)
		unlink(tmp);
	return err;
}

int bt_bundle_file_put(const char *path, const void *data, size_t size)
{
	char real[PATH_MAX];
	struct stat st;
	int err;

	if (!path || (!data && size))
		return -bte_invalid;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			err = EISDIR;
		else if (!S_ISREG(st.st_mode))
			err = bt_file_in_place(path, data, size);
		else
			/* A link to a file: the file is the one replaced.  */
			err = bt_file_replace(realpath(path, real) ? real : path,
					      data, size);
	} else
		err = bt_file_replace(path, data, size);
	if (!err)
		return 0;
	errno = err;
	return -bte_io;
}
