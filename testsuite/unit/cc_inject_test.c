/* Syscalls injected into a stopped child: the result comes back, the
   registers and the code under the borrowed IP are as they were, and
   mappings made this way are there, named, and go again.  */
#include "nat/emu/cc_inject.h"
#include "testsuite/unit/cc_fixture.h"
#include "nat/mem.h"
#include "testsuite/emu/emu_test_main.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

/* A child stopped by its own SIGSTOP, traced.  */
static pid_t child_stopped(void)
{
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		for (;;)
			pause();
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSTOPPED(status));
	return pid;
}

static void child_kill(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

Test(cc_inject, getpid_leaves_registers_and_code)
{
	pid_t pid = child_stopped();
	struct user_regs_struct before, after;
	struct nat_mem mem;
	uint64_t args[6] = { 0 };
	uint8_t code_before[2], code_after[2];
	int64_t ret = 0;

	nat_mem_init(&mem, pid);
	cr_assert_eq(ptrace(PTRACE_GETREGS, pid, 0, &before), 0);
	cr_assert_eq(nat_mem_read(&mem, before.rip, code_before, 2), 2);
	cr_assert_eq(cc_inject_syscall(pid, &mem, 0, SYS_getpid, args, &ret),
		     0);
	cr_expect_eq(ret, pid);
	cr_assert_eq(ptrace(PTRACE_GETREGS, pid, 0, &after), 0);
	cr_expect_eq(memcmp(&before, &after, sizeof(before)), 0);
	cr_assert_eq(nat_mem_read(&mem, before.rip, code_after, 2), 2);
	cr_expect_eq(memcmp(code_before, code_after, 2), 0);
	nat_mem_fini(&mem);
	child_kill(pid);
}

static void tick(int sig)
{
	(void) sig;
}

/* ptstub's tick (SIGALRM without SA_RESTART) interrupting the wait for
   a slow injected call: the call still completes and the thread is back
   as it was, stopped (it was once left running, its registers never
   restored, and the recording lost it).  */
Test(cc_inject, call_outlasting_ticks)
{
	pid_t pid = child_stopped();
	struct sigaction sa, old_sa;
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } }, off;
	struct user_regs_struct before, after;
	struct nat_mem mem;
	/* poll(NULL, 0, 30): 30 ms asleep, no memory needed.  */
	uint64_t args[6] = { 0, 0, 30 };
	int64_t ret = -1;
	int err;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tick;
	cr_assert_eq(sigaction(SIGALRM, &sa, &old_sa), 0);
	cr_assert_eq(setitimer(ITIMER_REAL, &every_ms, NULL), 0);
	nat_mem_init(&mem, pid);
	cr_assert_eq(ptrace(PTRACE_GETREGS, pid, 0, &before), 0);
	err = cc_inject_syscall(pid, &mem, 0, SYS_poll, args, &ret);
	memset(&off, 0, sizeof(off));
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old_sa, NULL);
	cr_expect_eq(err, 0);
	cr_expect_eq(ret, 0);
	/* Stopped (GETREGS fails on a running thread) and as it was.  */
	cr_assert_eq(ptrace(PTRACE_GETREGS, pid, 0, &after), 0);
	cr_expect_eq(memcmp(&before, &after, sizeof(before)), 0);
	nat_mem_fini(&mem);
	child_kill(pid);
}

Test(cc_inject, named_mapping_near_code_and_gone)
{
	pid_t pid = child_stopped();
	struct user_regs_struct regs;
	struct nat_mem mem;
	uint64_t addr = 0, d, word = 0;
	uint8_t *local = NULL;

	nat_mem_init(&mem, pid);
	cr_assert_eq(ptrace(PTRACE_GETREGS, pid, 0, &regs), 0);
	cr_assert_eq(cc_inject_mmap(pid, &mem, 0, regs.rip, true, 1 << 20,
				    PROT_READ | PROT_EXEC, CC_MAP_NAME("test map"),
				    &addr, (void **) &local), 0);
	d = addr > regs.rip ? addr - regs.rip : regs.rip - addr;
	cr_expect_lt(d, 1ull << 30, "mapped %#llx, far from %#llx",
		     (unsigned long long) addr, regs.rip);
	cr_expect_eq(cc_fx_maps_count(pid, CC_MAP_NAME("test map")), 1);
	/* ptstub's view of it is the inferior's memory, both ways.  */
	cr_assert_not_null(local, "not mapped into ptstub");
	memcpy(local + 4096, "\xcc\x0f\x05\x90\x11\x22\x33\x44", 8);
	cr_assert_eq(nat_mem_read(&mem, addr + 4096, &word, 8), 8);
	cr_expect_eq(word, 0x4433221190050fccull, "the inferior reads %#llx",
		     (unsigned long long) word);
	munmap(local, 1 << 20);
	cr_assert_eq(cc_inject_munmap(pid, &mem, 0, addr, 1 << 20), 0);
	cr_expect_eq(cc_fx_maps_count(pid, CC_MAP_NAME("test map")), 0);
	nat_mem_fini(&mem);
	child_kill(pid);
}

/* A free range: inside the limit, overlapping nothing mapped, and half
   the limit below (not at the first hole beside the code, where the
   heap grows after an executable and libraries land below ld.so).  */
Test(cc_inject, free_range_is_free)
{
	uint64_t here = (uint64_t) (uintptr_t) &child_stopped;
	uint64_t at = cc_free_range(getpid(), here, 1 << 22, 1ull << 30);
	void *p;

	cr_assert_neq(at, 0);
	cr_expect_lt(at > here ? at - here : here - at, 1ull << 30);
	cr_expect_lt(at, here);
	cr_expect_geq(here - at, 1ull << 29, "%#llx is %#llx below the code",
		      (unsigned long long) at,
		      (unsigned long long) (here - at));
	/* Code low in the address space (a non-PIE program's, whose heap
	   grows right above it): half the limit above.  */
	{
		uint64_t low = 0x401000, up = cc_free_range(getpid(), low,
							    1 << 22,
							    1ull << 30);

		cr_expect_geq(up, low + (1ull << 28), "%#llx for code at %#llx",
			      (unsigned long long) up,
			      (unsigned long long) low);
		cr_expect_lt(up + (1 << 22) - low, 1ull << 30);
	}
	p = mmap((void *) at, 1 << 22, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	cr_expect_eq(p, (void *) at, "the range is in use");
	if (p != MAP_FAILED)
		munmap(p, 1 << 22);
}
