#define _GNU_SOURCE
#include "nat/mem.h"
#include "common/ps_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

void nat_mem_init(struct nat_mem *mem, pid_t pid)
{
	mem->pid = pid;
	mem->fd = -1;
}

void nat_mem_fini(struct nat_mem *mem)
{
	nat_mem_reset(mem);
}

void nat_mem_reset(struct nat_mem *mem)
{
	if (mem->fd >= 0)
		close(mem->fd);
	mem->fd = -1;
}

static int nat_mem_open(struct nat_mem *mem)
{
	char path[64];

	if (mem->fd >= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int) mem->pid);
	mem->fd = open(path, O_RDWR | O_CLOEXEC);
	return mem->fd < 0 ? -pse_io : 0;
}

long nat_mem_read(struct nat_mem *mem, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *) addr, len };
	size_t done = 0;
	ssize_t n;

	if (!len)
		return 0;
	n = process_vm_readv(mem->pid, &local, 1, &remote, 1, 0);
	if (n > 0)
		done = (size_t) n;
	if (done == len)
		return (long) done;

	/* The rest may be readable through ptrace's view (FOLL_FORCE).  */
	if (nat_mem_open(mem) == 0) {
		while (done < len) {
			n = pread(mem->fd, (char *) buf + done, len - done,
				  (off_t) (addr + done));
			if (n <= 0)
				break;
			done += (size_t) n;
		}
	}
	return done ? (long) done : -pse_fault;
}

int nat_mem_write(struct nat_mem *mem, uint64_t addr, const void *buf,
		  size_t len)
{
	size_t done = 0;
	int err;

	err = nat_mem_open(mem);
	if (err < 0)
		return err;
	while (done < len) {
		ssize_t n = pwrite(mem->fd, (const char *) buf + done,
				   len - done, (off_t) (addr + done));

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return -pse_fault;
		}
		done += (size_t) n;
	}
	return 0;
}
