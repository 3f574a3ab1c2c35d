/* PT decoding with libipt's block decoder: events and errors become the
   gaps GDB makes, and damaged traces never crash.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_ftrace.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_pt_decode, corpus)

#include "testsuite/btrace/bt_corpus_expect.h"

Test(bt_pt_decode, overflow_is_a_gap_with_gdbs_code)
{
	struct built r;
	struct bt_function gap, last;
	size_t n;

	cr_assert_eq(bt_corpus_calls_with_overflow(&corpus), 0);
	r = build(&corpus.bundle);
	n = bt_ftrace_nfunctions(r.ft);
	cr_assert_geq(n, 3);
	/* main's first segment now continues after the gap.  */
	check_calls_links(&r, 4, 0);
	cr_assert_eq(fn(&r, 1).next, (uint32_t) n);
	gap = fn(&r, 5);
	cr_assert_eq(gap.errcode, btg_pt_overflow);
	last = fn(&r, (uint32_t) n);
	cr_assert_str_eq(last.sym, "main");
	cr_assert_eq(last.level + bt_ftrace_level(r.ft), 0);
	cr_assert_eq(bt_ftrace_ngaps(r.ft), 1);
	done(&r);
}

Test(bt_pt_decode, garbage_trace_never_crashes)
{
	struct built r;
	uint8_t junk[512];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	srand(7);
	for (int round = 0; round < 20; ++round) {
		/* The real trace with random bytes overwritten.  */
		memcpy(junk, corpus.trace, corpus.trace_size);
		for (size_t i = 0; i < corpus.trace_size; ++i)
			if (rand() % 4 == 0)
				junk[i] = (uint8_t) rand();
		corpus.bundle.trace = junk;
		r = build(&corpus.bundle);
		for (uint32_t n = 1; n <= bt_ftrace_nfunctions(r.ft); ++n) {
			struct bt_function s = fn(&r, n);

			cr_assert(s.errcode || s.ninsn > 0);
		}
		done(&r);
	}
}

Test(bt_pt_decode, an_unmapped_target_is_a_nomap_error)
{
	struct built r;
	struct bt_function g;

	cr_assert_eq(bt_corpus_calls_with_error(&corpus), 0);
	r = build(&corpus.bundle);
	/* g's ret was decoded before the error, then the gap.  */
	g = fn(&r, 7);
	cr_assert_str_eq(g.sym, "g");
	cr_assert_eq(g.ninsn, bt_corpus_count(&corpus, corpus.g.address,
					      corpus.g.ret));
	cr_assert_eq(fn(&r, 8).errcode, -pte_nomap);
	cr_assert_eq(bt_ftrace_ngaps(r.ft), 1);
	done(&r);
}

Test(bt_pt_decode, cpus_without_errata_tables_decode_the_same)
{
	struct built r;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	corpus.bundle.cpu.vendor = btv_unknown;
	r = build(&corpus.bundle);
	check_calls(&r, 9);
	done(&r);
}

Test(bt_pt_decode, a_trace_without_psb_has_no_segments_but_the_pc)
{
	struct built r;
	static uint8_t pads[64];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	corpus.bundle.trace = pads;
	corpus.bundle.trace_size = sizeof(pads);
	r = build(&corpus.bundle);
	/* GDB still adds the current pc as the one instruction.  */
	cr_assert_eq(bt_ftrace_nfunctions(r.ft), 1);
	cr_assert_eq(fn(&r, 1).ninsn, 1);
	done(&r);
}
