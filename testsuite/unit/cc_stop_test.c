/* The code cache's stops (nat/emu/cc_stop.c) on a real process: a
   timer signal landing in code running in the cache is delivered at an
   original IP, as often as the program counts, with no gap in the
   trace.  */
#include "testsuite/unit/cc_fixture.h"
#include "testsuite/emu/emu_driver.h"
#include "testsuite/emu/emu_test_main.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#ifndef EMU_PROGDIR
#error "EMU_PROGDIR must name the built corpus"
#endif

/* A timer signal lands while the loop runs in the cache: it is
   delivered at an original IP (the handler runs, as often as the
   program counts) and the trace decodes with no gap.  */
Test(cc_stop, timer_signal_in_the_cache)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_ips pt;
	struct drv_trace trace;
	unsigned gaps, entries = 0;
	uint64_t handler;

	snprintf(prog, sizeof(prog), "%s/hot_timer", EMU_PROGDIR);
	drv_ips_init(&pt);
	drv_trace_init(&trace);
	cr_assert_eq(drv_start(&proc, prog, NULL, "run"), 0);
	handler = drv_symbol(proc.pid, prog, "on_alarm");
	cr_assert_neq(handler, 0);
	cr_assert_eq(drv_emulate(&proc, &cache_engine, trace_format_pt,
				 16u << 20, &trace), 0);
	drv_decode_pt(&proc, &trace.pt, &pt, &gaps);
	drv_finish(&proc);
	cr_expect_eq(gaps, 0);
	cr_expect_eq(trace.status.gaps, 0);
	cr_expect_null(trace.status.cc.fallback, "fell back: %s",
		       trace.status.cc.fallback);
	cr_expect_gt(trace.status.cc.branches, 1000,
		     "the loop did not run in the cache (%llu branches)",
		     (unsigned long long) trace.status.cc.branches);
	cr_expect_geq(trace.status.cc.signals, 3,
		      "%llu signals stopped it in the cache",
		      (unsigned long long) trace.status.cc.signals);
	cr_assert_gt(pt.count, 100);
	cr_expect_eq(pt.ips[0], proc.entry);
	for (size_t i = 0; i < pt.count; i++)
		entries += pt.ips[i] == handler;
	/* hot_timer counts twelve ticks.  */
	cr_expect_geq(entries, 12, "handler entered %u times", entries);
	drv_trace_fini(&trace);
	drv_ips_fini(&pt);
}

/* Threads killed in the cache (the process ends while they spin there):
   at each one's exit event its log is drained first, so its trace holds
   every loop it ran (100,000 at least before main ends the process),
   without a gap.  */
Test(cc_stop, threads_killed_in_the_cache_keep_their_log)
{
	char prog[512];
	struct cc_fx_run run;

	snprintf(prog, sizeof(prog), "%s/workers", EMU_PROGDIR);
	cc_fx_record_to(&run, prog, "102", &cache_engine, true);
	cr_assert_eq(run.ntids, 3, "%zu threads", run.ntids);
	for (size_t i = 1; i < run.ntids; i++) {
		struct drv_ips got;
		unsigned gaps;

		drv_ips_init(&got);
		cc_fx_own_ips(&run, i, &got, &gaps);
		cr_expect_null(run.st[i].cc.fallback, "thread %zu: %s", i,
			       run.st[i].cc.fallback);
		cr_expect_eq(gaps, 0, "thread %zu: %u gaps", i, gaps);
		/* The loop is 3 instructions or more a pass.  */
		cr_expect_geq(got.count, 300000, "thread %zu: %zu", i,
			      got.count);
		cr_expect_geq(run.st[i].cc.insns, 300000, "thread %zu", i);
		drv_ips_fini(&got);
	}
	cc_fx_finish(&run);
}
