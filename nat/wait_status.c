/* nat/wait_status.c: what a wait status means.  A waitpid status (with
   its ptrace event) is decoded here into what the thread does next: the
   emulator's own trap, a quiet resume, a new thread or process, or a
   pending event that nat_fill_event turns into the client's nat_event.
   Apart from waiting (wait.c) and stopping everything (stop_all.c), so
   that the one place deciding what a stop means serves both.  */
#define _GNU_SOURCE
#include "nat/btrace.h"
#include "nat/process.h"
#include "nat/emu/emu.h"
#include "nat/wait_status.h"
#include "common/ps_error.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static int nat_take_orphan(struct nat_target *target, pid_t tid, int *status)
{
	for (unsigned i = 0; i < target->norphans; i++) {
		if (target->orphans[i].tid == tid) {
			*status = target->orphans[i].status;
			target->orphans[i] = target->orphans[--target->norphans];
			return 1;
		}
	}
	return 0;
}

void nat_stash_orphan(struct nat_target *target, pid_t tid, int status)
{
	if (target->norphans < sizeof(target->orphans) / sizeof(target->orphans[0])) {
		target->orphans[target->norphans].tid = tid;
		target->orphans[target->norphans].status = status;
		target->norphans++;
	}
}

/* The initial stop of a new thread or fork child.  */
static int nat_wait_new(struct nat_target *target, pid_t tid)
{
	int ws;

	if (nat_take_orphan(target, tid, &ws))
		return ws;
	if (nat_waitpid(tid, &ws, 0) < 0)
		return -1;
	return ws;
}

void nat_set_pending(struct nat_thread *thread, int status,
			    enum nat_stop_reason reason)
{
	thread->has_pending = 1;
	thread->pending_status = status;
	thread->pending_reason = reason;
}

/* Resume THREAD after an event nobody needs to see, unless every thread
   is being stopped or the client left it stopped.  */
void nat_resume_quietly(struct nat_thread *thread, int stopping)
{
	if (stopping || !thread->resumed ||
	    thread->resume_kind == nat_resume_stop)
		return;
	nat_thread_resume(thread, thread->resume_kind, 0);
}

uint64_t nat_peek_pc(pid_t tid)
{
	return (uint64_t) ptrace(PTRACE_PEEKUSER, tid,
				 (void *) offsetof(struct user_regs_struct, rip),
				 0);
}

static void nat_poke_pc(pid_t tid, uint64_t pc)
{
	ptrace(PTRACE_POKEUSER, tid,
	       (void *) offsetof(struct user_regs_struct, rip), (void *) pc);
}

/* An int3 trap (SI_KERNEL: a step over `syscall` ends in TRAP_BRKPT
   too) at PC with no int3 there any more: one of ours, removed while
   the thread's stop was still uncollected (a non-stop z0 races other
   threads' hits).  The program's own int3 is still in memory.  */
static bool nat_int3_was_removed(pid_t tid, uint64_t pc)
{
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, tid, (void *) pc, 0);
	return errno == 0 && (word & 0xff) != 0xcc;
}

/* A SIGTRAP: one of GDB's breakpoints, a debug register, a completed
   step, or the program's own.  */
static int nat_classify_trap(struct nat_target *target,
			     struct nat_thread *thread, int status)
{
	struct nat_process *proc = thread->proc;
	siginfo_t si;
	int slot;

	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GETSIGINFO, thread->tid, 0, &si) < 0 &&
	    errno == ESRCH) {
		/* A SIGKILL took it between its stop and now: the stop is
		   stale (reporting it failed on the registers and ended the
		   session) and the wait reports the death next.  */
		thread->state = nat_thread_running;
		return nat_consumed;
	}

	slot = nat_debugregs_hit(&proc->dr, thread->tid);
	if (slot >= 0) {
		static const enum nat_stop_reason reasons[] = {
			[nat_dr_exec] = nat_stop_hwbreak,
			[nat_dr_write] = nat_stop_watch,
			[nat_dr_read] = nat_stop_rwatch,
			[nat_dr_access] = nat_stop_awatch,
		};

		nat_set_pending(thread, status, reasons[proc->dr.slot[slot].kind]);
		thread->pending_data_addr = proc->dr.slot[slot].addr;
		return nat_reportable;
	}

	if (si.si_code == SI_KERNEL || si.si_code == TRAP_BRKPT) {
		uint64_t pc = nat_peek_pc(thread->tid) - 1;
		const struct int3_site *site = int3_lookup(&proc->int3s, pc);

		if ((site && (site->owners & int3_owner_gdb)) ||
		    (!site && si.si_code == SI_KERNEL &&
		     nat_int3_was_removed(thread->tid, pc))) {
			/* Report the breakpoint's address, as swbreak+ says.
			   A hit on a breakpoint removed before its stop was
			   collected is stale: nat_event_is_stale drops it.  */
			nat_poke_pc(thread->tid, pc);
			nat_set_pending(thread, status, nat_stop_swbreak);
			thread->pending_pc = pc;
			return nat_reportable;
		}
	}

	nat_set_pending(thread, status,
			thread->stepping && si.si_code == TRAP_TRACE ?
			nat_stop_step : nat_stop_none);
	nat_debug(target, "thread %d: SIGTRAP code %d", (int) thread->tid,
		  si.si_code);
	return nat_reportable;
}

/* A syscall stop (PTRACE_SYSCALL with TRACESYSGOOD): reported when the
   client catches that call, else the thread goes on.  */
static int nat_syscall_stop(struct nat_thread *thread, int stopping)
{
	uint64_t nr;
	int entry;

	if (nat_syscall_stop_info(thread->tid, &nr, &entry) == 0 &&
	    nat_catch_syscall_wants(&thread->proc->catch_syscalls, nr)) {
		/* A plain SIGTRAP stop code: nothing to deliver later.  */
		nat_set_pending(thread, W_STOPCODE(SIGTRAP),
				entry ? nat_stop_syscall_entry
				      : nat_stop_syscall_return);
		thread->pending_data_addr = nr;
		return nat_reportable;
	}
	nat_resume_quietly(thread, stopping);
	return nat_consumed;
}

static int nat_handle_clone(struct nat_target *target,
			    struct nat_thread *thread, int stopping)
{
	unsigned long msg = 0;
	struct nat_thread *child;
	int ws;

	ptrace(PTRACE_GETEVENTMSG, thread->tid, 0, &msg);
	ws = nat_wait_new(target, (pid_t) msg);
	child = nat_add_thread(thread->proc, (pid_t) msg);
	if (child && thread->proc->emu)
		emu_on_clone(thread->proc->emu, child->tid);
	/* Traced from its first instruction when its parent's trace says
	   so: the client learns of it only at the next stop.  */
	if (child && ws != -1)
		nat_btrace_clone(target, thread, child);
	if (child && ws != -1) {
		child->dr_stale = 1;
		child->resumed = thread->resumed;
		child->resume_kind = nat_resume_cont;
		nat_debug(target, "new thread %d", (int) msg);
		if (target->on_new_thread)
			target->on_new_thread(target->on_new_thread_ctx, child);
		/* Its first stop is the client's news when it asked.  */
		if (target->report_thread_create && WIFSTOPPED(ws) &&
		    WSTOPSIG(ws) == SIGSTOP)
			nat_set_pending(child, ws, nat_stop_thread_created);
		else
			nat_resume_quietly(child, stopping);
	}
	nat_resume_quietly(thread, stopping);
	return nat_consumed;
}

static int nat_handle_fork(struct nat_target *target,
			   struct nat_thread *thread, int status, int event,
			   int stopping)
{
	struct nat_process *proc = thread->proc, *child;
	int vfork = event == PTRACE_EVENT_VFORK;
	unsigned long msg = 0;
	int report = vfork ? target->report_vfork : target->report_fork;

	ptrace(PTRACE_GETEVENTMSG, thread->tid, 0, &msg);
	if (nat_wait_new(target, (pid_t) msg) == -1)
		return nat_resume_quietly(thread, stopping), nat_consumed;

	child = nat_add_process(target, (pid_t) msg);
	if (!child || !nat_add_thread(child, (pid_t) msg)) {
		ptrace(PTRACE_DETACH, (pid_t) msg, 0, 0);
		if (child)
			nat_remove_process(target, child);
		nat_resume_quietly(thread, stopping);
		return nat_consumed;
	}
	child->attached = proc->attached;
	child->vfork_parent = vfork ? proc->pid : 0;
	child->fork_parent = proc->pid;

	/* The child's memory holds the parent's int3s; a fork child has its
	   own copy, from which the emulator takes its traps back.  */
	int3_table_copy(&child->int3s, &proc->int3s);
	if (proc->emu && vfork) {
		child->emu = proc->emu;
		child->emu_borrowed = 1;
	} else if (proc->emu) {
		emu_on_fork(proc->emu, child->pid);
		int3_table_forget(&child->int3s, int3_owner_emu);
	}

	if (report) {
		nat_set_pending(thread, status, nat_stop_none);
		thread->pending_child = child->pid;
		child->fork_unreported = 1;
		return nat_reportable;
	}

	/* The client will not hear of it: clean the copy and let it go.  A
	   vfork child shares our memory, so its int3s must stay.  */
	if (!vfork)
		int3_remove_all(&child->int3s, &child->mem, ~0u);
	ptrace(PTRACE_DETACH, child->pid, 0, 0);
	nat_remove_process(target, child);
	nat_resume_quietly(thread, stopping);
	return nat_consumed;
}

static int nat_handle_exec(struct nat_target *target,
			   struct nat_thread *thread, int status)
{
	struct nat_process *proc = thread->proc;

	/* The exec'ing thread now has the leader's id; the others are gone,
	   and so are the old image's int3s and debug registers.  */
	nat_keep_only_leader(proc);
	thread = proc->threads;
	thread->state = nat_thread_stopped;
	thread->stop_expected = 0;
	/* The exec'ing thread ran, whatever the leader's state was (held
	   stopped by scheduler-locking, or a zombie): the event is the
	   client's.  */
	thread->zombie = 0;
	thread->resumed = 1;
	nat_mem_reset(&proc->mem);
	int3_table_clear(&proc->int3s);
	nat_debugregs_init(&proc->dr);
	/* A vfork child that execs stops sharing its parent's memory.  */
	if (proc->emu_borrowed) {
		proc->emu = NULL;
		proc->emu_borrowed = 0;
		proc->vfork_parent = 0;
	} else if (proc->emu) {
		emu_on_exec(proc->emu);
	}
	nat_debug(target, "process %d exec'd", (int) proc->pid);

	if (target->report_exec)
		nat_set_pending(thread, status, nat_stop_none);
	else
		nat_set_pending(thread, W_STOPCODE(SIGTRAP), nat_stop_none);
	return nat_reportable;
}

/* Take one wait status for THREAD.  STOPPING: every thread is being
   stopped, so nothing may be resumed.  */
int nat_handle_status(struct nat_target *target,
			     struct nat_thread *thread, int status,
			     int stopping)
{
	struct nat_process *proc = thread->proc;
	int sig, event;

	thread->state = nat_thread_stopped;
	thread->regs_valid = 0;

	/* The emulator sees every stop first: most are its own traps.  */
	if (proc->emu) {
		enum emu_verdict verdict = emu_report;
		enum emu_resume how = emu_resume_cont;

		emu_on_stop(proc->emu, thread->tid, status, &verdict, &how);
		if (verdict == emu_consumed) {
			int req = emu_ptrace_request(how);

			/* ESRCH: a SIGKILL took it between the trap and
			   now; running towards its exit, which the wait
			   reports (else no thread runs and the client hears
			   "no resumed threads" and waits for ever).  */
			if (ptrace(req, thread->tid, 0, 0) == 0 ||
			    errno == ESRCH)
				thread->state = nat_thread_running;
			return nat_consumed;
		}
	}

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		if (thread->tid != proc->pid) {
			if (target->report_thread_exit && thread->resumed) {
				nat_set_pending(thread, status, nat_stop_none);
				return nat_reportable;
			}
			nat_thread_exited(target, thread);
			return nat_gone;
		}
		nat_set_pending(thread, status, nat_stop_none);
		return nat_reportable;
	}

	sig = WSTOPSIG(status);
	event = status >> 16;
	switch (event) {
	case 0:
		break;
	case PTRACE_EVENT_CLONE:
		return nat_handle_clone(target, thread, stopping);
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		return nat_handle_fork(target, thread, status, event, stopping);
	case PTRACE_EVENT_VFORK_DONE:
		if (target->report_vfork) {
			nat_set_pending(thread, status, nat_stop_none);
			return nat_reportable;
		}
		nat_resume_quietly(thread, stopping);
		return nat_consumed;
	case PTRACE_EVENT_EXEC:
		return nat_handle_exec(target, thread, status);
	case PTRACE_EVENT_EXIT:
		if (target->report_exit && thread->tid == proc->pid) {
			nat_set_pending(thread, status, nat_stop_none);
			return nat_reportable;
		}
		nat_resume_quietly(thread, stopping);
		return nat_consumed;
	default:
		nat_resume_quietly(thread, stopping);
		return nat_consumed;
	}

	if (sig == SIGSTOP && thread->stop_expected) {
		thread->stop_expected = 0;
		/* Non-stop vCont;t: this SIGSTOP is the stop the client asked.  */
		if (thread->stop_requested) {
			nat_set_pending(thread, status, nat_stop_none);
			return nat_reportable;
		}
		nat_resume_quietly(thread, stopping);
		return nat_consumed;
	}
	if (sig == (SIGTRAP | 0x80))
		return nat_syscall_stop(thread, stopping);
	if (sig == SIGTRAP)
		return nat_classify_trap(target, thread, status);
	/* SIGILL and SIGSEGV may be GDB's doing (an inferior call's return
	   breakpoint on a stack that cannot execute): never passed silently,
	   as in gdbserver.  */
	if (sig < 65 && target->pass_signals[sig] && thread->resumed &&
	    !thread->stepping && sig != SIGILL && sig != SIGSEGV) {
		if (stopping)
			thread->deliver_sig = sig;
		else
			nat_thread_resume(thread, thread->resume_kind, sig);
		return nat_consumed;
	}
	nat_set_pending(thread, status, nat_stop_none);
	return nat_reportable;
}

/* A breakpoint hit whose breakpoint the client has since removed is
   no event any more: the thread's PC is already back at the site.  */
int nat_event_is_stale(const struct nat_thread *thread)
{
	const struct int3_site *site;

	if (thread->pending_reason != nat_stop_swbreak)
		return 0;
	site = int3_lookup(&thread->proc->int3s, thread->pending_pc);
	return !site || !(site->owners & int3_owner_gdb);
}

void nat_fill_event(struct nat_target *target,
			   struct nat_thread *thread, struct nat_event *ev)
{
	struct nat_process *proc = thread->proc;
	int status = thread->pending_status;
	int requested = thread->stop_requested;
	char path[64];
	ssize_t n;

	thread->stop_requested = 0;
	thread->stop_known = 1;
	thread->last_sig = SIGTRAP;
	memset(ev, 0, offsetof(struct nat_event, path));
	ev->path[0] = '\0';
	ev->pid = proc->pid;
	ev->tid = thread->tid;
	ev->stop_requested = requested;
	target->last_event_tid = thread->tid;
	thread->has_pending = 0;

	if ((WIFEXITED(status) || WIFSIGNALED(status)) &&
	    thread->tid != proc->pid) {
		/* A thread's own exit: the event outlives the thread.  */
		ev->kind = nat_ev_thread_exited;
		ev->status = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
		nat_thread_exited(target, thread);
		return;
	}
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		ev->kind = WIFEXITED(status) ? nat_ev_exited : nat_ev_signalled;
		ev->status = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
		ev->sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		nat_remove_process(target, proc);
		return;
	}

	switch (status >> 16) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK: {
		struct nat_process *child =
			nat_find_process(target, thread->pending_child);

		ev->kind = status >> 16 == PTRACE_EVENT_FORK ? nat_ev_forked
							      : nat_ev_vforked;
		ev->child = thread->pending_child;
		/* The client hears of it now.  */
		if (child)
			child->fork_unreported = 0;
		return;
	}
	case PTRACE_EVENT_VFORK_DONE:
		ev->kind = nat_ev_vfork_done;
		return;
	case PTRACE_EVENT_EXIT: {
		unsigned long msg = 0;

		ptrace(PTRACE_GETEVENTMSG, thread->tid, 0, &msg);
		ev->kind = nat_ev_stopped;
		ev->exiting = 1;
		ev->status = (int) msg;
		return;
	}
	case PTRACE_EVENT_EXEC:
		ev->kind = nat_ev_execd;
		snprintf(path, sizeof(path), "/proc/%d/exe", (int) proc->pid);
		n = readlink(path, ev->path, sizeof(ev->path) - 1);
		ev->path[n > 0 ? n : 0] = '\0';
		return;
	}
	if (thread->pending_reason == nat_stop_thread_created) {
		ev->kind = nat_ev_thread_created;
		thread->last_sig = 0;
		return;
	}
	ev->kind = nat_ev_stopped;
	ev->sig = WSTOPSIG(status);
	/* A stop the client asked for is reported as signal 0.  */
	if (requested && ev->sig == SIGSTOP)
		ev->sig = 0;
	thread->last_sig = ev->sig;
	ev->reason = thread->pending_reason;
	ev->data_addr = thread->pending_data_addr;
}
