/* The build driver: arguments, formats it does not know, and the pipe it
   hands the PT decoder, on the corpus's real calls trace.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_decode.h"
#include "btrace/bt_history.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_build, corpus)

#include "testsuite/btrace/bt_corpus_expect.h"

Test(bt_build, bad_arguments_are_refused)
{
	struct bt_ftrace *ft = NULL;
	struct bt_diag diag;

	bt_diag_init(&diag);
	cr_expect_eq(bt_ftrace_build(&ft, NULL, NULL, &diag), -bte_invalid);
	cr_expect_str_eq(diag.text, "bad arguments");
	cr_expect_null(ft);
}

Test(bt_build, an_unknown_format_is_named)
{
	struct built r;
	struct bt_ftrace *ft = NULL;
	struct bt_diag diag;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	bt_diag_init(&diag);
	corpus.bundle.format = (enum bt_format) 7;
	cr_expect_eq(bt_ftrace_build(&ft, &corpus.bundle, r.image, &diag),
		     -bte_unsupported);
	cr_expect_str_eq(diag.text, "unknown trace format 7");
	cr_expect_null(ft);
	done(&r);
}

/* Every pipe, threaded or not, down to chunks of two records, gives the
   same segments as the default one.  */
Test(bt_build, the_pipe_changes_nothing_built)
{
	static const struct bt_pt_pipe pipes[] = {
		{ 0, 1, 4096 }, { 1, 2, 2 }, { 1, 8, 64 },
	};
	struct built r;
	struct bt_diag diag;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	for (size_t i = 0; i < sizeof(pipes) / sizeof(pipes[0]); i++) {
		struct bt_ftrace *ft;

		bt_diag_init(&diag);
		cr_assert_eq(bt_ftrace_build_piped(&ft, &corpus.bundle, r.image,
						   &diag, NULL, NULL,
						   &pipes[i]), 0,
			     "%s", diag.text);
		cr_assert_eq(bt_nsegs(ft), bt_nsegs(r.ft), "pipe %zu", i);
		for (uint32_t s = 1; s <= bt_nsegs(ft); s++) {
			cr_expect_eq(bt_seg_ninsn(ft, s), bt_seg_ninsn(r.ft, s));
			cr_expect_eq(bt_seg_level(ft, s), bt_seg_level(r.ft, s));
			cr_expect_eq(bt_seg_up(ft, s), bt_seg_up(r.ft, s));
		}
		bt_ftrace_free(ft);
	}
	done(&r);
}
