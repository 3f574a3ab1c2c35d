/* The oracle: for each corpus program, the instructions libipt decodes
   from the emulated PT trace, and those the BTS blocks cover, equal what
   a plain PTRACE_SINGLESTEP loop observes on the same run conditions.  */
#include "testsuite/emu/emu_driver.h"
#include "testsuite/emu/emu_test_main.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef EMU_PROGDIR
#error "EMU_PROGDIR must name the built corpus"
#endif

static void oracle_report(const char *what, const struct drv_ips *want,
			  const struct drv_ips *got)
{
	long at = drv_first_diff(want, got);

	if (at < 0)
		return;
	fprintf(stderr, "%s: first difference at %ld of %zu/%zu:\n", what, at,
		want->count, got->count);
	for (long i = at > 3 ? at - 3 : 0; i < at + 4; i++)
		fprintf(stderr, "  [%ld] truth %#llx  %s %#llx\n", i,
			i < (long) want->count ?
			(unsigned long long) want->ips[i] : 0ull, what,
			i < (long) got->count ?
			(unsigned long long) got->ips[i] : 0ull);
}

static void oracle_run(const char *name, const char *arg,
		       const struct emu_config *config, size_t size)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_ips truth, pt, bts;
	struct drv_trace trace;
	unsigned long npackets;
	unsigned gaps;
	long n;
	int err;

	snprintf(prog, sizeof(prog), "%s/%s", EMU_PROGDIR, name);
	drv_ips_init(&truth);
	drv_ips_init(&pt);
	drv_ips_init(&bts);

	cr_assert_eq(drv_start(&proc, prog, arg, "run"), 0, "start %s", prog);
	n = drv_truth(&proc, &truth);
	drv_finish(&proc);
	cr_assert_gt(n, 10, "single-step run of %s: %ld", name, n);

	drv_trace_init(&trace);
	cr_assert_eq(drv_start(&proc, prog, arg, "run"), 0);
	err = drv_emulate(&proc, config, trace_format_pt, size, &trace);
	cr_assert_eq(err, 0, "emulated PT run of %s: %s", name,
		     ps_errstr(err));
	cr_expect_eq(drv_check_packets(&trace.pt, &npackets), 0,
		     "packet stream of %s is malformed", name);
	cr_expect_gt(npackets, 0);
	drv_decode_pt(&proc, &trace.pt, &pt, &gaps);
	drv_finish(&proc);
	cr_expect_eq(gaps, 0, "%s: %u decode gaps", name, gaps);
	cr_expect_eq(trace.status.gaps, 0, "%s: emulator reported gaps", name);
	if (getenv("EMU_CC_DEBUG"))
		fprintf(stderr, "%s: cache entries %llu traps %llu branches "
			"%llu insns %llu blocks %llu fallback %s\n", name,
			(unsigned long long) trace.status.cc.entries,
			(unsigned long long) trace.status.cc.traps,
			(unsigned long long) trace.status.cc.branches,
			(unsigned long long) trace.status.cc.insns,
			(unsigned long long) trace.status.cc.blocks,
			trace.status.cc.fallback ? trace.status.cc.fallback
			: "none");
	oracle_report("pt", &truth, &pt);
	cr_expect_eq(drv_first_diff(&truth, &pt), -1,
		     "%s: PT decode differs from single-step", name);
	drv_trace_fini(&trace);

	drv_trace_init(&trace);
	cr_assert_eq(drv_start(&proc, prog, arg, "run"), 0);
	err = drv_emulate(&proc, config, trace_format_bts, size, &trace);
	cr_assert_eq(err, 0, "emulated BTS run of %s: %s", name,
		     ps_errstr(err));
	cr_expect_geq(drv_expand_bts(&proc, trace.blocks, trace.nblocks,
				     &bts), 0);
	drv_finish(&proc);
	drv_fold_rep(&proc, &bts);
	oracle_report("bts", &truth, &bts);
	cr_expect_eq(drv_first_diff(&truth, &bts), -1,
		     "%s: BTS blocks differ from single-step", name);
	drv_trace_fini(&trace);

	drv_ips_fini(&truth);
	drv_ips_fini(&pt);
	drv_ips_fini(&bts);
}

static const size_t oracle_size = 16u << 20;

Test(oracle, recursion) { oracle_run("recursion", "10", NULL, oracle_size); }
Test(oracle, loops) { oracle_run("loops", NULL, NULL, oracle_size); }
Test(oracle, indirect) { oracle_run("indirect", NULL, NULL, oracle_size); }
Test(oracle, libcalls) { oracle_run("libcalls", NULL, NULL, oracle_size); }
Test(oracle, signals) { oracle_run("signals", NULL, NULL, oracle_size); }
Test(oracle, longjmp) { oracle_run("longjmp", NULL, NULL, oracle_size); }
Test(oracle, throw) { oracle_run("throw", NULL, NULL, oracle_size); }
Test(oracle, threads) { oracle_run("threads", NULL, NULL, oracle_size); }
Test(oracle, forks) { oracle_run("forks", NULL, NULL, oracle_size); }
Test(oracle, syscalls) { oracle_run("syscalls", NULL, NULL, oracle_size); }
Test(oracle, jit) { oracle_run("jit", NULL, NULL, oracle_size); }

/* The same with the RET shortcut: returns followed without a stop must
   leave the trace exactly as it was.  */
static const struct emu_config ret_shortcut = { .ret_shortcut = true };

Test(oracle_ret, recursion) { oracle_run("recursion", "10", &ret_shortcut, oracle_size); }
Test(oracle_ret, loops) { oracle_run("loops", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, indirect) { oracle_run("indirect", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, libcalls) { oracle_run("libcalls", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, signals) { oracle_run("signals", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, longjmp) { oracle_run("longjmp", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, throw) { oracle_run("throw", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, threads) { oracle_run("threads", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, forks) { oracle_run("forks", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, syscalls) { oracle_run("syscalls", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, jit) { oracle_run("jit", NULL, &ret_shortcut, oracle_size); }
Test(oracle_ret, bench_work) { oracle_run("bench_work", "qsort", &ret_shortcut, oracle_size); }


/* And with the Jcc shortcut, and with both.  */
static const struct emu_config jcc_shortcut = { .jcc_shortcut = true };
static const struct emu_config both_shortcuts = { .ret_shortcut = true,
						  .jcc_shortcut = true };

Test(oracle_jcc, recursion) { oracle_run("recursion", "10", &jcc_shortcut, oracle_size); }
Test(oracle_jcc, loops) { oracle_run("loops", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, indirect) { oracle_run("indirect", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, libcalls) { oracle_run("libcalls", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, signals) { oracle_run("signals", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, longjmp) { oracle_run("longjmp", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, throw) { oracle_run("throw", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, threads) { oracle_run("threads", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, forks) { oracle_run("forks", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, syscalls) { oracle_run("syscalls", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, jit) { oracle_run("jit", NULL, &jcc_shortcut, oracle_size); }
Test(oracle_jcc, bench_work) { oracle_run("bench_work", "qsort", &jcc_shortcut, oracle_size); }

Test(oracle_both, recursion) { oracle_run("recursion", "10", &both_shortcuts, oracle_size); }
Test(oracle_both, loops) { oracle_run("loops", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, indirect) { oracle_run("indirect", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, libcalls) { oracle_run("libcalls", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, signals) { oracle_run("signals", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, longjmp) { oracle_run("longjmp", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, throw) { oracle_run("throw", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, threads) { oracle_run("threads", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, forks) { oracle_run("forks", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, syscalls) { oracle_run("syscalls", NULL, &both_shortcuts, oracle_size); }
Test(oracle_both, jit) { oracle_run("jit", NULL, &both_shortcuts, oracle_size); }
/* glibc's strtod, qsort, regcomp and iconv: a call's push on one walk
   of a chain is the slot a RET further on reads (issue 13).  */
Test(oracle_both, glibc_mix) { oracle_run("glibc_mix", "2.25", &both_shortcuts, oracle_size); }
Test(oracle_both, bench_work) { oracle_run("bench_work", "qsort", &both_shortcuts, oracle_size); }

/* The code-cache engine: the same trace as single-step, where it runs
   the program and where it falls back to the ptrace engine (threads,
   JIT, fork children).  */
static const struct emu_config cache_engine = { .engine = emu_engine_cache };

Test(oracle_cache, recursion) { oracle_run("recursion", "10", &cache_engine, oracle_size); }
Test(oracle_cache, loops) { oracle_run("loops", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, indirect) { oracle_run("indirect", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, libcalls) { oracle_run("libcalls", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, signals) { oracle_run("signals", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, longjmp) { oracle_run("longjmp", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, throw) { oracle_run("throw", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, threads) { oracle_run("threads", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, forks) { oracle_run("forks", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, syscalls) { oracle_run("syscalls", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, jit) { oracle_run("jit", NULL, &cache_engine, oracle_size); }
Test(oracle_cache, bench_work) { oracle_run("bench_work", "qsort", &cache_engine, oracle_size); }

/* A small ring wraps: what is left still decodes, from its oldest PSB,
   into a suffix of the single-step run.  */
Test(oracle, wrapped_ring)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_ips truth, pt;
	struct drv_trace trace;
	unsigned long npackets;
	unsigned gaps;
	size_t off;

	snprintf(prog, sizeof(prog), "%s/recursion", EMU_PROGDIR);
	drv_ips_init(&truth);
	drv_ips_init(&pt);
	cr_assert_eq(drv_start(&proc, prog, "16", "run"), 0);
	drv_truth(&proc, &truth);
	drv_finish(&proc);

	drv_trace_init(&trace);
	cr_assert_eq(drv_start(&proc, prog, "16", "run"), 0);
	/* PSB+ every 128 bytes, so that a 512-byte ring holds a few.  */
	cr_assert_eq(drv_emulate(&proc, &(struct emu_config) {
				.psb_period = 128 }, trace_format_pt, 512,
				 &trace), 0);
	cr_assert_gt(trace.status.wraps, 0, "the ring did not wrap");
	cr_expect_eq(drv_check_packets(&trace.pt, &npackets), 0);
	drv_decode_pt(&proc, &trace.pt, &pt, &gaps);
	drv_finish(&proc);
	cr_expect_eq(gaps, 0);
	cr_assert_gt(pt.count, 100);
	cr_assert_lt(pt.count, truth.count);
	off = truth.count - pt.count;
	for (size_t i = 0; i < pt.count; i++)
		cr_assert_eq(pt.ips[i], truth.ips[off + i],
			     "wrapped trace differs at %zu", i);
	drv_trace_fini(&trace);
	drv_ips_fini(&truth);
	drv_ips_fini(&pt);
}

/* A timer signal lands somewhere different in every run, and the vDSO's
   clock_gettime retries at random: check the trace on its own.  It
   decodes without errors from the function's entry, the handler runs in
   it as often as the program counted, and the BTS blocks chain.  */
Test(oracle, timer_consistent)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_ips pt, bts;
	struct drv_trace trace;
	unsigned long npackets;
	uint64_t handler;
	unsigned gaps, entries = 0;

	snprintf(prog, sizeof(prog), "%s/timer", EMU_PROGDIR);
	drv_ips_init(&pt);
	drv_ips_init(&bts);
	drv_trace_init(&trace);
	cr_assert_eq(drv_start(&proc, prog, NULL, "run"), 0);
	handler = drv_symbol(proc.pid, prog, "on_alarm");
	cr_assert_neq(handler, 0);
	cr_assert_eq(drv_emulate(&proc, NULL, trace_format_pt, oracle_size,
				 &trace), 0);
	cr_expect_eq(drv_check_packets(&trace.pt, &npackets), 0);
	drv_decode_pt(&proc, &trace.pt, &pt, &gaps);
	drv_finish(&proc);
	cr_expect_eq(gaps, 0);
	cr_assert_gt(pt.count, 100);
	cr_expect_eq(pt.ips[0], proc.entry);
	for (size_t i = 0; i < pt.count; i++)
		entries += pt.ips[i] == handler;
	cr_expect_geq(entries, 3, "handler entered %u times", entries);
	drv_trace_fini(&trace);

	drv_trace_init(&trace);
	cr_assert_eq(drv_start(&proc, prog, NULL, "run"), 0);
	cr_assert_eq(drv_emulate(&proc, NULL, trace_format_bts, oracle_size,
				 &trace), 0);
	cr_expect_gt(drv_expand_bts(&proc, trace.blocks, trace.nblocks, &bts),
		     100);
	drv_finish(&proc);
	cr_expect_eq(bts.ips[0], proc.entry);
	entries = 0;
	for (size_t i = 0; i < bts.count; i++)
		entries += bts.ips[i] == handler;
	cr_expect_geq(entries, 3, "BTS: handler entered %u times", entries);
	drv_trace_fini(&trace);
	drv_ips_fini(&pt);
	drv_ips_fini(&bts);
}
