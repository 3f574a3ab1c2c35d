/* Linking and translation ahead (nat/emu/cc_link.c) on a real process:
   a stop that translates also translates what the block reaches, so a
   run stops for far fewer new blocks than it translates; two hot
   return sites that share their table index in the first way are both
   found (the second way), so a loop through them stops nowhere once
   warm; and the run's path is the ptrace engine's.  */
#include "testsuite/unit/cc_fixture.h"
#include "testsuite/emu/emu_driver.h"
#include "testsuite/emu/emu_test_main.h"

#include "common/ps_buf.h"

#include <criterion/criterion.h>
#include <stdio.h>

#ifndef EMU_PROGDIR
#error "EMU_PROGDIR must name the built corpus"
#endif

/* collide N run to done() under ENGINE: its status, its trace's IPs.  */
static void run_collide(const struct emu_config *engine, int n,
			struct emu_status *st, struct drv_ips *ips)
{
	char prog[512], arg[16];
	struct drv_proc proc;
	struct ps_buf pt;
	struct emu *emu;
	unsigned gaps;
	uint64_t done;
	int status;

	snprintf(prog, sizeof(prog), "%s/collide", EMU_PROGDIR);
	snprintf(arg, sizeof(arg), "%d", n);
	cr_assert_eq(drv_start(&proc, prog, arg, "main"), 0);
	done = drv_symbol(proc.pid, prog, "done");
	cr_assert_neq(done, 0);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem,
			       engine), 0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 4u << 20), 0);
	cr_assert_eq(int3_insert(&proc.sites, &proc.mem, done,
				 int3_owner_gdb), 0);
	status = cc_fx_run_to_report(emu, proc.pid, 0);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	cr_assert_eq(emu_status(emu, proc.pid, st), 0);
	ps_buf_init(&pt);
	cr_assert_eq(emu_read_pt(emu, proc.pid, false, &pt), 0);
	drv_ips_init(ips);
	cr_expect_gt(drv_decode_pt(&proc, &pt, ips, &gaps), 6 * n);
	cr_expect_eq(gaps, 0);
	ps_buf_fini(&pt);
	emu_free(emu);
	drv_finish(&proc);
}

Test(cc_link, ahead_and_two_ways)
{
	static const struct emu_config ptrace_engine = {
		.engine = emu_engine_ptrace,
	};
	struct emu_status st, few;
	struct drv_ips got, want;

	run_collide(&cache_engine, 20, &few, &got);
	drv_ips_fini(&got);
	run_collide(&cache_engine, 3000, &st, &got);
	cr_expect_null(st.cc.fallback, "fell back: %s", st.cc.fallback);
	/* 6,000 returns into f and g: a table with one way would trap for
	   each of them.  Warm, more rounds add no trap.  */
	cr_expect_leq(st.cc.misses, few.cc.misses + 2,
		      "%llu misses in 3000 rounds, %llu in 20",
		      (unsigned long long) st.cc.misses,
		      (unsigned long long) few.cc.misses);
	cr_expect_leq(st.cc.traps, few.cc.traps + 2);
	/* Most blocks were translated ahead of the thread, not at its
	   stops.  */
	cr_expect_lt(st.cc.links * 2, st.cc.blocks,
		     "%llu exits to new blocks for %llu blocks",
		     (unsigned long long) st.cc.links,
		     (unsigned long long) st.cc.blocks);

	run_collide(&ptrace_engine, 3000, &st, &want);
	cr_expect_eq(drv_first_diff(&want, &got), -1,
		     "the cache's path leaves the ptrace engine's at %ld",
		     drv_first_diff(&want, &got));
	drv_ips_fini(&got);
	drv_ips_fini(&want);
}
