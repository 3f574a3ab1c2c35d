#define _GNU_SOURCE
#include "nat/emu/cc_inject.h"
#include "nat/mem.h"
#include "common/ps_error.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>


/* waitpid for TID, again when a signal interrupts it: ptstub's own
   tick (SIGALRM, no SA_RESTART) lands there when the injected call is
   slow, and giving up would leave the thread running the injection
   with its registers never restored.  */
static pid_t cc_inject_wait(pid_t tid, int *status)
{
	for (;;) {
		pid_t r = waitpid(tid, status, __WALL);

		if (r >= 0 || errno != EINTR)
			return r;
	}
}

int cc_inject_syscall(pid_t tid, struct nat_mem *mem, uint64_t at,
		      long nr, const uint64_t args[6], int64_t *ret)
{
	static const uint8_t syscall_insn[2] = { 0x0f, 0x05 };
	struct user_regs_struct saved, regs;
	uint8_t orig[2];
	int status, err = 0, resend = 0;

	if (ptrace(PTRACE_GETREGS, tid, 0, &saved) < 0)
		return -pse_io;
	if (!at) {
		at = saved.rip;
		if (nat_mem_read(mem, at, orig, 2) != 2 ||
		    nat_mem_write(mem, at, syscall_insn, 2) < 0)
			return -pse_fault;
	}
	regs = saved;
	regs.rip = at;
	regs.rax = (uint64_t) nr;
	/* No restart logic may touch the call (the thread may sit in an
	   interrupted syscall).  */
	regs.orig_rax = (uint64_t) -1;
	regs.rdi = args[0];
	regs.rsi = args[1];
	regs.rdx = args[2];
	regs.r10 = args[3];
	regs.r8 = args[4];
	regs.r9 = args[5];
	if (ptrace(PTRACE_SETREGS, tid, 0, &regs) < 0) {
		err = -pse_io;
		goto out;
	}
	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, tid, 0, 0) < 0) {
			err = -pse_io;
			goto out;
		}
		if (cc_inject_wait(tid, &status) != tid ||
		    !WIFSTOPPED(status)) {
			err = -pse_noproc;
			goto out;
		}
		if (WSTOPSIG(status) == SIGTRAP && !(status >> 16))
			break;
		/* A signal came first: it is sent again once the thread
		   is back as it was (an event stop is simply passed).  */
		if (!(status >> 16) && WSTOPSIG(status) != SIGSTOP)
			resend = WSTOPSIG(status);
		else if (WSTOPSIG(status) == SIGSTOP)
			resend = SIGSTOP;
	}
	if (ptrace(PTRACE_GETREGS, tid, 0, &regs) < 0)
		err = -pse_io;
	else
		*ret = (int64_t) regs.rax;
out:
	if (at == saved.rip && nat_mem_write(mem, at, orig, 2) < 0)
		err = -pse_fault;
	if (ptrace(PTRACE_SETREGS, tid, 0, &saved) < 0 && !err)
		err = -pse_io;
	if (resend)
		syscall(SYS_tkill, tid, resend);
	return err;
}

static int cc_kernel_err(int64_t ret)
{
	return ret < 0 && ret > -4096 ? -pse_io : 0;
}

uint64_t cc_free_range(pid_t pid, uint64_t near, uint64_t size,
		       uint64_t dist)
{
	char path[64], line[512];
	uint64_t prev_end = 0x10000, best = 0, best_d = UINT64_MAX;
	FILE *f;

	/* Half the reach below NEAR; where the address space starts too
	   close below (a non-PIE program at 0x400000, whose heap grows
	   right above it: brk failed into the cache there), as far above
	   as the reach allows, leaving the heap that much room.  */
	uint64_t want = near > size + dist / 2 + 0x100000 ?
		(near - size - dist / 2) & ~0xfffull :
		(near + dist - size - 0x100000) & ~0xfffull;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	for (;;) {
		unsigned long long s = 0x7ffffffff000ull, e = 0;
		bool last = !fgets(line, sizeof(line), f);

		if (!last && sscanf(line, "%llx-%llx", &s, &e) != 2)
			continue;
		/* The gap [prev_end, s): as close as it comes to WANT, a
		   page apart from its neighbours.  */
		if (s > prev_end + size + 2 * 4096) {
			uint64_t lo = prev_end + 4096, hi = s - 4096 - size;
			uint64_t cand = want < lo ? lo : want > hi ? hi : want;
			uint64_t a = cand > near ? cand - near : near - cand;
			uint64_t b = cand + size > near ? cand + size - near
				: near - cand - size;
			uint64_t d = a > b ? a : b;
			uint64_t off = cand > want ? cand - want : want - cand;

			if (d < dist && off < best_d) {
				best = cand;
				best_d = off;
			}
		}
		if (last)
			break;
		prev_end = e;
	}
	fclose(f);
	return best;
}

/* A memfd named NAME in TID, SIZE bytes long: its descriptor, or
   negative.  The name is written below the thread's red zone for the
   call and the bytes there put back.  */
static int64_t cc_inject_memfd(pid_t tid, struct nat_mem *mem, uint64_t at,
			       const char *name, uint64_t size)
{
	struct user_regs_struct regs;
	uint8_t saved[128];
	size_t len = strlen(name) + 1;
	uint64_t scratch, args[6] = { 0 };
	int64_t fd, ret;

	if (len > sizeof(saved) ||
	    ptrace(PTRACE_GETREGS, tid, 0, &regs) < 0)
		return -1;
	scratch = (regs.rsp - 1024) & ~15ull;
	if (nat_mem_read(mem, scratch, saved, len) != (long) len ||
	    nat_mem_write(mem, scratch, name, len) < 0)
		return -1;
	args[0] = scratch;
	args[1] = MFD_CLOEXEC;
	if (cc_inject_syscall(tid, mem, at, SYS_memfd_create, args, &fd) < 0)
		fd = -1;
	nat_mem_write(mem, scratch, saved, len);
	if (fd < 0)
		return -1;
	args[0] = (uint64_t) fd;
	args[1] = size;
	if (cc_inject_syscall(tid, mem, at, SYS_ftruncate, args, &ret) < 0 ||
	    ret < 0) {
		args[1] = 0;
		cc_inject_syscall(tid, mem, at, SYS_close, args, &ret);
		return -1;
	}
	return fd;
}

/* FD of TID mapped SIZE bytes read-write into ptstub, shared, or
   NULL.  */
static void *cc_map_local(pid_t tid, int64_t fd, uint64_t size)
{
	char path[64];
	void *p;
	int lfd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%lld", (int) tid,
		 (long long) fd);
	lfd = open(path, O_RDWR | O_CLOEXEC);
	if (lfd < 0)
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, lfd, 0);
	close(lfd);
	return p == MAP_FAILED ? NULL : p;
}

int cc_inject_mmap(pid_t tid, struct nat_mem *mem, uint64_t at,
		   uint64_t hint, bool near, uint64_t size, int prot,
		   const char *name, uint64_t *addr, void **local)
{
	uint64_t args[6] = { 0, size, (uint64_t) prot,
			     MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t) -1, 0 };
	int64_t ret, fd = name ? cc_inject_memfd(tid, mem, at, name, size)
		: -1;
	void *mine = NULL;
	int err;

	if (fd >= 0) {
		mine = local ? cc_map_local(tid, fd, size) : NULL;
		args[3] = mine ? MAP_SHARED : MAP_PRIVATE;
		args[4] = (uint64_t) fd;
	}

	if (near) {
		args[0] = cc_free_range(tid, hint, size, 1ull << 30);
		if (!args[0])
			goto fail;
		args[3] |= MAP_FIXED_NOREPLACE;
	}
	err = cc_inject_syscall(tid, mem, at, SYS_mmap, args, &ret);
	if (fd >= 0) {
		uint64_t cargs[6] = { (uint64_t) fd };
		int64_t cret;

		cc_inject_syscall(tid, mem, at, SYS_close, cargs, &cret);
	}
	if (err < 0) {
		if (mine)
			munmap(mine, size);
		return err;
	}
	if (cc_kernel_err(ret) < 0 || (near && (uint64_t) ret != args[0]))
		goto fail;
	*addr = (uint64_t) ret;
	if (local)
		*local = mine;
	return 0;
fail:
	if (mine)
		munmap(mine, size);
	return -pse_nomem;
}

int cc_inject_munmap(pid_t tid, struct nat_mem *mem, uint64_t at,
		     uint64_t addr, uint64_t size)
{
	uint64_t args[6] = { addr, size };
	int64_t ret;
	int err = cc_inject_syscall(tid, mem, at, SYS_munmap, args, &ret);

	return err < 0 ? err : cc_kernel_err(ret);
}

int cc_inject_mprotect(pid_t tid, struct nat_mem *mem, uint64_t at,
		       uint64_t addr, uint64_t size, int prot)
{
	uint64_t args[6] = { addr, size, (uint64_t) prot };
	int64_t ret;
	int err = cc_inject_syscall(tid, mem, at, SYS_mprotect, args, &ret);

	return err < 0 ? err : cc_kernel_err(ret);
}
