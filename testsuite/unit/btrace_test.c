#include "testsuite/unit/nat_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include "common/ps_buf.h"
#include "nat/btrace.h"

#include <signal.h>

TestSuite(btrace, .init = nat_fixture_setup, .fini = nat_fixture_teardown);

/* Run the program to its exit: the emulator records all the way.  */
static struct nat_thread *start_traced(enum trace_format format)
{
	pid_t pid = nat_fixture_start("marker", NULL);
	struct nat_thread *thread = nat_find_thread(&target, pid, pid);
	char reason[256] = "";

	cr_assert_not_null(thread);
	target.btrace_policy = nat_btrace_emulated;
	cr_assert_eq(nat_btrace_enable(&target, thread, format, 1 << 16,
				       reason, sizeof(reason)), 0, "%s", reason);
	return thread;
}

/* Stop the traced thread at marker, so its trace can be read.  */
static void run_to_marker(struct nat_thread *thread)
{
	uint64_t marker = elfsym_addr(prog, "marker");
	struct nat_event ev;

	cr_assert_eq(nat_insert_breakpoint(thread->proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.reason, nat_stop_swbreak);
	cr_assert_eq(nat_fixture_pc(thread->tid), marker);
}

Test(btrace, emulated_pt_starts_with_a_psb)
{
	static const uint8_t psb[16] = {
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
		0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	};
	struct nat_thread *thread = start_traced(trace_format_pt);
	struct nat_btrace_status st;
	struct ps_buf raw;

	run_to_marker(thread);
	ps_buf_init(&raw);
	cr_assert_eq(nat_btrace_read_pt(thread, nat_btrace_read_all, &raw), 0);
	cr_assert_gt(raw.len, sizeof(psb));
	cr_assert_arr_eq(raw.data, psb, sizeof(psb));

	cr_assert_eq(nat_btrace_status(thread, &st), 0);
	cr_assert(st.emulated);
	cr_assert_eq(st.format, trace_format_pt);
	cr_assert_eq(st.held, raw.len);

	/* Nothing ran since: a "new" read is empty; delta is not for PT.  */
	ps_buf_reset(&raw);
	cr_assert_eq(nat_btrace_read_pt(thread, nat_btrace_read_new, &raw), 0);
	cr_assert_eq(nat_btrace_read_pt(thread, nat_btrace_read_new, &raw), 0);
	cr_assert_eq(raw.len, 0);
	cr_assert_eq(nat_btrace_read_pt(thread, nat_btrace_read_delta, &raw),
		     -pse_unsupported);
	ps_buf_fini(&raw);
}

Test(btrace, emulated_bts_blocks_end_at_the_stop)
{
	struct nat_thread *thread = start_traced(trace_format_bts);
	struct trace_blocks blocks;
	struct nat_btrace_status st;

	run_to_marker(thread);
	trace_blocks_init(&blocks);
	cr_assert_eq(nat_btrace_read_bts(thread, nat_btrace_read_all, &blocks), 0);
	cr_assert_gt(blocks.len, 0);
	for (size_t i = 0; i < blocks.len; i++)
		cr_assert_leq(blocks.block[i].begin, blocks.block[i].end);
	/* As GDB reads hardware BTS: the newest block ends at the pc.  */
	cr_expect_eq(blocks.block[blocks.len - 1].end,
		     elfsym_addr(prog, "marker"));
	/* The status counts closed blocks: all but that one.  */
	cr_assert_eq(nat_btrace_status(thread, &st), 0);
	cr_expect_eq(st.held + 1, blocks.len);
	cr_expect_eq(st.held, st.recorded < 65536 / 24 ? st.recorded
						       : 65536 / 24);
	cr_expect_eq(st.wraps, (st.recorded - 1) / (65536 / 24));
	trace_blocks_fini(&blocks);

	/* Nothing ran since: "new" is empty, "delta" has the block at the
	   pc alone, its begin for GDB to fill in.  */
	trace_blocks_init(&blocks);
	cr_assert_eq(nat_btrace_read_bts(thread, nat_btrace_read_new, &blocks), 0);
	cr_expect_eq(blocks.len, 0);
	cr_assert_eq(nat_btrace_read_bts(thread, nat_btrace_read_delta,
					 &blocks), 0);
	cr_assert_eq(blocks.len, 1);
	cr_expect_eq(blocks.block[0].begin, 0);
	cr_expect_eq(blocks.block[0].end, elfsym_addr(prog, "marker"));
	trace_blocks_fini(&blocks);

	/* The stub's own copy (monitor btrace save) has everything and
	   leaves the client's "new" and "delta" as they were.  */
	trace_blocks_init(&blocks);
	cr_assert_eq(nat_btrace_read_bts(thread, nat_btrace_read_copy,
					 &blocks), 0);
	cr_expect_eq(blocks.len, st.held + 1);
	cr_assert_eq(nat_btrace_read_bts(thread, nat_btrace_read_new, &blocks),
		     0);
	cr_expect_eq(blocks.len, st.held + 1, "nothing ran: new adds none");
	trace_blocks_fini(&blocks);
	cr_assert_eq(nat_btrace_read_pt(thread, nat_btrace_read_all, NULL),
		     -pse_notfound, "a BTS trace is no PT trace");
}

Test(btrace, enable_twice_and_disable)
{
	struct nat_thread *thread = start_traced(trace_format_pt);
	char reason[256] = "";

	cr_assert_eq(nat_btrace_enable(&target, thread, trace_format_bts,
				       4096, reason, sizeof(reason)), -pse_exists);
	cr_assert_str_eq(reason, "Btrace already enabled.");
	cr_assert_not_null(thread->proc->emu);
	cr_assert_eq(nat_btrace_disable(&target, thread), 0);
	cr_assert_null(thread->btrace);
	/* The last emulated thread gone, the engine goes too.  */
	cr_assert_null(thread->proc->emu);
	cr_assert_eq(nat_btrace_disable(&target, thread), -pse_notfound);
}

Test(btrace, hardware_only_fails_with_a_reason_here)
{
	pid_t pid = nat_fixture_start("exit", "0");
	struct nat_thread *thread = nat_find_thread(&target, pid, pid);
	char reason[256] = "";

	if (access("/sys/bus/event_source/devices/intel_pt", F_OK) == 0)
		cr_skip_test("SKIP: this machine has an intel_pt PMU");
	target.btrace_policy = nat_btrace_hardware;
	cr_assert_lt(nat_btrace_enable(&target, thread, trace_format_pt, 4096,
				       reason, sizeof(reason)), 0);
	cr_assert_neq(reason[0], '\0');
	cr_assert_null(thread->btrace);
	cr_assert_null(thread->proc->emu);
}

Test(btrace, buffer_sizes_round_as_gdbserver)
{
	cr_expect_eq(nat_btrace_buffer_size(1, 4096), 4096);
	cr_expect_eq(nat_btrace_buffer_size(0, 4096), 4096);
	cr_expect_eq(nat_btrace_buffer_size(1000, 4096), 4096);
	cr_expect_eq(nat_btrace_buffer_size(4096, 4096), 4096);
	cr_expect_eq(nat_btrace_buffer_size(4097, 4096), 8192);
	cr_expect_eq(nat_btrace_buffer_size(5000, 4096), 8192);
	cr_expect_eq(nat_btrace_buffer_size(3 * 4096, 4096), 4 * 4096);
	cr_expect_eq(nat_btrace_buffer_size(65536, 4096), 65536);
	cr_expect_eq(nat_btrace_buffer_size(0xffffffffu, 4096), 0x80000000u,
		     "4 GiB does not fit btrace-conf's 32 bits: halved");
	cr_expect_eq(nat_btrace_buffer_size(4096, 3000), 0);
}

Test(btrace, emulated_sizes_are_rounded)
{
	static const struct { enum trace_format format; size_t ask, got; }
	cases[] = {
		{ trace_format_pt, 1, 4096 },
		{ trace_format_pt, 5000, 8192 },
		{ trace_format_bts, 1000, 4096 },
	};
	pid_t pid = nat_fixture_start("exit", "0");
	struct nat_thread *thread = nat_find_thread(&target, pid, pid);
	struct nat_btrace_status st;
	char reason[256] = "";

	target.btrace_policy = nat_btrace_emulated;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert_eq(nat_btrace_enable(&target, thread, cases[i].format,
					       cases[i].ask, reason,
					       sizeof(reason)), 0, "%s", reason);
		cr_assert_eq(nat_btrace_status(thread, &st), 0);
		cr_expect_eq(st.size, cases[i].got, "asked %zu", cases[i].ask);
		cr_assert_eq(nat_btrace_disable(&target, thread), 0);
	}
}

/* A thread created by a thread whose trace follows clones is traced
   from its first instruction in the parent's format, in the code cache
   when the parent's is: stopped at marker, it has recorded the thread's
   start-up; the client's first enable of it keeps that trace, a second
   is refused as a thread already traced.  */
Test(btrace, clones_traced_from_their_first_instruction)
{
	pid_t pid = nat_fixture_start("threads", NULL);
	struct nat_thread *main_thread = nat_find_thread(&target, pid, pid);
	struct nat_thread *child;
	struct nat_btrace_status st;
	struct nat_event ev;
	char reason[256] = "";

	cr_assert_not_null(main_thread);
	target.btrace_policy = nat_btrace_emulated;
	target.btrace_engine = nat_btrace_engine_cache;
	cr_assert_eq(nat_btrace_enable(&target, main_thread, trace_format_pt,
				       1 << 16, reason, sizeof(reason)), 0,
		     "%s", reason);
	nat_btrace_follow_clones(main_thread);
	cr_assert_eq(nat_insert_breakpoint(main_thread->proc,
					   elfsym_addr(prog, "marker")), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.reason, nat_stop_swbreak);
	cr_assert_neq(ev.tid, pid, "main reached marker");
	child = nat_find_thread(&target, pid, ev.tid);
	cr_assert_not_null(child);
	cr_assert(nat_thread_traced(child));
	cr_assert_eq(nat_btrace_format(child), trace_format_pt);
	cr_assert_eq(nat_btrace_size(child), nat_btrace_size(main_thread));
	cr_assert_eq(nat_btrace_status(child, &st), 0);
	cr_assert(st.emulated);
	/* From clone's return through start_thread to marker.  */
	cr_expect_gt(st.insns + st.cc.insns, 20, "%llu + %llu instructions",
		     (unsigned long long) st.insns,
		     (unsigned long long) st.cc.insns);
	cr_expect_gt(st.cc.insns, 0, "not in the cache: %s",
		     st.cc.fallback ? st.cc.fallback : "no reason");
	cr_expect_null(st.cc.fallback);
	cr_expect_not(nat_btrace_claim(child, trace_format_bts));
	cr_expect(nat_btrace_claim(child, trace_format_pt));
	cr_expect_not(nat_btrace_claim(child, trace_format_pt));
	/* The main thread's trace was the client's own.  */
	cr_expect_not(nat_btrace_claim(main_thread, trace_format_pt));
}
