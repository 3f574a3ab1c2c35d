/* nat/stop_all.c: stopping every thread.  All-stop stops them all when
   one has an event; non-stop stops them while one steps over a
   breakpoint and runs the paused ones again after.  Apart from waiting
   (wait.c), which calls it when it has an event to report, because
   stopping is also what nat_stop and a step over a breakpoint need.  */
#define _GNU_SOURCE
#include "nat/process.h"
#include "nat/stop_all.h"
#include "nat/wait_status.h"
#include "common/ps_error.h"

#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>


struct nat_thread *nat_first_running(struct nat_target *target)
{
	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next)
			if (t->state == nat_thread_running)
				return t;
	return NULL;
}

/* No child is left to wait for: the threads taken as running are gone
   (reaped elsewhere), the leaders' ends unknown.  */
static void nat_lost_running(struct nat_target *target)
{
	struct nat_thread *thread;

	while ((thread = nat_first_running(target))) {
		thread->state = nat_thread_stopped;
		if (thread->tid != thread->proc->pid)
			nat_thread_exited(target, thread);
	}
}

/* All-stop: SIGSTOP every running thread and wait until each stopped;
   what they report meanwhile stays pending.  */
void nat_stop_all(struct nat_target *target)
{
	struct nat_thread *thread;
	int status;

	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next)
			if (t->state == nat_thread_running && !t->stop_expected) {
				syscall(SYS_tgkill, p->pid, t->tid, SIGSTOP);
				t->stop_expected = 1;
			}

	/* Any thread's status, as it comes: a SIGSTOP can take long (a
	   vfork parent waits for its child) and a zombie leader's never
	   comes; the session's end (SIGTERM) does not wait for either.  */
	while ((thread = nat_first_running(target)) && !nat_quitting(target))
		if (nat_wait_round(target, 0, &status, 1) < 0)
			nat_lost_running(target);
}

/* Non-stop: run again the threads nat_stop_all paused (the client
   still has them running and nothing of theirs is pending), but EXCEPT.  */
void nat_unpause(struct nat_target *target,
			const struct nat_thread *except)
{
	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next)
			if (t != except && t->resumed && !t->has_pending &&
			    t->state == nat_thread_stopped &&
			    t->resume_kind != nat_resume_stop)
				nat_thread_resume(t, t->resume_kind, 0);
}

int nat_step_over_breakpoint(struct nat_target *target,
			     struct nat_thread *thread)
{
	struct nat_process *proc = thread->proc;
	uint64_t pc = nat_peek_pc(thread->tid);
	const struct int3_site *site = int3_lookup(&proc->int3s, pc);
	pid_t tid = thread->tid;
	int status, err;

	/* The emulator runs the instruction under any site itself.  */
	if (proc->emu || !site || !(site->owners & int3_owner_gdb))
		return 0;
	/* Non-stop: nobody else may run past the site while it is out.  */
	if (target->non_stop)
		nat_stop_all(target);
	err = int3_remove(&proc->int3s, &proc->mem, pc, int3_owner_gdb);
	if (err < 0)
		goto out;
	thread->resumed = 1;
	err = nat_thread_resume(thread, nat_resume_step, 0);
	while (!err && thread->state == nat_thread_running) {
		int r;

		/* The step may not end soon (a blocking system call): the
		   session's end does not wait for it.  */
		if (nat_quitting(target)) {
			err = -pse_interrupted;
			break;
		}
		r = nat_wait_round(target, tid, &status, 1);
		if (r < 0) {
			err = -pse_nothread;
			break;
		}
		/* Another thread's status may have ended it (an exec).  */
		thread = nat_lookup_tid(target, tid);
		if (!thread)
			break;
		if (r == 0)
			continue;
		/* A plain completed step is ours; anything else stays.  */
		if (nat_status_signal_stop(status) &&
		    WSTOPSIG(status) == SIGTRAP && !proc->emu) {
			thread->state = nat_thread_stopped;
			thread->regs_valid = 0;
			break;
		}
		if (nat_handle_status(target, thread, status, 1) == nat_gone) {
			thread = NULL;
			break;
		}
	}
	/* The site is the process's again, whatever happened.  */
	if (nat_find_process(target, proc->pid) == proc)
		int3_insert(&proc->int3s, &proc->mem, pc, int3_owner_gdb);
out:
	if (target->non_stop)
		nat_unpause(target, thread);
	return err;
}

void nat_stop(struct nat_target *target)
{
	nat_collect(target);
	nat_stop_all(target);
	nat_mark_all_stopped(target);
}

void nat_mark_all_stopped(struct nat_target *target)
{
	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			t->resumed = 0;
			t->stop_known = 1;
		}
}

void nat_stop_process(struct nat_target *target, struct nat_process *proc)
{
	pid_t pid = proc->pid;
	int status;

	for (struct nat_thread *t = proc->threads; t; t = t->next)
		if (t->state == nat_thread_running && !t->stop_expected) {
			syscall(SYS_tgkill, proc->pid, t->tid, SIGSTOP);
			t->stop_expected = 1;
		}
	/* PROC may go meanwhile (its end, an exec): looked up each round.  */
	for (;;) {
		struct nat_process *p = nat_find_process(target, pid);
		struct nat_thread *thread = NULL;

		for (struct nat_thread *t = p ? p->threads : NULL;
		     t && !thread; t = t->next)
			if (t->state == nat_thread_running)
				thread = t;
		if (!thread)
			return;
		if (nat_wait_round(target, 0, &status, 1) < 0)
			nat_lost_running(target);
	}
}

void nat_set_non_stop(struct nat_target *target, int on)
{
	if (target->non_stop && !on)
		nat_stop(target);
	target->non_stop = on;
}
