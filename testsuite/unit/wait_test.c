#include "testsuite/unit/nat_fixture.h"
#include "testsuite/emu/emu_test_main.h"

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
