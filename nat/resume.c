/* Resuming threads as the client's vCont actions say, in all-stop and
   in non-stop.  */
#include "nat/process.h"
#include "nat/emu/emu.h"
#include "nat/wait_status.h"
#include "common/ps_error.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Whether TID, which the stub holds stopped, is dead or dying: gone, a
   zombie, or out of its tracing stop, which only a SIGKILL can do (the
   kill may not have ended it yet).  ptrace refuses it, and the wait is
   what reports its end.  */
static int nat_thread_dying(pid_t tid)
{
	int state = nat_proc_state(tid);

	return state < 0 || (state > 0 && state != 't' && state != 'T');
}

static int nat_thread_resume_once(struct nat_thread *thread,
				  enum nat_resume_kind kind, int sig);

/* A thread killed while stopped cannot be resumed, but is not an error:
   it counts as running, and the wait reports how it ended (gdbserver
   does the same).  Otherwise the client, told "E", would retry for
   ever.  */
int nat_thread_resume(struct nat_thread *thread, enum nat_resume_kind kind,
		      int sig)
{
	int err;

	/* A zombie leader has nothing to run: its end comes with its
	   process's last thread's.  */
	if (thread->zombie)
		return 0;
	err = nat_thread_resume_once(thread, kind, sig);

	if (err < 0 && nat_thread_dying(thread->tid)) {
		thread->state = nat_thread_running;
		thread->stepping = kind == nat_resume_step;
		thread->regs_valid = 0;
		return 0;
	}
	return err;
}

static int nat_thread_resume_once(struct nat_thread *thread,
				  enum nat_resume_kind kind, int sig)
{
	int request = kind == nat_resume_step ? PTRACE_SINGLESTEP : PTRACE_CONT;
	int err;

	err = nat_thread_flush_regs(thread);
	if (err < 0 && errno != ESRCH)
		return err;
	if (!sig) {
		sig = thread->deliver_sig;
		thread->deliver_sig = 0;
	}
	/* Under the emulator, the engine says how the thread runs.  */
	if (thread->proc->emu) {
		enum emu_resume how;

		err = emu_prepare(thread->proc->emu, thread->tid, sig,
				  kind == nat_resume_step, &how);
		if (err < 0)
			return err;
		request = emu_ptrace_request(how);
	} else if (request == PTRACE_CONT &&
		   thread->proc->catch_syscalls.enabled) {
		request = PTRACE_SYSCALL;
	}
	/* ESRCH: killed while stopped (SIGKILL from outside).  It is
	   "running" towards its exit status, which the next wait reports,
	   as gdbserver does: the client hears X09, not an error.  */
	if (ptrace(request, thread->tid, 0, sig) < 0 && errno != ESRCH)
		return -pse_nothread;
	thread->state = nat_thread_running;
	thread->stepping = kind == nat_resume_step;
	thread->regs_valid = 0;
	return 0;
}

static const struct nat_resume *nat_match(const struct nat_thread *thread,
					  const struct nat_resume *actions,
					  size_t count)
{
	for (size_t i = 0; i < count; i++) {
		const struct nat_resume *a = &actions[i];

		if (a->pid != -1 && a->pid != thread->proc->pid)
			continue;
		if (a->tid != -1 && a->tid != thread->tid)
			continue;
		return a;
	}
	return NULL;
}

/* Whether action A leaves P alone: a wildcard does not run a fork
   child the client has not heard of (its detach would find it gone),
   as in gdbserver.  */
static int nat_fork_held(const struct nat_process *p,
			 const struct nat_resume *a)
{
	return p->fork_unreported && a->pid != p->pid;
}

/* Non-stop vCont;t for THREAD: a running one gets a SIGSTOP that
   nat_poll_event reports; one with an event pending reports that.  */
static void nat_request_stop(struct nat_thread *t)
{
	if (!t->resumed || t->stop_requested)
		return;  /* the client has it stopped, or asked already */
	t->stop_requested = 1;
	if (t->has_pending)
		return;
	if (t->state == nat_thread_running) {
		if (!t->stop_expected) {
			syscall(SYS_tgkill, t->proc->pid, t->tid, SIGSTOP);
			t->stop_expected = 1;
		}
		return;
	}
	/* Held stopped inside the stub: it is stopped already.  */
	t->has_pending = 1;
	t->pending_status = W_STOPCODE(SIGSTOP);
	t->pending_reason = nat_stop_none;
}

/* Non-stop: every thread an action names, on its own; the rest are
   left running or stopped as they are.  A thread with an event pending
   stays stopped: nat_poll_event reports the event.  */
static int nat_resume_non_stop(struct nat_target *target,
			       const struct nat_resume *actions, size_t count)
{
	int err = 0;

	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			const struct nat_resume *a = nat_match(t, actions, count);
			int e;

			if (!a || a->kind == nat_resume_none ||
			    nat_fork_held(p, a))
				continue;
			if (a->kind == nat_resume_stop) {
				nat_request_stop(t);
				continue;
			}
			if (t->resumed &&
			    (t->state == nat_thread_running || t->has_pending))
				continue;  /* running already */
			t->resumed = 1;
			t->resume_kind = a->kind;
			t->stepping = a->kind == nat_resume_step;
			t->stop_requested = 0;
			t->stop_known = 0;
			t->last_sig = 0;
			if (a->sig)
				t->deliver_sig = a->sig;
			if (t->has_pending)
				continue;
			e = nat_thread_resume(t, a->kind, 0);
			if (e < 0 && !err)
				err = e;
		}
	return err;
}

int nat_resume(struct nat_target *target, const struct nat_resume *actions,
	       size_t count)
{
	int any_pending = 0, err = 0;

	if (target->non_stop)
		return nat_resume_non_stop(target, actions, count);

	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			const struct nat_resume *a = nat_match(t, actions, count);

			t->resumed = a && a->kind != nat_resume_stop &&
				     a->kind != nat_resume_none &&
				     !nat_fork_held(p, a);
			if (!t->resumed)
				continue;
			t->resume_kind = a->kind;
			t->stepping = a->kind == nat_resume_step;
			t->last_sig = 0;
			if (a->sig)
				t->deliver_sig = a->sig;
			if (t->has_pending)
				any_pending = 1;
		}

	/* An event already taken is reported before anything runs, as in
	   gdbserver: the client then sees events in the order they came.  */
	if (any_pending)
		return 0;

	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			if (!t->resumed || t->state == nat_thread_running)
				continue;
			int e = nat_thread_resume(t, t->resume_kind, 0);
			if (e < 0 && !err)
				err = e;
		}
	return err;
}
