/* Tests of nat/wait_round.c: waiting for a thread's stop without
   blocking on its pid, and the zombie leader it finds.  */
#include "testsuite/unit/nat_fixture.h"
#include "nat/process.h"
#include "nat/wait_status.h"
#include "testsuite/emu/emu_test_main.h"

#include <signal.h>
#include <time.h>

TestSuite(wait_round, .init = nat_fixture_setup,
	  .fini = nat_fixture_teardown, .timeout = 30);

/* The leader exits while the second thread lives: all-stop stops
   everything at the second thread's breakpoint (the zombie's SIGSTOP
   never comes), the client's thread list skips the leader, and the
   process's end comes with the last thread's.  */
Test(wait_round, zombie_leader_is_not_waited_for)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	pid_t pid = nat_fixture_start("leader_exit", NULL);
	struct nat_process *proc = nat_find_process(&target, pid);
	struct nat_thread *leader, *first;
	struct nat_event ev;

	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_stopped);
	cr_assert_eq(ev.reason, nat_stop_swbreak);
	cr_assert_neq(ev.tid, pid);
	leader = nat_lookup_tid(&target, pid);
	cr_assert_not_null(leader);
	cr_assert(leader->zombie);
	cr_assert_eq(leader->state, nat_thread_stopped);
	first = nat_process_first_thread(proc);
	cr_assert_not_null(first);
	cr_assert_eq(nat_thread_tid(first), ev.tid);
	cr_assert_null(nat_thread_next(first));
	cr_assert_null(nat_find_thread(&target, pid, pid));

	cr_assert_eq(nat_remove_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.status, 7);
}

/* With nothing to report a round sleeps a tick, no more, and says 0.  */
Test(wait_round, a_round_with_nothing_ends_in_a_tick)
{
	pid_t pid = nat_fixture_start("loop", NULL);
	struct timespec t0, t1;
	int status = 0;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	cr_assert_eq(nat_wait_round(&target, pid, &status, 1), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	cr_assert_lt(ms, 1000);
	cr_assert_eq(nat_kill(&target, pid), 0);
}

/* The thread waited for gets its own status back, unhandled.  */
Test(wait_round, own_status_is_returned)
{
	pid_t pid = nat_fixture_start("loop", NULL);
	int status = 0, r;

	nat_fixture_resume_all(nat_resume_cont);
	kill(pid, SIGSTOP);
	do
		r = nat_wait_round(&target, pid, &status, 1);
	while (r == 0);
	cr_assert_eq(r, 1);
	cr_assert(WIFSTOPPED(status));
	cr_assert_eq(WSTOPSIG(status), SIGSTOP);
	cr_assert_eq(nat_kill(&target, pid), 0);
}

/* The quit flag ends stopping everything at once.  */
Test(wait_round, quit_is_seen)
{
	static volatile sig_atomic_t quit;

	cr_assert_not(nat_quitting(&target));
	nat_target_set_quit(&target, &quit);
	cr_assert_not(nat_quitting(&target));
	quit = SIGTERM;
	cr_assert(nat_quitting(&target));
	nat_target_set_quit(&target, NULL);
}

/* /proc's state letter: a thread in its tracing stop, ours running, one
   that is gone.  */
Test(wait_round, proc_state_reads_the_letter)
{
	pid_t pid = nat_fixture_start("loop", NULL);

	cr_assert_eq(nat_proc_state(pid), 't');
	cr_assert_eq(nat_proc_state(getpid()), 'R');
	cr_assert_eq(nat_kill(&target, pid), 0);
	cr_assert_eq(nat_proc_state(pid), -1);
}

/* Non-stop stops one thread only: the leader that exited meanwhile is
   found when that stop is reported, and leaves the client's thread
   list (GDB read its registers for a core file, and it was running).  */
Test(wait_round, non_stop_finds_the_zombie_leader_at_a_stop)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	pid_t pid = nat_fixture_start("leader_exit", NULL);
	struct nat_process *proc = nat_find_process(&target, pid);
	struct nat_event ev;
	int got = 0;

	nat_set_non_stop(&target, 1);
	cr_assert_eq(nat_insert_breakpoint(proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	for (int i = 0; i < 5000 && !got; i++) {
		got = nat_poll_event(&target, &ev);
		if (!got)
			usleep(1000);
	}
	cr_assert_eq(got, 1);
	cr_assert_eq(ev.reason, nat_stop_swbreak);
	cr_assert_neq(ev.tid, pid);
	cr_assert(nat_lookup_tid(&target, pid)->zombie);
	cr_assert_eq(nat_thread_tid(nat_process_first_thread(proc)), ev.tid);
	cr_assert_null(nat_thread_next(nat_process_first_thread(proc)));
	cr_assert_eq(nat_kill(&target, pid), 0);
}
