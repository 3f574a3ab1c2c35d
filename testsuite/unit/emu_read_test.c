#define _GNU_SOURCE
/* Reading traces through the engine: all and new, the wrong format,
   status figures, CPU pinning.  */
#include "testsuite/emu/emu_driver.h"
#include "testsuite/emu/emu_test_main.h"
#include "nat/emu/emu.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

Test(read, pt_all_new_and_status)
{
	char prog[512];
	struct drv_proc proc;
	struct emu *emu;
	struct emu_status st;
	struct trace_blocks blocks = { 0 };
	struct ps_buf all, fresh;
	enum emu_resume how;

	snprintf(prog, sizeof(prog), "%s/recursion", EMU_PROGDIR);
	cr_assert_eq(drv_start(&proc, prog, "6", "run"), 0);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem, NULL),
		     0);
	cr_expect_eq(emu_status(emu, proc.pid, &st), -pse_notfound);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 4096), 0);
	cr_expect_eq(emu_read_bts(emu, proc.pid, emu_bts_read_all, true,
				  &blocks),
		     -pse_notfound, "a PT thread has no BTS");
	ps_buf_init(&all);
	ps_buf_init(&fresh);
	cr_assert_eq(emu_read_pt(emu, proc.pid, false, &all), 0);
	cr_expect_eq(all.len, 28, "PSB, TSC, MODE.Exec, PSBEND");
	cr_expect_eq((uint8_t) all.data[16], 0x19, "TSC opcode after the PSB");
	cr_assert_eq(emu_read_pt(emu, proc.pid, true, &fresh), 0);
	cr_expect_eq(fresh.len, 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	cr_assert_eq(emu_read_pt(emu, proc.pid, true, &fresh), 0);
	cr_expect_gt(fresh.len, 0, "TIP.PGE is new");
	cr_assert_eq(emu_status(emu, proc.pid, &st), 0);
	cr_expect_eq(st.bytes_recorded, all.len + fresh.len);
	cr_expect_eq(st.bytes_held, st.bytes_recorded);
	cr_expect_eq(st.wraps, 0);
	ps_buf_fini(&all);
	ps_buf_fini(&fresh);
	emu_free(emu);
	drv_finish(&proc);
}

Test(read, pinning)
{
	cpu_set_t set;
	int cpu = emu_pin_cpu(0);

	cr_assert_geq(cpu, 0);
	cr_assert_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	cr_expect_eq(CPU_COUNT(&set), 1);
	cr_expect(CPU_ISSET(cpu, &set));
}

/* A BTS ring of four blocks, run through far more: it holds the newest
   four and says how often it wrapped.  */
Test(read, bts_status_after_wraps)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_trace trace;

	snprintf(prog, sizeof(prog), "%s/recursion", EMU_PROGDIR);
	cr_assert_eq(drv_start(&proc, prog, "6", "run"), 0);
	drv_trace_init(&trace);
	cr_assert_eq(drv_emulate(&proc, NULL, trace_format_bts, 4 * 24, &trace),
		     0);
	cr_assert_gt(trace.status.blocks, 8);
	cr_expect_eq(trace.status.blocks_held, 4);
	cr_expect_eq(trace.status.wraps, (trace.status.blocks - 1) / 4);
	cr_expect_eq(trace.nblocks, 4, "the newest four, none open");
	drv_trace_fini(&trace);
	drv_finish(&proc);
}
