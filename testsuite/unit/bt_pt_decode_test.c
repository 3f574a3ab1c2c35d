/* PT decoding with libipt's block decoder: events and errors become the
   gaps GDB makes, and damaged traces never crash.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_decode.h"
#include "btrace/bt_ftrace.h"
#include "btrace/bt_history.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <intel-pt.h>
#include <stdio.h>
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

/* Every segment of FT equals the one of the same number in REF.  */
static void check_same_segments(const struct bt_ftrace *ref,
				const struct bt_ftrace *ft, const char *how)
{
	size_t n = bt_ftrace_nfunctions(ref);

	cr_assert_eq(bt_ftrace_nfunctions(ft), n, "%s", how);
	cr_assert_eq(bt_ftrace_level(ft), bt_ftrace_level(ref), "%s", how);
	for (uint32_t i = 1; i <= n; ++i) {
		struct bt_function a, b;

		cr_assert_eq(bt_ftrace_function(ref, i, &a), 0);
		cr_assert_eq(bt_ftrace_function(ft, i, &b), 0);
		cr_assert(a.insn_offset == b.insn_offset && a.ninsn == b.ninsn
			  && a.up == b.up && a.prev == b.prev
			  && a.next == b.next && a.level == b.level
			  && a.flags == b.flags && a.errcode == b.errcode
			  && a.msym == b.msym && a.sym == b.sym
			  && a.nblocks == b.nblocks,
			  "%s: segment %u differs", how, i);
	}
}

/* The decoder on its own thread, with chunks small enough that the two
   threads wait for each other all along, builds what one thread builds;
   so do two records a chunk, the least a step needs.  */
static void check_pipes(const struct bt_bundle *bundle)
{
	static const struct bt_pt_pipe pipes[] = {
		{ 1, 1, 2 }, { 1, 2, 3 }, { 0, 1, 2 }, { 1, 8, 4096 },
	};
	struct bt_image *image;
	struct bt_ftrace *ref, *ft;
	struct bt_diag diag;

	bt_diag_init(&diag);
	cr_assert_eq(bt_image_alloc(&image, bundle, &diag), 0, "%s", diag.text);
	cr_assert_eq(bt_ftrace_build_piped(&ref, bundle, image, &diag, NULL,
					   NULL, &(struct bt_pt_pipe) {
						   0, 1, 4096 }), 0);
	cr_assert_gt(bt_ftrace_nfunctions(ref), 1);
	for (size_t i = 0; i < sizeof(pipes) / sizeof(*pipes); ++i) {
		char how[64];

		snprintf(how, sizeof(how), "threaded %d, %zu chunks of %zu",
			 pipes[i].threaded, pipes[i].nchunks,
			 pipes[i].chunk_size);
		cr_assert_eq(bt_ftrace_build_piped(&ft, bundle, image, &diag,
						   NULL, NULL, &pipes[i]), 0,
			     "%s: %s", how, diag.text);
		check_same_segments(ref, ft, how);
		bt_ftrace_free(ft);
	}
	bt_ftrace_free(ref);
	bt_image_free(image);
}

Test(bt_pt_decode, a_decoder_thread_builds_what_one_thread_builds)
{
	uint8_t *trace;
	size_t size;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	check_pipes(&corpus.bundle);
	cr_assert_eq(bt_corpus_calls_with_error(&corpus), 0);
	check_pipes(&corpus.bundle);
	cr_assert_eq(bt_corpus_calls_with_overflow(&corpus), 0);
	check_pipes(&corpus.bundle);
	cr_assert_eq(bt_corpus_calls_repeated(&corpus, 300, &trace, &size), 0);
	check_pipes(&corpus.bundle);
	free(trace);
}

/* Progress comes from the builder's side, as the chunks arrive.  */
static void count_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void) done;
	(void) total;
	*(int *) ctx += 1;
}

Test(bt_pt_decode, progress_is_told_from_the_builders_thread)
{
	struct bt_image *image;
	struct bt_ftrace *ft;
	struct bt_diag diag;
	uint8_t *trace;
	size_t size;
	int told = 0;

	cr_assert_eq(bt_corpus_calls_repeated(&corpus, 20000, &trace, &size), 0);
	bt_diag_init(&diag);
	cr_assert_eq(bt_image_alloc(&image, &corpus.bundle, &diag), 0);
	cr_assert_eq(bt_ftrace_build_piped(&ft, &corpus.bundle, image, &diag,
					   count_progress, &told,
					   &bt_pt_pipe_default), 0);
	/* 20000 runs of nine segments: well over bt_progress_every.  */
	cr_assert_gt(bt_ftrace_nfunctions(ft), 2 * bt_progress_every);
	cr_assert_geq(told, 1);
	bt_ftrace_free(ft);
	bt_image_free(image);
	free(trace);
}

Test(bt_pt_decode, tsc_packets_give_the_time_by_instruction)
{
	struct built r;
	const struct bt_times *t;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	cr_assert_eq(r.ft->times.n, 0, "a trace without time has none");
	done(&r);

	cr_assert_eq(bt_corpus_calls_timed(&corpus), 0);
	r = build(&corpus.bundle);
	check_calls(&r, 9);
	t = &r.ft->times;
	cr_assert_eq(t->n, 2);
	cr_assert_eq(t->number[0], 1);
	cr_assert_eq(t->tsc[0], 1000);
	/* The decoder reads the second TSC as g's second return needs its
	   TNT bit: the time holds from the instruction after that return,
	   f's last part (segment 8); g's body keeps the earlier time.  */
	cr_assert_eq(t->tsc[1], 5000);
	cr_assert_eq(t->number[1], fn(&r, 8).insn_offset);
	done(&r);
}
