#include "nat/auxv.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int auxv_read(pid_t pid, struct ps_buf *auxv)
{
	char name[64];
	size_t start = auxv->len;
	int fd, err = 0;

	snprintf(name, sizeof(name), "/proc/%d/auxv", (int) pid);
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ps_error_proc(errno);

	/* The file has no size in stat: read until EOF.  */
	for (;;) {
		ssize_t n;

		err = ps_buf_reserve(auxv, 512);
		if (err < 0)
			break;
		n = read(fd, auxv->data + auxv->len, auxv->cap - auxv->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = ps_error_proc(errno);
			break;
		}
		if (n == 0)
			break;
		auxv->len += (size_t) n;
	}
	close(fd);
	/* A zombie's auxv reads empty: its memory is gone with it.  */
	if (!err && auxv->len == start)
		err = -pse_noproc;
	if (err < 0)
		auxv->len = start;
	if (auxv->data)
		auxv->data[auxv->len] = '\0';
	return err;
}

int auxv_lookup(const void *auxv, size_t len, uint64_t type,
		uint64_t *value)
{
	const unsigned char *p = auxv;

	for (size_t off = 0; off + 16 <= len; off += 16) {
		uint64_t t, v;

		memcpy(&t, p + off, sizeof(t));
		memcpy(&v, p + off + 8, sizeof(v));
		if (t == 0)      /* AT_NULL */
			break;
		if (t == type) {
			*value = v;
			return 0;
		}
	}
	return -pse_notfound;
}
