/* A thread's register cache and signal info, fetched on demand after a
   stop and written back before the thread runs again.  */
#include "nat/process.h"
#include "nat/amd64_regs.h"
#include "nat/wait_status.h"
#include "common/ps_error.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

int nat_thread_regs(struct nat_thread *thread, struct amd64_regs **regs)
{
	if (thread->state != nat_thread_stopped)
		return -pse_running;
	if (!thread->regs) {
		thread->regs = malloc(sizeof(*thread->regs));
		if (!thread->regs)
			return -pse_nomem;
		amd64_regs_init(thread->regs);
	}
	if (!thread->regs_valid) {
		int err = amd64_regs_fetch(thread->regs, thread->tid);

		if (err < 0)
			return err;
		thread->regs_valid = 1;
	}
	*regs = thread->regs;
	return 0;
}

int nat_thread_flush_regs(struct nat_thread *thread)
{
	int err = 0;

	if (thread->regs_valid)
		err = amd64_regs_store(thread->regs, thread->tid);
	if (!err && thread->dr_stale) {
		err = nat_debugregs_apply(&thread->proc->dr, thread->tid);
		if (!err)
			thread->dr_stale = 0;
	}
	return err;
}

int nat_thread_xcr0(struct nat_thread *thread, uint64_t *xcr0)
{
	return amd64_host_xcr0(thread->tid, xcr0);
}

int nat_thread_siginfo(struct nat_thread *thread, void *buf, size_t len)
{
	siginfo_t si;

	if (len < sizeof(si))
		return -pse_invalid;
	if (ptrace(PTRACE_GETSIGINFO, thread->tid, 0, &si) < 0)
		return -pse_nothread;
	memcpy(buf, &si, sizeof(si));
	return (int) sizeof(si);
}

int nat_thread_set_siginfo(struct nat_thread *thread, const void *buf,
			   size_t len)
{
	siginfo_t si;

	if (len < sizeof(si))
		return -pse_invalid;
	memcpy(&si, buf, sizeof(si));
	if (ptrace(PTRACE_SETSIGINFO, thread->tid, 0, &si) < 0)
		return -pse_nothread;
	return 0;
}
