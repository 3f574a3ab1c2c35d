/* Tests of nat/stop_all.c: stopping every thread, for all-stop, for
   the client's stop and for one process.  */
#include "testsuite/unit/nat_fixture.h"
#include "nat/process.h"
#include "testsuite/emu/emu_test_main.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/user.h>

TestSuite(stop_all, .init = nat_fixture_setup, .fini = nat_fixture_teardown);

/* nat_stop stops a running program, and the client takes it as
   stopped: not resumed, its stop known.  */
Test(stop_all, stop_stops_a_running_program)
{
	pid_t pid = nat_fixture_start("loop", NULL);
	struct nat_process *proc = nat_find_process(&target, pid);

	nat_fixture_resume_all(nat_resume_cont);
	nat_stop(&target);
	for (struct nat_thread *t = proc->threads; t; t = t->next) {
		cr_assert_eq(t->state, nat_thread_stopped);
		cr_assert_not(t->resumed);
		cr_assert(t->stop_known);
	}
	cr_assert_eq(nat_kill(&target, pid), 0);
}

/* nat_stop_process stops the threads of that process only.  */
Test(stop_all, stop_process_stops_its_threads)
{
	pid_t pid = nat_fixture_start("loop", NULL);
	struct nat_process *proc = nat_find_process(&target, pid);

	nat_fixture_resume_all(nat_resume_cont);
	nat_stop_process(&target, proc);
	for (struct nat_thread *t = proc->threads; t; t = t->next)
		cr_assert_eq(t->state, nat_thread_stopped);
	cr_assert_eq(nat_kill(&target, pid), 0);
}

Test(stop_all, all_threads_stop_when_one_hits)
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
