#include "testsuite/unit/nat_fixture.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/user.h>

TestSuite(wait, .init = nat_fixture_setup, .fini = nat_fixture_teardown);

Test(wait, exit_code_is_reported)
{
	struct nat_event ev;
	pid_t pid = nat_fixture_start("exit", "7");

	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.pid, pid);
	cr_assert_eq(ev.status, 7);
	cr_assert_null(nat_find_process(&target, pid));
}

Test(wait, breakpoint_reports_swbreak_at_its_address)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	struct nat_process *proc;
	struct nat_event ev;
	uint8_t byte;
	pid_t pid;

	cr_assert_neq(marker, 0);
	pid = nat_fixture_start("marker", NULL);
	proc = nat_find_process(&target, pid);
	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	/* Reads see the original byte, not the int3.  */
	cr_assert_eq(nat_read_memory(proc, marker, &byte, 1), 1);
	cr_assert_neq(byte, 0xcc);

	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_stopped);
	cr_assert_eq(ev.sig, SIGTRAP);
	cr_assert_eq(ev.reason, nat_stop_swbreak);
	cr_assert_eq(nat_fixture_pc(pid), marker);

	/* Step off it the way GDB does: remove, step, reinsert.  */
	cr_assert_eq(nat_remove_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_step);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.reason, nat_stop_step);
	cr_assert_neq(nat_fixture_pc(pid), marker);
	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);

	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.reason, nat_stop_swbreak, "second call stops too");
	cr_assert_eq(nat_remove_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
}

Test(wait, signal_is_reported_or_passed)
{
	struct nat_event ev;

	nat_fixture_start("signal", NULL);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_stopped);
	cr_assert_eq(ev.sig, SIGUSR1);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.status, 5);

	/* Passed signals go to the program without a stop.  */
	target.pass_signals[SIGUSR1] = 1;
	nat_fixture_start("signal", NULL);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
}

Test(wait, all_threads_stop_when_one_hits)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	struct nat_process *proc;
	struct nat_event ev;
	int hits = 0, threads;
	pid_t pid = nat_fixture_start("threads", NULL);

	proc = nat_find_process(&target, pid);
	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	for (;;) {
		nat_fixture_resume_all(nat_resume_cont);
		nat_fixture_wait(&ev);
		if (ev.kind == nat_ev_exited)
			break;
		cr_assert_eq(ev.reason, nat_stop_swbreak);
		hits++;
		threads = 0;
		for (struct nat_thread *t = proc->threads; t; t = t->next) {
			cr_assert_eq(t->state, nat_thread_stopped);
			threads++;
		}
		cr_assert_geq(threads, 2);
		/* Step the hitting thread past the breakpoint alone.  */
		struct nat_resume step = { pid, ev.tid, nat_resume_step, 0 };
		cr_assert_eq(nat_remove_breakpoint(proc, marker), 0);
		cr_assert_eq(nat_resume(&target, &step, 1), 0);
		nat_fixture_wait(&ev);
		cr_assert_eq(ev.reason, nat_stop_step);
		cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	}
	cr_assert_eq(hits, 3);
	cr_assert_eq(ev.status, 3);
}

Test(wait, fork_is_reported_with_the_child)
{
	struct nat_event ev;
	pid_t pid;

	target.report_fork = 1;
	target.pass_signals[SIGCHLD] = 1;  /* as GDB asks */
	pid = nat_fixture_start("fork", NULL);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_forked);
	cr_assert_eq(ev.pid, pid);
	cr_assert_gt(ev.child, 0);
	cr_assert_not_null(nat_find_process(&target, ev.child));
	cr_assert_eq(nat_detach(&target, ev.child), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.status, 10);
}

Test(wait, fork_unreported_is_detached)
{
	struct nat_event ev;

	target.pass_signals[SIGCHLD] = 1;
	nat_fixture_start("fork", NULL);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.status, 10);
}

Test(wait, exec_is_reported_with_the_new_image)
{
	struct nat_event ev;
	pid_t pid;

	target.report_exec = 1;
	pid = nat_fixture_start("exec", NULL);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_execd);
	cr_assert_eq(ev.pid, pid);
	cr_assert(strstr(ev.path, "nat_prog") != NULL, "path %s", ev.path);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.status, 3);
}

static int interrupt_now(void *ctx)
{
	char c;

	return read(*(int *) ctx, &c, 1) == 1 ? 1 : -1;
}

Test(wait, hook_interrupts_a_running_program)
{
	struct nat_wait_hook hook;
	struct nat_event ev;
	int fds[2];
	pid_t pid = nat_fixture_start("loop", NULL);

	cr_assert_eq(pipe(fds), 0);
	memset(&hook, 0, sizeof(hook));
	hook.fd = fds[0];
	hook.readable = interrupt_now;
	hook.ctx = &fds[0];
	cr_assert_eq(write(fds[1], "x", 1), 1);
	nat_fixture_resume_all(nat_resume_cont);
	cr_assert_eq(nat_wait(&target, &ev, &hook), 0);
	cr_assert_eq(ev.kind, nat_ev_stopped);
	cr_assert_eq(ev.sig, SIGINT);
	cr_assert_eq(ev.pid, pid);
	close(fds[0]);
	close(fds[1]);
}

static int ticks_until_error(void *ctx)
{
	return ++*(int *) ctx == 3 ? -pse_io : 0;
}

/* The hook's tick comes while the program runs (here a loop with no
   stop at all) and its error ends the wait.  */
Test(wait, hook_ticks_while_a_program_runs)
{
	struct nat_wait_hook hook;
	struct nat_event ev;
	int ticks = 0;

	nat_fixture_start("loop", NULL);
	memset(&hook, 0, sizeof(hook));
	hook.fd = -1;
	hook.tick = ticks_until_error;
	hook.tick_ms = 20;
	hook.ctx = &ticks;
	nat_fixture_resume_all(nat_resume_cont);
	cr_assert_eq(nat_wait(&target, &ev, &hook), -pse_io);
	cr_assert_eq(ticks, 3);
	nat_stop(&target);
}

/* A breakpoint hit still pending when the client removed the breakpoint
   (in all-stop it held every thread back at the resume) is dropped, and
   then every thread goes on, not only the one that hit it.  */
Test(wait, stale_breakpoint_hit_lets_all_threads_run)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	struct nat_process *proc;
	struct nat_thread *other = NULL;
	struct nat_event ev;
	pid_t pid = nat_fixture_start("threads", NULL);

	proc = nat_find_process(&target, pid);
	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.reason, nat_stop_swbreak);
	/* Another thread hit it too, as if at the same moment.  */
	for (struct nat_thread *t = proc->threads; t && !other; t = t->next)
		if (t->tid != ev.tid && !t->has_pending)
			other = t;
	cr_assert_not_null(other);
	other->has_pending = 1;
	other->pending_status = (SIGTRAP << 8) | 0x7f;   /* stopped */
	other->pending_reason = nat_stop_swbreak;
	other->pending_pc = marker;

	cr_assert_eq(nat_remove_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited, "kind %d", ev.kind);
	cr_expect_eq(ev.status, 3);
}

/* A thread hits a breakpoint that the client removes before its stop is
   collected (non-stop: z0 while other threads run): the hit is stale,
   the PC goes back over the int3 and the program runs on, unharmed.  */
Test(wait, breakpoint_removed_before_its_hit_is_collected)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	struct nat_process *proc;
	struct nat_event ev;
	siginfo_t si;
	pid_t pid = nat_fixture_start("marker", NULL);

	proc = nat_find_process(&target, pid);
	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	/* Wait for the trap without collecting it.  */
	memset(&si, 0, sizeof(si));
	cr_assert_eq(waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT | __WALL), 0);
	cr_assert_eq(si.si_status, SIGTRAP);
	cr_assert_eq(nat_remove_breakpoint(proc, marker), 0);

	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited, "kind %d sig %d", ev.kind, ev.sig);
}
