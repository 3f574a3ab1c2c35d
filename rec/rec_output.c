/* Where snapshots go: FILE, FILE.1, FILE.2, ..., each written whole or
   not at all, so that a full disk or a missing directory leaves no
   partial bundle behind.  */
#include "rec/recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *rec_output_name(const char *file, unsigned n)
{
	size_t len = strlen(file) + 16;
	char *name = malloc(len);

	if (!name)
		return NULL;
	if (n == 0)
		snprintf(name, len, "%s", file);
	else
		snprintf(name, len, "%s.%u", file, n);
	return name;
}

static int rec_write_all(int fd, const void *data, size_t size)
{
	const char *p = data;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		p += n;
		size -= (size_t) n;
	}
	return 0;
}

/* A device (/dev/full, a pipe) cannot be replaced by a rename: write it
   in place.  */
static int rec_write_in_place(const char *path, const void *data,
			      size_t size)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = rec_write_all(fd, data, size);
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

int rec_output_write(const char *path, const void *data, size_t size)
{
	struct stat st;
	size_t len = strlen(path) + 16;
	char *tmp;
	int fd, err;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR
			: rec_write_in_place(path, data, size);

	tmp = malloc(len);
	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, len, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	fchmod(fd, 0644);
	err = rec_write_all(fd, data, size);
	if (!err && fsync(fd) < 0 && errno != EINVAL)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}
