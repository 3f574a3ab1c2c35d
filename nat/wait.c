/* Taking wait statuses from the kernel, deciding which the client must
   see, and all-stop: when one thread has an event, every thread stops.
   In non-stop (nat_poll_event, at the end) only that thread stops.  */
#define _GNU_SOURCE
#include "nat/process.h"
#include "nat/emu/emu.h"
#include "nat/wait_status.h"
#include "nat/wait_block.h"
#include "common/ps_error.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { nat_consumed, nat_reportable, nat_gone };

pid_t nat_waitpid(pid_t pid, int *status, int flags)
{
	for (;;) {
		pid_t r = waitpid(pid, status, __WALL | flags);

		if (r >= 0)
			return r;
		if (errno != EINTR)
			return -pse_noproc;
	}
}

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

static void nat_stash_orphan(struct nat_target *target, pid_t tid, int status)
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

static void nat_set_pending(struct nat_thread *thread, int status,
			    enum nat_stop_reason reason)
{
	thread->has_pending = 1;
	thread->pending_status = status;
	thread->pending_reason = reason;
}

/* Resume THREAD after an event nobody needs to see, unless every thread
   is being stopped or the client left it stopped.  */
static void nat_resume_quietly(struct nat_thread *thread, int stopping)
{
	if (stopping || !thread->resumed ||
	    thread->resume_kind == nat_resume_stop)
		return;
	nat_thread_resume(thread, thread->resume_kind, 0);
}

static uint64_t nat_peek_pc(pid_t tid)
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
	ptrace(PTRACE_GETSIGINFO, thread->tid, 0, &si);

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
	if (child && ws != -1 && target->on_new_thread)
		target->on_new_thread(target->on_new_thread_ctx, child);
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
static int nat_handle_status(struct nat_target *target,
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
			nat_remove_thread(proc, thread);
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

/* Empty the SIGCHLD signalfd.  SIGCHLD is a standard signal, pending
   once at most, so one read takes it all (a stop costs a syscall less
   than reading until EAGAIN, which counts in emulation).  */
static void nat_drain_sigchld(struct nat_target *target)
{
	struct signalfd_siginfo info[4];
	ssize_t n = read(target->sigchld_fd, info, sizeof(info));

	(void) n;   /* -1 with EAGAIN: nothing was pending */
}

/* Take every status the kernel has ready, without blocking.  */
static void nat_collect(struct nat_target *target)
{
	int status;
	pid_t pid;

	while ((pid = nat_waitpid(-1, &status, WNOHANG)) > 0) {
		struct nat_thread *thread = nat_lookup_tid(target, pid);

		if (thread)
			nat_handle_status(target, thread, status, 0);
		else
			nat_stash_orphan(target, pid, status);
	}
}

static struct nat_thread *nat_first_running(struct nat_target *target)
{
	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next)
			if (t->state == nat_thread_running)
				return t;
	return NULL;
}

/* All-stop: SIGSTOP every running thread and wait until each stopped;
   what they report meanwhile stays pending.  */
static void nat_stop_all(struct nat_target *target)
{
	struct nat_thread *thread;
	int status;

	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next)
			if (t->state == nat_thread_running && !t->stop_expected) {
				syscall(SYS_tgkill, p->pid, t->tid, SIGSTOP);
				t->stop_expected = 1;
			}

	while ((thread = nat_first_running(target))) {
		if (nat_waitpid(thread->tid, &status, 0) < 0) {
			thread->state = nat_thread_stopped;
			if (thread->tid != thread->proc->pid)
				nat_remove_thread(thread->proc, thread);
			continue;
		}
		nat_handle_status(target, thread, status, 1);
	}
}

/* Non-stop: run again the threads nat_stop_all paused (the client
   still has them running and nothing of theirs is pending), but EXCEPT.  */
static void nat_unpause(struct nat_target *target,
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
		if (nat_waitpid(thread->tid, &status, 0) < 0) {
			err = -pse_nothread;
			break;
		}
		/* A plain completed step is ours; anything else stays.  */
		if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP &&
		    !(status >> 16) && !proc->emu) {
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
	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			t->resumed = 0;
			t->stop_known = 1;
		}
}

/* Whether LEADER's pending event is its process's end while another
   thread of P still has an event to tell.  */
static int nat_process_end_waits(const struct nat_process *p,
				 const struct nat_thread *leader)
{
	if (!WIFEXITED(leader->pending_status) &&
	    !WIFSIGNALED(leader->pending_status))
		return 0;
	for (const struct nat_thread *t = p->threads; t; t = t->next)
		if (t != leader && t->has_pending)
			return 1;
	return 0;
}

/* The next thread whose event the client should hear: a stepping one
   first (its step is what the client waits for), else the first with
   an event after the thread reported last, in list order and around:
   every pending event is reported within one round, as gdbserver's
   random pick does on average.  */
static struct nat_thread *nat_pick_event(struct nat_target *target)
{
	struct nat_thread *first = NULL, *next = NULL;
	int past_last = 0;

	for (struct nat_process *p = target->procs; p; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			if (t->tid == target->last_event_tid)
				past_last = 1;
			if (!t->has_pending)
				continue;
			/* Non-stop: a process's end is news even for a thread
			   the client holds stopped (another one exited).  */
			if (!t->resumed &&
			    !(target->non_stop &&
			      (WIFEXITED(t->pending_status) ||
			       WIFSIGNALED(t->pending_status))))
				continue;
			if (t->stepping)
				return t;
			/* A process's end goes after its threads' own news
			   (their exits), which it would otherwise discard.  */
			if (t->tid == p->pid && nat_process_end_waits(p, t))
				continue;
			if (!first)
				first = t;
			if (past_last && !next && t->tid != target->last_event_tid)
				next = t;
		}
	return next ? next : first;
}

/* A breakpoint hit whose breakpoint the client has since removed is
   no event any more: the thread's PC is already back at the site.  */
static int nat_event_is_stale(const struct nat_thread *thread)
{
	const struct int3_site *site;

	if (thread->pending_reason != nat_stop_swbreak)
		return 0;
	site = int3_lookup(&thread->proc->int3s, thread->pending_pc);
	return !site || !(site->owners & int3_owner_gdb);
}

static void nat_fill_event(struct nat_target *target,
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
		nat_remove_thread(proc, thread);
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
		ev->kind = nat_ev_forked;
		ev->child = thread->pending_child;
		return;
	case PTRACE_EVENT_VFORK:
		ev->kind = nat_ev_vforked;
		ev->child = thread->pending_child;
		return;
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

/* Is the emulator running a thread (so stops come every few
   microseconds and the blocking wait pays)?  */
static bool nat_emulating(struct nat_target *target)
{
	for (struct nat_process *p = target->procs; p; p = p->next)
		if (p->emu)
			for (struct nat_thread *t = p->threads; t; t = t->next)
				if (t->state == nat_thread_running)
					return true;
	return false;
}

/* The client's fd is readable: a Ctrl-C interrupts, an error ends.  */
static int nat_client_input(struct nat_target *target,
			    const struct nat_wait_hook *hook)
{
	int r = hook->readable(hook->ctx);

	if (r < 0)
		return r;
	if (r == 1)
		nat_interrupt(target);
	return 0;
}

/* One blocking waitpid (see wait_block.h): 0, or the client's error.
   *COLLECT says whether the next round must collect with WNOHANG.  */
static int nat_wait_blocking(struct nat_target *target,
			     const struct nat_wait_hook *hook,
			     struct nat_block *blk, bool *collect)
{
	struct pollfd client = { .fd = hook->fd, .events = POLLIN };
	int status, r;
	pid_t pid;

	r = nat_block_wait(blk, &pid, &status);
	if (r < 0)
		return 0;
	if (r == 1) {
		struct nat_thread *thread = nat_lookup_tid(target, pid);

		if (thread)
			nat_handle_status(target, thread, status, 0);
		else
			nat_stash_orphan(target, pid, status);
		/* Statuses already there come from the next waitpid.  */
		*collect = false;
	}
	if ((r == 0 || nat_block_client_due(blk)) && poll(&client, 1, 0) > 0)
		return nat_client_input(target, hook);
	return 0;
}

static int64_t nat_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The hook's tick, when due: 0, or its error.  *TIMEOUT: milliseconds
   to the next one for poll (-1 without a tick).  */
static int nat_wait_tick(const struct nat_wait_hook *hook, int64_t *next,
			 int *timeout)
{
	int64_t now;

	*timeout = -1;
	if (!hook || !hook->tick || hook->tick_ms <= 0)
		return 0;
	now = nat_now_ms();
	if (!*next)
		*next = now + hook->tick_ms;
	if (now >= *next) {
		int r = hook->tick(hook->ctx);

		if (r < 0)
			return r;
		*next = now + hook->tick_ms;
	}
	*timeout = (int) (*next - now);
	return 0;
}

static int nat_wait_loop(struct nat_target *target, struct nat_event *ev,
			 const struct nat_wait_hook *hook,
			 struct nat_block *blk)
{
	bool collect = true;
	int64_t next_tick = 0;

	for (;;) {
		struct nat_thread *thread;
		struct pollfd fds[2];
		int nfds = 1, timeout, r;

		if (collect)
			nat_collect(target);
		collect = true;
		thread = nat_pick_event(target);
		if (thread && nat_event_is_stale(thread)) {
			thread->has_pending = 0;
			/* nat_resume held every thread back for this event:
			   with no other one left, all of them go on.  */
			if (!nat_pick_event(target))
				nat_unpause(target, NULL);
			continue;
		}
		if (thread) {
			nat_block_fini(blk);
			nat_stop_all(target);
			nat_fill_event(target, thread, ev);
			/* All-stop: the client takes every thread as stopped.  */
			for (struct nat_process *p = target->procs; p; p = p->next)
				for (struct nat_thread *t = p->threads; t; t = t->next) {
					t->resumed = 0;
					t->stop_known = 1;
				}
			return 0;
		}
		if (!nat_first_running(target)) {
			memset(ev, 0, offsetof(struct nat_event, path));
			ev->kind = nat_ev_no_resumed;
			return 0;
		}

		r = nat_wait_tick(hook, &next_tick, &timeout);
		if (r < 0)
			return r;
		if (hook && hook->fd >= 0 && nat_emulating(target) &&
		    nat_block_arm(blk) == 0) {
			r = nat_wait_blocking(target, hook, blk, &collect);

			if (r < 0)
				return r;
			continue;
		}
		nat_block_fini(blk);
		fds[0].fd = target->sigchld_fd;
		fds[0].events = POLLIN;
		if (hook && hook->fd >= 0) {
			fds[1].fd = hook->fd;
			fds[1].events = POLLIN;
			nfds = 2;
		}
		if (poll(fds, nfds, timeout) < 0) {
			if (errno == EINTR)
				continue;
			return -pse_io;
		}
		if (fds[0].revents)
			nat_drain_sigchld(target);
		if (nfds == 2 && fds[1].revents) {
			r = nat_client_input(target, hook);

			if (r < 0)
				return r;
		}
	}
}

int nat_wait(struct nat_target *target, struct nat_event *ev,
	     const struct nat_wait_hook *hook)
{
	struct nat_block blk;
	int r;

	nat_block_init(&blk);
	r = nat_wait_loop(target, ev, hook, &blk);
	nat_block_fini(&blk);
	return r;
}

void nat_stop_process(struct nat_target *target, struct nat_process *proc)
{
	int status;

	for (struct nat_thread *t = proc->threads; t; t = t->next)
		if (t->state == nat_thread_running && !t->stop_expected) {
			syscall(SYS_tgkill, proc->pid, t->tid, SIGSTOP);
			t->stop_expected = 1;
		}
	for (;;) {
		struct nat_thread *thread = NULL;

		for (struct nat_thread *t = proc->threads; t && !thread;
		     t = t->next)
			if (t->state == nat_thread_running)
				thread = t;
		if (!thread)
			return;
		if (nat_waitpid(thread->tid, &status, 0) < 0) {
			thread->state = nat_thread_stopped;
			if (thread->tid != proc->pid)
				nat_remove_thread(proc, thread);
			continue;
		}
		nat_handle_status(target, thread, status, 1);
	}
}

void nat_set_non_stop(struct nat_target *target, int on)
{
	if (target->non_stop && !on)
		nat_stop(target);
	target->non_stop = on;
}

int nat_event_fd(const struct nat_target *target)
{
	return target->sigchld_fd;
}

int nat_poll_event(struct nat_target *target, struct nat_event *ev)
{
	/* Drain first: a SIGCHLD after this makes the fd readable again.  */
	nat_drain_sigchld(target);
	for (;;) {
		struct nat_thread *thread;

		nat_collect(target);
		thread = nat_pick_event(target);
		if (!thread)
			return 0;
		if (nat_event_is_stale(thread)) {
			thread->has_pending = 0;
			if (!thread->stop_requested) {
				nat_resume_quietly(thread, 0);
				continue;
			}
			/* It is stopped, as the client asked meanwhile.  */
			nat_set_pending(thread, W_STOPCODE(SIGSTOP),
					nat_stop_none);
		}
		/* Only this thread stops for the client.  */
		thread->resumed = 0;
		nat_fill_event(target, thread, ev);
		return 1;
	}
}

int nat_continue_thread(struct nat_target *target, struct nat_thread *thread)
{
	(void) target;
	thread->resumed = 1;
	/* A signal that came during a step over a breakpoint is pending:
	   resuming would drop it, nat_poll_event reports it instead.  */
	if (thread->has_pending)
		return 0;
	return nat_thread_resume(thread, thread->resume_kind, 0);
}
