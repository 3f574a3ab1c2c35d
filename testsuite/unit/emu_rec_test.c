/* The branch recorder: the packets (decoded by libipt) and BTS blocks
   each recording primitive produces, and that nothing is recorded while
   the thread is off or untraced.  */
#include "nat/emu/emu_rec.h"
#include "nat/emu/emu.h"
#include "common/ps_buf.h"

#include <criterion/criterion.h>
#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

/* The packets of TH's trace but its TSC packets (their number hangs on
   the clock), and the TSC values in TSCS (up to MAX, *NTSC of them).  */
static int packet_types_tsc(struct emu_thread *th, enum pt_packet_type *types,
			    int max, uint64_t *tscs, int *ntsc)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct ps_buf out;
	struct pt_packet packet;
	int n = 0;

	emu_pt_flush(&th->pt);
	ps_buf_init(&out);
	cr_assert_eq(emu_ring_read_all(&th->ring, &out), 0);
	pt_config_init(&config);
	config.begin = (uint8_t *) out.data;
	config.end = (uint8_t *) out.data + out.len;
	dec = pt_pkt_alloc_decoder(&config);
	cr_assert_geq(pt_pkt_sync_forward(dec), 0);
	*ntsc = 0;
	while (n < max && pt_pkt_next(dec, &packet, sizeof(packet)) >= 0) {
		if (packet.type != ppt_tsc) {
			types[n++] = packet.type;
			continue;
		}
		if (*ntsc < max)
			tscs[(*ntsc)++] = packet.payload.tsc.tsc;
	}
	pt_pkt_free_decoder(dec);
	ps_buf_fini(&out);
	return n;
}

static int packet_types(struct emu_thread *th, enum pt_packet_type *types,
			int max)
{
	uint64_t tscs[64];
	int ntsc;

	return packet_types_tsc(th, types, max < 64 ? max : 64, tscs, &ntsc);
}

Test(emu_rec, pt_segment)
{
	struct emu_thread th;
	enum pt_packet_type t[32];
	int n;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_pt, 4096, 0,
					   false), 0);
	th.traced = true;
	emu_rec_cond(&th, 0x1000, true, 0x1100);     /* off: nothing */
	emu_rec_resume(&th, 0x1000);
	cr_expect(th.on);
	emu_rec_cond(&th, 0x1004, true, 0x1100);
	emu_rec_indirect(&th, 0x1104, 0x2000, 0x1106, true);
	emu_rec_ret(&th, 0x2010, 0x1106);            /* compressed */
	emu_rec_far_kernel(&th, 0x1200, 0x1202);     /* syscall */
	emu_rec_interrupt(&th, 0x1300, 0x1290);
	cr_expect(!th.on);
	n = packet_types(&th, t, 32);
	enum pt_packet_type want[] = {
		ppt_psb, ppt_mode, ppt_psbend, ppt_mode, ppt_tip_pge,
		ppt_tnt_8, ppt_tip, ppt_tnt_8, ppt_tip_pgd, ppt_mode,
		ppt_tip_pge, ppt_fup, ppt_tip_pgd,
	};
	cr_assert_eq(n, (int) (sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < n; i++)
		cr_expect_eq(t[i], want[i], "packet %d", i);
	cr_expect_eq(th.last_exec, 0x1200);
	emu_thread_trace_fini(&th);
}

Test(emu_rec, bts_blocks)
{
	struct emu_thread th;
	struct trace_blocks blocks;
	struct trace_block *b;
	struct emu_edge edge = { 0x1010, 0x3000, 5, true };
	long n;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_bts, 24 * 16, 0,
					   false),
		     0);
	th.traced = true;
	emu_rec_resume(&th, 0x1000);
	emu_rec_cond(&th, 0x1004, false, 0x2000);    /* not taken */
	emu_rec_edge(&th, &edge);
	emu_rec_ret(&th, 0x3020, 0x1015);
	emu_rec_interrupt(&th, 0x1020, 0x101c);
	emu_rec_resume(&th, 0x5000);
	emu_rec_interrupt(&th, 0x5000, 0x4ffc);      /* at its start */
	trace_blocks_init(&blocks);
	cr_assert_eq(emu_bts_read(&th.bts, emu_bts_read_all, false, &blocks), 0);
	n = (long) blocks.len;
	b = blocks.block;
	cr_assert_eq(n, 3);
	cr_expect_eq(b[0].begin, 0x1000);
	cr_expect_eq(b[0].end, 0x1010);
	cr_expect_eq(b[1].begin, 0x3000);
	cr_expect_eq(b[1].end, 0x3020);
	cr_expect_eq(b[2].begin, 0x1015);
	cr_expect_eq(b[2].end, 0x101c);
	/* GDB's view adds the block the thread stopped in, up to its pc.  */
	trace_blocks_reset(&blocks);
	cr_assert_eq(emu_bts_read(&th.bts, emu_bts_read_all, true, &blocks), 0);
	n = (long) blocks.len;
	b = blocks.block;
	cr_assert_eq(n, 4);
	cr_expect_eq(b[3].begin, 0x5000);
	cr_expect_eq(b[3].end, 0x5000);
	trace_blocks_fini(&blocks);
	emu_thread_trace_fini(&th);
}

/* TH traced in FORMAT into SIZE bytes, on from 0x1000.  */
static void trace_on(struct emu_thread *th, uint8_t format, size_t size)
{
	memset(th, 0, sizeof(*th));
	cr_assert_eq(emu_thread_trace_init(th, format, size, 0, false), 0);
	th->traced = true;
	emu_rec_resume(th, 0x1000);
}

Test(emu_rec, gap_then_resume)
{
	struct emu_thread th;
	enum pt_packet_type t[16];
	int n;

	trace_on(&th, trace_format_pt, 4096);
	emu_rec_gap(&th, 0x4000);
	cr_expect(th.on);
	cr_expect_eq(th.gaps, 1);
	n = packet_types(&th, t, 16);
	cr_assert_eq(n, 7);
	cr_expect_eq(t[5], ppt_ovf);
	cr_expect_eq(t[6], ppt_fup);
	emu_thread_trace_fini(&th);
}

/* A chain of two walks: the first walk's instructions and its followed
   return count, the last walk's stop does not (it has not run yet).  */
Test(emu_rec, chain_counts_instructions)
{
	struct emu_thread th;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_pt, 4096, 0,
					   false), 0);
	th.traced = true;
	emu_rec_resume(&th, 0x1000);
	th.nchain = 2;
	th.chain[0].walk = (struct emu_walk) {
		.start = 0x1000, .stop = 0x1010, .ninsns = 5, .last = 0x100c,
		.insn = { .ip = 0x1010, .len = 1, .iclass = emu_ic_ret },
	};
	th.chain[0].ret_target = 0x2000;
	th.chain[1].walk = (struct emu_walk) {
		.start = 0x2000, .stop = 0x2008, .ninsns = 3, .last = 0x2004,
	};
	emu_rec_chain(&th, 2);
	cr_expect_eq(th.insns, 5 + 1 + 3);
	cr_expect_eq(th.followed, 1);
	cr_expect_eq(th.last_exec, 0x2004);
	emu_thread_trace_fini(&th);
}

/* A syscall that closed the trace and is run again (a stop inside it,
   the kernel restarting it) returns once: tracing resumes where it
   returns, with no TIP.PGE at the syscall, which libipt would read as
   a gap after it (issue 13).  A thread off since before the syscall
   stays off.  */
Test(emu_rec, restarted_syscall_resumes_after_it)
{
	struct emu_thread th;
	enum pt_packet_type t[16];
	int n;

	trace_on(&th, trace_format_pt, 4096);
	emu_rec_far_kernel(&th, 0x1200, 0);          /* stopped inside */
	cr_expect(!th.on);
	cr_expect_eq(th.in_syscall, 0x1200);
	emu_rec_far_kernel(&th, 0x1200, 0);          /* again: nothing */
	emu_rec_far_kernel(&th, 0x1200, 0x1202);     /* the restart returns */
	cr_expect(th.on);
	cr_expect_eq(th.in_syscall, 0);
	n = packet_types(&th, t, 16);
	enum pt_packet_type want[] = {
		ppt_psb, ppt_mode, ppt_psbend, ppt_mode, ppt_tip_pge,
		ppt_tip_pgd, ppt_mode, ppt_tip_pge,
	};
	cr_assert_eq(n, (int) (sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < n; i++)
		cr_expect_eq(t[i], want[i], "packet %d", i);

	emu_rec_interrupt(&th, 0x1300, 0x12fc);
	emu_rec_far_kernel(&th, 0x1400, 0x1402);     /* off before it */
	cr_expect(!th.on);
	cr_expect_eq(packet_types(&th, t, 16), n + 2);
	emu_thread_trace_fini(&th);
}

/* The time: a TSC in the first PSB+, one where the thread leaves for
   the kernel and one where it comes back, never going back, the time
   spent away in between; one at a stop only past the period.  */
Test(emu_rec, tsc_at_start_kernel_and_period)
{
	struct emu_thread th;
	enum pt_packet_type t[16];
	uint64_t tscs[16], t0;
	int n, ntsc;

	memset(&th, 0, sizeof(th));
	cr_assert_eq(emu_thread_trace_init(&th, trace_format_pt, 4096, 0,
					   false), 0);
	th.traced = true;
	emu_rec_resume(&th, 0x1000);
	emu_rec_far_kernel(&th, 0x1200, 0);          /* the syscall */
	t0 = emu_pt_now();
	while (emu_pt_now() - t0 < 4 * emu_tsc_period)
		;                                    /* it sleeps */
	emu_rec_far_kernel(&th, 0x1200, 0x1202);     /* it returns */
	emu_rec_time(&th, false);                    /* a stop right after */
	n = packet_types_tsc(&th, t, 16, tscs, &ntsc);
	cr_expect_eq(n, 8);
	cr_assert_eq(ntsc, 4, "TSCs: start, resume, syscall, return");
	for (int i = 1; i < ntsc; i++)
		cr_expect_geq(tscs[i], tscs[i - 1]);
	cr_expect_geq(tscs[3] - tscs[2], 4 * emu_tsc_period);
	t0 = emu_pt_now();
	while (emu_pt_now() - t0 < 2 * emu_tsc_period)
		;
	emu_rec_time(&th, false);                    /* past the period */
	packet_types_tsc(&th, t, 16, tscs, &ntsc);
	cr_expect_eq(ntsc, 5);
	emu_thread_trace_fini(&th);
}

Test(emu_rec, restarted_syscall_bts)
{
	struct emu_thread th;
	struct trace_blocks blocks;

	trace_on(&th, trace_format_bts, 24 * 16);
	emu_rec_far_kernel(&th, 0x1010, 0);
	emu_rec_far_kernel(&th, 0x1010, 0x1012);
	emu_rec_interrupt(&th, 0x1020, 0x101c);
	trace_blocks_init(&blocks);
	cr_assert_eq(emu_bts_read(&th.bts, emu_bts_read_all, false, &blocks), 0);
	cr_assert_eq(blocks.len, 2);
	cr_expect_eq(blocks.block[0].begin, 0x1000);
	cr_expect_eq(blocks.block[0].end, 0x1010);
	cr_expect_eq(blocks.block[1].begin, 0x1012);
	cr_expect_eq(blocks.block[1].end, 0x101c);
	trace_blocks_fini(&blocks);
	emu_thread_trace_fini(&th);
}
