/* Inferior memory: process_vm_readv for speed, /proc/PID/mem for pages
   the process itself may not read or write (text, guard pages).  */
#ifndef NAT_MEM_H
#define NAT_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct nat_mem {
	pid_t pid;
	int fd;          /* /proc/PID/mem, opened on first need; -1 before */
};

void nat_mem_init(struct nat_mem *mem, pid_t pid);
void nat_mem_fini(struct nat_mem *mem);

/* Forget the open file: after exec the old one refers to the old image.  */
void nat_mem_reset(struct nat_mem *mem);

/* Read up to LEN bytes at ADDR; returns the count read (stopping at the
   first unreadable byte) or -pse_fault when none could be read.  */
long nat_mem_read(struct nat_mem *mem, uint64_t addr, void *buf, size_t len);

/* Write all LEN bytes at ADDR, or fail with -pse_fault.  */
int nat_mem_write(struct nat_mem *mem, uint64_t addr, const void *buf,
		  size_t len);

#endif
