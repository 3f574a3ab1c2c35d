#include "testsuite/unit/nat_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include <signal.h>
#include <sys/user.h>

TestSuite(resume, .init = nat_fixture_setup, .fini = nat_fixture_teardown);

Test(resume, unnamed_threads_stay_stopped)
{
	struct nat_process *proc;
	struct nat_resume other = { 1, 1, nat_resume_cont, 0 };
	pid_t pid = nat_fixture_start("exit", "0");

	proc = nat_find_process(&target, pid);
	/* An action for some other thread leaves ours alone.  */
	cr_assert_eq(nat_resume(&target, &other, 1), 0);
	cr_assert_eq(proc->threads->state, nat_thread_stopped);
	cr_assert_eq(proc->threads->resumed, 0);
}

Test(resume, first_matching_action_wins)
{
	struct nat_event ev;
	pid_t pid = nat_fixture_start("marker", NULL);
	uint64_t pc0 = nat_fixture_pc(pid);
	struct nat_resume actions[] = {
		{ pid, pid, nat_resume_step, 0 },
		{ -1, -1, nat_resume_cont, 0 },
	};

	cr_assert_eq(nat_resume(&target, actions, 2), 0);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_stopped);
	cr_assert_eq(ev.reason, nat_stop_step);
	cr_assert_neq(nat_fixture_pc(pid), pc0);
}

Test(resume, signal_is_delivered)
{
	struct nat_event ev;
	struct nat_resume kill_it = { -1, -1, nat_resume_cont, SIGTERM };

	nat_fixture_start("loop", NULL);
	cr_assert_eq(nat_resume(&target, &kill_it, 1), 0);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_signalled);
	cr_assert_eq(ev.sig, SIGTERM);
}

/* SIGKILLed while the stub holds it stopped: resuming it is no error,
   and the wait reports the kill (the client would otherwise retry its
   vCont for ever).  */
Test(resume, a_killed_thread_resumes_into_its_end)
{
	struct nat_resume all = { -1, -1, nat_resume_cont, 0 };
	struct nat_event ev;
	pid_t pid = nat_fixture_start("loop", NULL);

	cr_assert_eq(kill(pid, SIGKILL), 0);
	/* Let the kill land: the thread becomes a zombie.  */
	usleep(100000);
	cr_assert_eq(nat_resume(&target, &all, 1), 0);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_signalled);
	cr_assert_eq(ev.sig, SIGKILL);
	cr_assert_eq(ev.pid, pid);
}
