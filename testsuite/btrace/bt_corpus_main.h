/* A criterion main for tests that need the corpus: without bt_prog they
   print SKIP and its reason and exit 77, as automake expects.  Criterion
   runs each test in a fresh process that does not pass through main, so
   the suite's init fixture reads the corpus again there.  When every
   test skipped (no GDB to ask, say), the program exits 77 too.  */
#ifndef BT_CORPUS_MAIN_H
#define BT_CORPUS_MAIN_H

#include "testsuite/btrace/bt_corpus.h"

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>

#define BT_CORPUS_TEST_MAIN(suite, corpus)                                   \
	static void bt_corpus_setup(void)                                    \
	{                                                                    \
		char why[512];                                               \
                                                                             \
		cr_assert_eq(bt_corpus_init(&(corpus), why, sizeof(why)), 0, \
			     "%s", why);                                     \
	}                                                                    \
	TestSuite(suite, .init = bt_corpus_setup);                           \
	static int bt_all_skipped;                                           \
	ReportHook(POST_ALL)(struct criterion_global_stats *stats)           \
	{                                                                    \
		bt_all_skipped = stats->nb_tests > 0 &&                      \
			stats->tests_skipped == stats->nb_tests;             \
	}                                                                    \
	int main(int argc, char **argv)                                      \
	{                                                                    \
		struct criterion_test_set *tests;                            \
		char why[512];                                               \
		int result = 0;                                              \
                                                                             \
		if (bt_corpus_init(&(corpus), why, sizeof(why)) < 0) {       \
			printf("SKIP: %s\n", why);                           \
			return 77;                                           \
		}                                                            \
		tests = criterion_initialize();                              \
		if (criterion_handle_args(argc, argv, true))                 \
			result = !criterion_run_all_tests(tests);            \
		criterion_finalize(tests);                                   \
		if (!result && bt_all_skipped) {                             \
			printf("SKIP: every test skipped (see above)\n");    \
			return 77;                                           \
		}                                                            \
		return result;                                               \
	}

/* BUNDLE's memory image; the test fails with the reason if there is
   none.  */
static inline struct bt_image *bt_corpus_image(const struct bt_bundle *bundle)
{
	struct bt_image *image = NULL;
	struct bt_diag diag;

	bt_diag_init(&diag);
	cr_assert_eq(bt_image_alloc(&image, bundle, &diag), 0, "%s",
		     diag.text);
	return image;
}

#endif
