/* Gap bridging: segments left and right of a gap are joined when their
   back traces match, and levels are normalized afterwards.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_decode.h"
#include "btrace/bt_history.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_ftrace_gaps, corpus)

#include "testsuite/btrace/bt_corpus_expect.h"

Test(bt_ftrace_gaps, decode_error_is_a_gap_bridged_to_main)
{
	struct built r;
	struct bt_function gap, main9, s;
	uint32_t insns, calls, gaps;

	cr_assert_eq(bt_corpus_calls_with_error(&corpus), 0);
	r = build(&corpus.bundle);
	cr_assert_eq(bt_ftrace_nfunctions(r.ft), 9);
	check_calls_links(&r, 5, 1);
	/* f's second instance never returns: the trace broke in g.  */
	cr_assert_str_eq(fn(&r, 6).sym, "f");
	cr_assert_eq(fn(&r, 6).next, 0);
	cr_assert_str_eq(fn(&r, 7).sym, "g");
	cr_assert_eq(fn(&r, 7).up, 6);

	gap = fn(&r, 8);
	cr_assert_eq(gap.errcode, -pte_nomap);
	cr_assert_eq(gap.ninsn, 0);
	cr_assert_eq(gap.insn_offset, fn(&r, 7).insn_offset + fn(&r, 7).ninsn);

	/* Bridging found main on both sides: one function again.  */
	main9 = fn(&r, 9);
	cr_assert_str_eq(main9.sym, "main");
	cr_assert_eq(main9.level + bt_ftrace_level(r.ft), 0);
	cr_assert_eq(main9.prev, 5);
	s = fn(&r, 5);
	cr_assert_eq(s.next, 9);
	cr_assert_eq(main9.insn_offset, gap.insn_offset + 1, "a gap is one");
	cr_assert_eq(main9.ninsn, bt_corpus_count(&corpus,
		after(corpus.main.calls[1]), corpus.main.ret));

	cr_assert_eq(bt_ftrace_counts(r.ft, &insns, &calls, &gaps), 0);
	cr_assert_eq(gaps, 1);
	cr_assert_eq(calls, 9);
	cr_assert_eq(insns, main9.insn_offset + main9.ninsn - 2);
	done(&r);
}

Test(bt_ftrace_gaps, runs_separated_by_disabled_gaps_are_chained)
{
	struct built r;
	uint8_t *trace;
	size_t size, n;
	uint32_t prev_main = 0;

	cr_assert_eq(bt_corpus_calls_repeated(&corpus, 3, &trace, &size), 0);
	r = build(&corpus.bundle);
	/* Three runs of nine segments, two gaps between them.  */
	n = bt_ftrace_nfunctions(r.ft);
	cr_assert_eq(n, 3 * 9 + 2);
	cr_assert_eq(bt_ftrace_ngaps(r.ft), 2);
	for (uint32_t i = 1; i <= n; ++i) {
		struct bt_function s = fn(&r, i);

		if (i == 10 || i == 20) {
			cr_assert_eq(s.errcode, btg_pt_disabled);
			continue;
		}
		cr_assert_eq(s.errcode, 0, "segment %u", i);
		if (strcmp(s.sym, "main") != 0)
			continue;
		cr_assert_eq(s.level + bt_ftrace_level(r.ft), 0);
		/* Each main continues the one before, across gaps too.  */
		cr_assert_eq(s.prev, prev_main, "segment %u", i);
		prev_main = i;
	}
	done(&r);
	free(trace);
}
