/* Tests of nat/wait_status.c: what a wait status means (a breakpoint, a
   step, a signal, a fork, an exec) and the event the client gets.  */
#include "testsuite/unit/nat_fixture.h"
#include "nat/process.h"
#include "nat/wait_status.h"
#include "testsuite/emu/emu_test_main.h"

#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/user.h>
#include <unistd.h>

TestSuite(wait_status, .init = nat_fixture_setup,
	  .fini = nat_fixture_teardown);

/* A stop the client asked for is told as signal 0, and the event is
   no longer pending.  */
Test(wait_status, requested_sigstop_is_reported_as_signal_0)
{
	struct nat_process proc;
	struct nat_thread thread;
	struct nat_event ev;

	memset(&proc, 0, sizeof(proc));
	memset(&thread, 0, sizeof(thread));
	proc.pid = 100;
	thread.proc = &proc;
	thread.tid = 101;
	nat_set_pending(&thread, W_STOPCODE(SIGSTOP), nat_stop_none);
	cr_assert(thread.has_pending);
	thread.stop_requested = 1;
	nat_fill_event(&target, &thread, &ev);
	cr_assert_eq(ev.kind, nat_ev_stopped);
	cr_assert_eq(ev.sig, 0);
	cr_assert(ev.stop_requested);
	cr_assert_eq(ev.pid, 100);
	cr_assert_eq(ev.tid, 101);
	cr_assert_not(thread.has_pending);
	cr_assert_eq(target.last_event_tid, 101);
}

/* A swbreak stop at an address with no client breakpoint is stale;
   any other stop is not.  */
Test(wait_status, swbreak_without_its_breakpoint_is_stale)
{
	struct nat_process proc;
	struct nat_thread thread;

	memset(&proc, 0, sizeof(proc));
	memset(&thread, 0, sizeof(thread));
	int3_table_init(&proc.int3s);
	thread.proc = &proc;
	nat_set_pending(&thread, W_STOPCODE(SIGTRAP), nat_stop_swbreak);
	thread.pending_pc = 0x1000;
	cr_assert(nat_event_is_stale(&thread));
	thread.pending_reason = nat_stop_step;
	cr_assert_not(nat_event_is_stale(&thread));
	int3_table_fini(&proc.int3s);
}

Test(wait_status, breakpoint_reports_swbreak_at_its_address)
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

Test(wait_status, signal_is_reported_or_passed)
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

Test(wait_status, fork_is_reported_with_the_child)
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

/* Until the client hears of the fork, the child has no thread to list
   (GDB took one for a new inferior of its own, with no registers it
   could read) and a wildcard resume leaves it alone; the event makes it
   the client's.  */
Test(wait_status, fork_child_is_hidden_until_its_event_is_reported)
{
	struct nat_process *child = NULL;
	struct nat_event ev;
	pid_t pid;

	target.report_fork = 1;
	target.pass_signals[SIGCHLD] = 1;
	pid = nat_fixture_start("fork", NULL);
	nat_fixture_resume_all(nat_resume_cont);
	for (int i = 0; i < 5000 && !child; i++) {
		nat_collect(&target);
		for (struct nat_process *p = nat_first_process(&target); p;
		     p = nat_process_next(p))
			if (nat_process_pid(p) != pid)
				child = p;
		if (!child)
			usleep(1000);
	}
	cr_assert_not_null(child, "no fork child collected");
	cr_assert_null(nat_process_first_thread(child));
	nat_fixture_resume_all(nat_resume_cont);
	cr_assert_not(child->threads->resumed);
	cr_assert_eq(child->threads->state, nat_thread_stopped);

	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_forked);
	cr_assert_eq(ev.child, nat_process_pid(child));
	cr_assert_not_null(nat_process_first_thread(child));
	cr_assert_eq(nat_detach(&target, ev.child), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.status, 10);
}

Test(wait_status, fork_unreported_is_detached)
{
	struct nat_event ev;

	target.pass_signals[SIGCHLD] = 1;
	nat_fixture_start("fork", NULL);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.status, 10);
}

Test(wait_status, exec_is_reported_with_the_new_image)
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

/* A thread hits a breakpoint that the client removes before its stop is
   collected (non-stop: z0 while other threads run): the hit is stale,
   the PC goes back over the int3 and the program runs on, unharmed.  */
Test(wait_status, breakpoint_removed_before_its_hit_is_collected)
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

/* A trap whose thread a SIGKILL took before the stop was looked at: the
   stop is stale and dropped, and the death is what the wait reports
   (it was reported as a SIGTRAP whose registers could not be read, and
   the server ended the session: faults.sh, about 1 run in 8).  */
Test(wait_status, trap_of_a_thread_killed_since_is_dropped)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	struct nat_process *proc;
	struct nat_thread *thread;
	struct nat_event ev;
	int status;
	pid_t pid;

	cr_assert_neq(marker, 0);
	pid = nat_fixture_start("marker", NULL);
	proc = nat_find_process(&target, pid);
	thread = nat_find_thread(&target, pid, pid);
	cr_assert_not_null(thread);
	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	/* The trap collected by hand, then the kill, before nat sees it.  */
	cr_assert_eq(ptrace(PTRACE_CONT, pid, 0, 0), 0);
	cr_assert_eq(waitpid(pid, &status, __WALL), pid);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	cr_assert_eq(kill(pid, SIGKILL), 0);
	thread->resumed = 1;
	cr_assert_eq(nat_handle_status(&target, thread, status, 0),
		     nat_consumed);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_signalled);
	cr_assert_eq(ev.sig, SIGKILL);
}
