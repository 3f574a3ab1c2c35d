/* The engine's lifecycle on a real traced process: enable and disable,
   traps planted and removed, exec and fork handling, memory writes.  */
#include "testsuite/emu/emu_driver.h"
#include "testsuite/emu/emu_test_main.h"
#include "nat/emu/emu.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static char prog[512];

static size_t emu_sites(const struct int3_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->count; i++)
		n += (t->sites[i].owners & int3_owner_emu) != 0;
	return n;
}

static void start(struct drv_proc *proc)
{
	snprintf(prog, sizeof(prog), "%s/recursion", EMU_PROGDIR);
	cr_assert_eq(drv_start(proc, prog, "6", "run"), 0);
}

/* A thread towards a trap runs under PTRACE_SYSCALL: a syscall site
   another thread has lifted then stops it at the entry.  */
Test(emu, ptrace_request_for_each_resume)
{
	cr_expect_eq(emu_ptrace_request(emu_resume_cont), PTRACE_CONT);
	cr_expect_eq(emu_ptrace_request(emu_resume_step), PTRACE_SINGLESTEP);
	cr_expect_eq(emu_ptrace_request(emu_resume_syscall), PTRACE_SYSCALL);
}

Test(emu, enable_disable_errors)
{
	struct drv_proc proc;
	struct emu *emu;

	start(&proc);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem, NULL),
		     0);
	cr_expect(!emu_traced(emu, proc.pid));
	cr_expect_eq(emu_disable(emu, proc.pid), -pse_notfound);
	cr_expect_eq(emu_enable(emu, proc.pid, 7, 4096), -pse_invalid);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 4096), 0);
	cr_expect(emu_traced(emu, proc.pid));
	cr_expect_eq(emu_enable(emu, proc.pid, trace_format_pt, 4096),
		     -pse_exists);
	cr_expect_eq(emu_disable(emu, proc.pid), 0);
	cr_expect(!emu_traced(emu, proc.pid));
	emu_free(emu);
	drv_finish(&proc);
}

Test(emu, traps_planted_then_removed_with_original_bytes)
{
	struct drv_proc proc;
	enum emu_resume how;
	struct emu *emu;
	uint8_t byte;
	uint64_t site;

	start(&proc);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem, NULL),
		     0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 4096), 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	cr_expect_eq(how, emu_resume_syscall, "towards a trap, syscall stops on");
	cr_assert_eq(emu_sites(&proc.sites), 1, "the first stop is planted");
	site = proc.sites.sites[0].addr;
	cr_assert_eq(nat_mem_read(&proc.mem, site, &byte, 1), 1);
	cr_expect_eq(byte, 0xcc);
	cr_expect_neq(proc.sites.sites[0].orig, 0xcc);
	cr_assert_eq(emu_disable(emu, proc.pid), 0);
	cr_expect_eq(emu_sites(&proc.sites), 0);
	cr_assert_eq(nat_mem_read(&proc.mem, site, &byte, 1), 1);
	cr_expect_neq(byte, 0xcc, "the original byte is back");
	emu_free(emu);
	drv_finish(&proc);
}

Test(emu, memory_write_and_exec_drop_traps)
{
	struct drv_proc proc;
	enum emu_resume how;
	struct emu *emu;

	start(&proc);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem, NULL),
		     0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 4096), 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	cr_assert_gt(emu_sites(&proc.sites), 0);
	cr_assert_eq(emu_on_mem_write(emu, proc.entry, 1), 0);
	cr_expect_eq(emu_sites(&proc.sites), 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	cr_assert_gt(emu_sites(&proc.sites), 0, "planted again");
	int3_insert(&proc.sites, &proc.mem, proc.ret, int3_owner_gdb);
	cr_assert_eq(emu_on_exec(emu), 0);
	cr_expect_eq(proc.sites.count, 0, "every site is gone after exec");
	cr_expect(emu_traced(emu, proc.pid));
	emu_free(emu);
	drv_finish(&proc);
}

Test(emu, fork_child_gets_original_bytes)
{
	struct drv_proc proc;
	enum emu_resume how;
	struct emu *emu;
	struct nat_mem child_mem;
	uint8_t byte;
	int status;
	pid_t child;

	start(&proc);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem, NULL),
		     0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 4096), 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	cr_assert_eq(emu_sites(&proc.sites), 1);

	/* A stand-in for a fork child: a copy of the process's memory is
	   what fork gives; here the test forks itself into a tracee whose
	   memory we then patch at the same address (mapped in both). */
	child = fork();
	if (!child) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		_exit(0);
	}
	cr_assert_eq(waitpid(child, &status, 0), child);
	/* The site's page is not mapped in the test's own child, so
	   restoring it must report the fault.  */
	cr_expect_eq(emu_on_fork(emu, child), -pse_fault);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);

	/* On the traced process itself (its own "copy"), the byte comes
	   back while the table keeps the site.  */
	cr_assert_eq(emu_on_fork(emu, proc.pid), 0);
	nat_mem_init(&child_mem, proc.pid);
	cr_assert_eq(nat_mem_read(&child_mem, proc.sites.sites[0].addr, &byte,
				  1), 1);
	cr_expect_eq(byte, proc.sites.sites[0].orig);
	cr_expect_eq(emu_sites(&proc.sites), 1);
	nat_mem_fini(&child_mem);
	emu_free(emu);
	drv_finish(&proc);
}
