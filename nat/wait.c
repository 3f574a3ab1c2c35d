/* nat/wait.c: waiting.  Statuses are taken from the kernel (a poll on
   the SIGCHLD signalfd, or a blocking waitpid while the emulator runs),
   the next event the client should hear is picked, and in all-stop
   every thread is stopped before it is reported.  In non-stop
   (nat_poll_event, at the end) only that thread stops.  What a status
   means is wait_status.c's, stopping everything is stop_all.c's.  */
#define _GNU_SOURCE
#include "nat/process.h"
#include "nat/stop_all.h"
#include "nat/wait_status.h"
#include "nat/wait_block.h"
#include "common/ps_error.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


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
void nat_collect(struct nat_target *target)
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
			    !((target->non_stop || t->zombie) &&
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
			nat_mark_all_stopped(target);
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
		/* Only this thread stops for the client, who reads the
		   thread list next: a leader that has exited meanwhile is
		   no thread of its any more (all-stop finds it stopping
		   everything).  */
		thread->resumed = 0;
		nat_mark_zombie_leaders(target);
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
