/* The code cache's drain (nat/emu/cc_drain.c) on a real process: a log
   of one page fills many times over, and every fill turns into the
   trace single-step sees.  */
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

/* A log of one page fills many times over (the guard page): each fill
   is drained and the store restarted, and the trace still equals
   single-step's.  */
Test(cc_drain, small_log_fills_and_restarts)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_ips truth, pt;
	struct drv_trace trace;
	unsigned gaps;
	long at;

	snprintf(prog, sizeof(prog), "%s/bench_work", EMU_PROGDIR);
	drv_ips_init(&truth);
	drv_ips_init(&pt);
	cr_assert_eq(drv_start(&proc, prog, "fib:16", "run"), 0);
	drv_truth(&proc, &truth);
	drv_finish(&proc);

	drv_trace_init(&trace);
	cr_assert_eq(drv_start(&proc, prog, "fib:16", "run"), 0);
	cr_assert_eq(drv_emulate(&proc, &(struct emu_config) {
				.engine = emu_engine_cache, .cache_log = 4096 },
				 trace_format_pt, 16u << 20, &trace), 0);
	drv_decode_pt(&proc, &trace.pt, &pt, &gaps);
	drv_finish(&proc);
	cr_expect_geq(trace.status.cc.fills, 2, "%llu fills",
		     (unsigned long long) trace.status.cc.fills);
	cr_expect_eq(gaps, 0);
	at = drv_first_diff(&truth, &pt);
	cr_expect_eq(at, -1, "differs at %ld of %zu/%zu", at, truth.count,
		     pt.count);
	drv_trace_fini(&trace);
	drv_ips_fini(&truth);
	drv_ips_fini(&pt);
}
