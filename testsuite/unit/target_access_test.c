#include <criterion/criterion.h>

#include "nat/btrace.h"
#include "nat/process.h"
#include "nat/target.h"

#include <signal.h>
#include <string.h>

/* A target's bookkeeping alone: no program runs, no ptrace.  */
static struct nat_target target;

static void setup(void)
{
	memset(&target, 0, sizeof(target));
}

static void teardown(void)
{
	while (target.procs)
		nat_remove_process(&target, target.procs);
}

TestSuite(target_access, .init = setup, .fini = teardown);

Test(target_access, walks_processes_and_threads_in_creation_order)
{
	struct nat_process *a = nat_add_process(&target, 100);
	struct nat_process *b = nat_add_process(&target, 200);
	struct nat_thread *t;

	nat_add_thread(a, 100);
	nat_add_thread(a, 101);
	cr_assert_eq(nat_first_process(&target), a);
	cr_assert_eq(nat_process_next(a), b);
	cr_assert_null(nat_process_next(b));
	cr_assert_eq(nat_process_pid(b), 200);
	t = nat_process_first_thread(a);
	cr_assert_eq(nat_thread_tid(t), 100);
	cr_assert_eq(nat_thread_pid(t), 100);
	cr_assert_eq(nat_thread_process(t), a);
	t = nat_thread_next(t);
	cr_assert_eq(nat_thread_tid(t), 101);
	cr_assert_null(nat_thread_next(t));
	cr_assert_null(nat_process_first_thread(b));
}

Test(target_access, a_stop_is_reported_until_resumed)
{
	struct nat_thread *t = nat_add_thread(nat_add_process(&target, 5), 5);

	cr_assert_not(nat_thread_stop_reported(t));
	t->stop_known = 1;
	cr_assert(nat_thread_stop_reported(t));
	t->resumed = 1;
	cr_assert_not(nat_thread_stop_reported(t));
	cr_assert_not(nat_thread_traced(t));
	cr_assert_eq(nat_btrace_format(t), trace_format_none);
	cr_assert_eq(nat_btrace_size(t), 0);
	cr_assert_not(nat_btrace_is_emulated(t));
}

Test(target_access, only_a_plain_signal_stop_is_taken)
{
	struct nat_thread *t = nat_add_thread(nat_add_process(&target, 5), 5);

	cr_assert_eq(nat_thread_take_signal_stop(t), 0);
	/* A ptrace event stop (bits above 16) is not the client's.  */
	t->has_pending = 1;
	t->pending_status = (SIGTRAP << 8) | 0x7f | (1 << 16);
	cr_assert_eq(nat_thread_take_signal_stop(t), 0);
	cr_assert(t->has_pending);
	t->pending_status = (SIGUSR1 << 8) | 0x7f;
	cr_assert_eq(nat_thread_take_signal_stop(t), SIGUSR1);
	cr_assert_not(t->has_pending);
	cr_assert_eq(nat_thread_last_sig(t), SIGUSR1);
	nat_thread_set_last_sig(t, 0);
	cr_assert_eq(nat_thread_last_sig(t), 0);
}

Test(target_access, a_new_client_forgets_what_the_last_asked)
{
	uint8_t pass[NAT_SIGNALS] = { 0 };

	pass[SIGUSR1] = 1;
	nat_target_set_fork_events(&target, 1, 1, 1);
	nat_target_set_thread_events(&target, 1);
	nat_target_set_pass_signals(&target, pass);
	nat_target_set_program_signals(&target, pass);
	cr_assert(target.report_fork && target.report_vfork &&
		  target.report_exec && target.report_thread_exit &&
		  target.report_thread_create);
	cr_assert(target.pass_signals[SIGUSR1]);
	cr_assert(target.program_signals[SIGUSR1]);
	cr_assert(target.program_signals_set);
	nat_target_client_reset(&target);
	cr_assert_not(target.report_fork || target.report_vfork ||
		      target.report_exec || target.report_thread_exit ||
		      target.report_thread_create);
	cr_assert_not(target.pass_signals[SIGUSR1]);
	cr_assert_not(target.program_signals_set);
}

static void hook(void *ctx, struct nat_thread *thread)
{
	(void) ctx;
	(void) thread;
}

Test(target_access, only_its_owner_clears_the_new_thread_hook)
{
	int mine, other;

	nat_target_set_new_thread_hook(&target, hook, &mine);
	nat_target_clear_new_thread_hook(&target, &other);
	cr_assert_eq(target.on_new_thread, hook);
	nat_target_clear_new_thread_hook(&target, &mine);
	cr_assert_null(target.on_new_thread);
	cr_assert_null(target.on_new_thread_ctx);
}

Test(target_access, settings_reach_the_target)
{
	nat_target_set_btrace(&target, nat_btrace_emulated,
			      nat_btrace_engine_cache);
	cr_assert_eq(nat_target_btrace_policy(&target), nat_btrace_emulated);
	cr_assert_eq(nat_target_btrace_engine(&target),
		     nat_btrace_engine_cache);
	nat_target_set_psb_period(&target, 4096);
	cr_assert_eq(target.btrace_psb_period, 4096);
	nat_target_set_debug(&target, stderr);
	cr_assert_eq(nat_target_debug(&target), stderr);
	nat_target_start_opts(&target)->cwd = "/";
	cr_assert_str_eq(target.start.cwd, "/");
}
