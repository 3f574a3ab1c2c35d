/* A thread's trace buffers: started in the format asked, a PT one with
   its first PSB+ already written, and ended.  */
#include "nat/emu/emu_thread.h"
#include "nat/emu/emu.h"
#include "common/ps_buf.h"

#include <criterion/criterion.h>
#include <string.h>

Test(thread, pt_trace_starts_with_a_psb)
{
	struct emu_thread th;
	struct ps_buf out;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_pt, 4096, 0,
					   false), 0);
	cr_expect_eq(th.format, trace_format_pt);
	emu_pt_flush(&th.pt);
	ps_buf_init(&out);
	cr_assert_eq(emu_ring_read_all(&th.ring, &out), 0);
	cr_assert_geq(out.len, 16);
	/* The PSB packet: 02 82 repeated eight times.  */
	cr_expect_eq((uint8_t) out.data[0], 0x02);
	cr_expect_eq((uint8_t) out.data[1], 0x82);
	ps_buf_fini(&out);
	emu_thread_trace_fini(&th);
}

/* LLDB's traces (no enableTsc): PSB, MODE.Exec, PSBEND without the TSC,
   and a TSC asked for later writes nothing.  */
Test(thread, untimed_pt_trace_has_no_tsc)
{
	struct emu_thread th;
	struct ps_buf out;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_pt, 4096, 0, true),
		     0);
	cr_assert_eq(emu_pt_tsc(&th.pt, emu_pt_now()), 0);
	emu_pt_flush(&th.pt);
	ps_buf_init(&out);
	cr_assert_eq(emu_ring_read_all(&th.ring, &out), 0);
	cr_expect_eq(out.len, 20, "PSB, MODE.Exec, PSBEND: %zu bytes",
		     out.len);
	cr_expect_eq(th.pt.tsc, 0);
	ps_buf_fini(&out);
	emu_thread_trace_fini(&th);
}

Test(thread, timed_pt_trace_starts_with_a_tsc)
{
	struct emu_thread th;
	struct ps_buf out;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_pt, 4096, 0,
					   false), 0);
	emu_pt_flush(&th.pt);
	ps_buf_init(&out);
	cr_assert_eq(emu_ring_read_all(&th.ring, &out), 0);
	cr_assert_eq(out.len, 28, "PSB, TSC, MODE.Exec, PSBEND");
	cr_expect_eq((uint8_t) out.data[16], 0x19, "the TSC opcode");
	cr_expect_neq(th.pt.tsc, 0);
	ps_buf_fini(&out);
	emu_thread_trace_fini(&th);
}

Test(thread, bts_trace_starts_empty)
{
	struct emu_thread th;
	struct trace_blocks blocks;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_bts, 24 * 16, 0,
					   false),
		     0);
	cr_expect_eq(th.format, trace_format_bts);
	trace_blocks_init(&blocks);
	cr_assert_eq(emu_bts_read(&th.bts, emu_bts_read_all, false, &blocks), 0);
	cr_expect_eq(blocks.len, 0);
	trace_blocks_fini(&blocks);
	emu_thread_trace_fini(&th);
}
