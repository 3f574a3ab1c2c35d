/* The code-cache engine's state and mappings (nat/emu/cc.c) on a real
   process: the code chunk and the branch log are mapped, named, while
   it records and removed when tracing goes off; blocks are translated
   on demand and forgotten when GDB's breakpoints change.  */
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
#include <time.h>
#include <unistd.h>

#ifndef EMU_PROGDIR
#error "EMU_PROGDIR must name the built corpus"
#endif

/* A breakpoint's stop: the cache's two mappings are there and named,
   blocks were translated into them; a second breakpoint flushes the
   translations at the next entry; tracing off removes both mappings.  */
Test(cc, mappings_and_translations)
{
	char prog[512];
	struct drv_proc proc;
	struct user_regs_struct regs;
	struct emu_status st;
	struct emu *emu;
	uint64_t signs, ret_addr, blocks;
	int status;

	snprintf(prog, sizeof(prog), "%s/loops", EMU_PROGDIR);
	cr_assert_eq(drv_start(&proc, prog, NULL, "run"), 0);
	signs = drv_symbol(proc.pid, prog, "signs");
	cr_assert_neq(signs, 0);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem,
			       &cache_engine), 0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 1u << 20), 0);
	cr_expect_eq(cc_fx_maps_count(proc.pid, CC_MAP_NAME("")), 0,
		     "mappings before the cache ran");

	cr_assert_eq(int3_insert(&proc.sites, &proc.mem, signs,
				 int3_owner_gdb), 0);
	status = cc_fx_run_to_report(emu, proc.pid, 0);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	cr_expect_geq(cc_fx_maps_count(proc.pid, CC_MAP_NAME("code cache")), 1);
	cr_expect_geq(cc_fx_maps_count(proc.pid, CC_MAP_NAME("branch log")), 1);
	cr_assert_eq(emu_status(emu, proc.pid, &st), 0);
	cr_expect_null(st.cc.fallback, "fell back: %s", st.cc.fallback);
	cr_expect_geq(st.cc.entries, 1);
	cr_expect_gt(st.cc.blocks, 0);
	cr_expect_geq(st.cc.bytes, st.cc.blocks,
		      "%llu bytes for %llu blocks",
		      (unsigned long long) st.cc.bytes,
		      (unsigned long long) st.cc.blocks);
	cr_expect_eq(st.cc.flushes, 0);
	blocks = st.cc.blocks;

	/* A breakpoint where signs returns to: the translations go.  */
	cr_assert_eq(ptrace(PTRACE_GETREGS, proc.pid, 0, &regs), 0);
	regs.rip -= 1;
	cr_assert_eq(ptrace(PTRACE_SETREGS, proc.pid, 0, &regs), 0);
	cr_assert_eq(nat_mem_read(&proc.mem, regs.rsp, &ret_addr, 8), 8);
	cr_assert_eq(int3_remove(&proc.sites, &proc.mem, signs,
				 int3_owner_gdb), 0);
	cr_assert_eq(int3_insert(&proc.sites, &proc.mem, ret_addr,
				 int3_owner_gdb), 0);
	status = cc_fx_run_to_report(emu, proc.pid, 0);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	cr_assert_eq(emu_status(emu, proc.pid, &st), 0);
	cr_expect_geq(st.cc.flushes, 1, "no flush after a new breakpoint");
	cr_expect_geq(st.cc.blocks, blocks);

	/* Tracing off: the mappings go.  */
	cr_assert_eq(emu_disable(emu, proc.pid), 0);
	cr_expect_eq(cc_fx_maps_count(proc.pid, CC_MAP_NAME("")), 0);
	emu_free(emu);
	drv_finish(&proc);
}

/* Every thread of a threaded run of workers (ARG) records in the cache,
   each with its own data mapping: each thread ran instructions there,
   with no fallback, and each thread's path through the program's own
   code equals the ptrace engine's for the same thread.  */
static void threads_vs_ptrace(const char *arg)
{
	static const struct emu_config ptrace_engine = {
		.engine = emu_engine_ptrace,
	};
	struct drv_ips want[cc_fx_max_threads];
	char prog[512];
	struct cc_fx_run run;
	size_t nref;
	int logs;

	snprintf(prog, sizeof(prog), "%s/workers", EMU_PROGDIR);
	/* The reference first, and gone before the other run: the driver
	   reaps every child.  */
	cc_fx_record(&run, prog, arg, &ptrace_engine);
	nref = run.ntids;
	for (size_t i = 0; i < nref; i++) {
		unsigned gaps;

		drv_ips_init(&want[i]);
		cc_fx_own_ips(&run, i, &want[i], &gaps);
		cr_expect_eq(gaps, 0, "reference thread %zu: %u gaps", i,
			     gaps);
		cr_expect_gt(want[i].count, i ? 100000 : 10,
			     "thread %zu: %zu", i, want[i].count);
	}
	cc_fx_finish(&run);

	cc_fx_record(&run, prog, arg, &cache_engine);
	cr_assert_eq(run.ntids, 5, "%zu threads", run.ntids);
	cr_assert_eq(nref, run.ntids);
	/* A branch log per thread at a time (two lines each: the log
	   and its guard page), an ended worker's taken by a later one: the
	   main thread's and at least one worker's, at most all five.  */
	logs = cc_fx_maps_count(run.proc.pid, "ptstub branch log");
	cr_expect(logs >= 4 && logs <= 10, "%d lines of branch logs", logs);
	for (size_t i = 0; i < run.ntids; i++) {
		struct drv_ips got;
		unsigned gaps;
		long at;

		drv_ips_init(&got);
		cc_fx_own_ips(&run, i, &got, &gaps);
		cr_expect_null(run.st[i].cc.fallback, "thread %zu: %s", i,
			       run.st[i].cc.fallback);
		cr_expect_gt(run.st[i].cc.entries, 0, "thread %zu", i);
		/* The workers run work() in the cache: 1,500 loops.  */
		if (i)
			cr_expect_gt(run.st[i].cc.insns, 100000,
				     "thread %zu: %llu in the cache", i,
				     (unsigned long long) run.st[i].cc.insns);
		cr_expect_eq(gaps, 0, "thread %zu: %u gaps", i, gaps);
		at = drv_first_diff(&want[i], &got);
		cr_expect_eq(at, -1, "thread %zu differs at %ld of %zu/%zu",
			     i, at, want[i].count, got.count);
		drv_ips_fini(&got);
		drv_ips_fini(&want[i]);
	}
	cc_fx_finish(&run);
}

/* Four workers, each in the cache.  */
Test(cc, threads_each_in_the_cache)
{
	threads_vs_ptrace("4");
}

/* The page the workers run is mprotected 50 times under them: the
   translations must go each time, and go once no thread runs them (the
   workers leave at their next exit, and none enters meanwhile).  A
   worker may then run under the ptrace engine, which loses track where
   its traps are taken out under it (honest gaps, as with the ptrace
   engine alone): each piece of a worker's trace between gaps is found
   whole, in order, in the same worker's trace of a run without the
   mprotects, and the pieces cover most of it.  */
Test(cc, translations_dropped_under_running_threads)
{
	static const struct emu_config ptrace_engine = {
		.engine = emu_engine_ptrace,
	};
	struct drv_ips want[cc_fx_max_threads];
	char prog[512];
	struct cc_fx_run run;
	size_t nref;

	snprintf(prog, sizeof(prog), "%s/workers", EMU_PROGDIR);
	cc_fx_record(&run, prog, "4", &ptrace_engine);
	nref = run.ntids;
	for (size_t i = 0; i < nref; i++) {
		unsigned gaps;

		drv_ips_init(&want[i]);
		cc_fx_own_ips(&run, i, &want[i], &gaps);
		cr_assert_eq(gaps, 0, "reference thread %zu: %u gaps", i, gaps);
	}
	cc_fx_finish(&run);

	cc_fx_record(&run, prog, "-4", &cache_engine);
	cr_assert_eq(run.ntids, nref, "%zu threads", run.ntids);
	cr_expect_geq(run.st[0].cc.flushes, 1, "no flush");
	for (size_t i = 1; i < run.ntids; i++) {
		struct drv_ips got;
		unsigned gaps;
		size_t covered;

		drv_ips_init(&got);
		cc_fx_own_ips(&run, i, &got, &gaps);
		cr_expect_null(run.st[i].cc.fallback, "thread %zu: %s", i,
			       run.st[i].cc.fallback);
		cr_expect_gt(run.st[i].cc.insns, 10000, "thread %zu", i);
		cr_expect(cc_fx_pieces_in(&want[i], &got, &covered),
			  "thread %zu: a piece of its trace (%u gaps) is not "
			  "in the reference", i, gaps);
		cr_expect_gt(covered * 2, want[i].count,
			     "thread %zu: %zu of %zu", i, covered,
			     want[i].count);
		drv_ips_fini(&got);
	}
	for (size_t i = 0; i < nref; i++)
		drv_ips_fini(&want[i]);
	cc_fx_finish(&run);
}

/* A breakpoint inserted while the thread runs translated code (as GDB
   inserts one in non-stop while other threads run) stops it there: the
   loop of collide is linked whole and looks its returns up in process,
   so without cc_on_site the thread would never leave the cache to meet
   the original int3.  The stop is reported as that int3's.  */
Test(cc, breakpoint_while_running)
{
	char prog[512];
	struct drv_proc proc;
	struct user_regs_struct regs;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	struct timespec t0;
	uint64_t leaf;
	int status = 0;
	bool inserted = false, reported = false;

	snprintf(prog, sizeof(prog), "%s/collide", EMU_PROGDIR);
	cr_assert_eq(drv_start(&proc, prog, "2000000000", "main"), 0);
	leaf = drv_symbol(proc.pid, prog, "leaf");
	cr_assert_neq(leaf, 0);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem,
			       &cache_engine), 0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 1u << 20), 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	ptrace(emu_ptrace_request(how), proc.pid, 0, 0);
	/* 300 ms to warm up (stops handled meanwhile), then the
	   breakpoint, then 5 s for its stop: by the clock, as a sanitized
	   tracer takes many times longer over each stop.  */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t got = waitpid(proc.pid, &status, __WALL | WNOHANG);
		struct timespec now;
		double ms;

		cr_assert_geq(got, 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (now.tv_sec - t0.tv_sec) * 1e3 +
			(now.tv_nsec - t0.tv_nsec) / 1e6;
		if (!got) {
			if (!inserted && ms >= 300) {
				cr_assert_eq(int3_insert(&proc.sites, &proc.mem,
							 leaf, int3_owner_gdb),
					     0);
				emu_on_breakpoint(emu, leaf);
				inserted = true;
				t0 = now;
			} else if (inserted && ms >= 5000) {
				break;
			}
			usleep(10000);
			continue;
		}
		cr_assert(WIFSTOPPED(status), "status %#x", status);
		cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict,
					 &how), 0);
		if (verdict == emu_report) {
			reported = true;
			break;
		}
		ptrace(emu_ptrace_request(how), proc.pid, 0, 0);
	}
	cr_assert(inserted, "the program stopped before the breakpoint");
	cr_assert(reported, "no stop at the breakpoint in 5 s");
	cr_expect_eq(WSTOPSIG(status), SIGTRAP);
	cr_assert_eq(ptrace(PTRACE_GETREGS, proc.pid, 0, &regs), 0);
	cr_expect_eq(regs.rip, leaf + 1, "stopped at %#llx, leaf at %#llx",
		     regs.rip, (unsigned long long) leaf);
	emu_free(emu);
	drv_finish(&proc);
}
