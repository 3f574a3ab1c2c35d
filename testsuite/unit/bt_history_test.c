/* The function-call history text, line for line as GDB 13.1 prints it,
   on traces of the real bt_prog.  Expected lines are built from the
   program's control flow, its source markers, and (for the file name as
   GDB displays it) from GDB itself when it is installed.  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
#include "testsuite/btrace/bt_corpus_expect.h"

BT_CORPUS_TEST_MAIN(bt_history, corpus)


/* Run the history for ARG with SIZE; the text, or NULL and DIAG.  */
static char *history(const struct built *r, const char *arg,
		     unsigned int size, int json, struct bt_diag *diag)
{
	struct bt_call_range range;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int flags, status;

	bt_diag_init(diag);
	flags = bt_call_history_parse(arg, &range, diag);
	cr_assert_geq(flags, 0, "%s: %s", arg, diag->text);
	if (json)
		status = bt_call_history_print_json(out, r->ft, r->image,
						    &range, flags, size, diag);
	else
		status = bt_call_history_print(out, r->ft, r->image, &range,
					       flags, size, diag);
	fclose(out);
	if (status < 0) {
		free(text);
		return NULL;
	}
	return text;
}

static const char *names[9] = { "main", "f", "g", "f", "main", "f", "g",
				"f", "main" };
static const int levels[9] = { 0, 1, 2, 1, 0, 1, 2, 1, 0 };

/* The /c lines for segments FIRST..LAST of the calls trace.  */
static char *indented(int first, int last)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	for (int i = first; i <= last; ++i) {
		fprintf(out, "%d\t", i);
		for (int k = 0; k < levels[i - 1]; ++k)
			fputs("  ", out);
		fprintf(out, "%s\n", names[i - 1]);
	}
	fclose(out);
	return text;
}

static char *plain(int first, int last)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	for (int i = first; i <= last; ++i)
		fprintf(out, "%d\t%s\n", i, names[i - 1]);
	fclose(out);
	return text;
}

static void expect_text(const struct built *r, const char *arg,
			unsigned int size, char *want)
{
	struct bt_diag diag;
	char *got = history(r, arg, size, 0, &diag);

	cr_assert_not_null(got, "'%s': %s", arg, diag.text);
	cr_assert_str_eq(got, want, "'%s' size %u", arg, size);
	free(got);
	free(want);
}

static void expect_error(const struct built *r, const char *arg,
			 unsigned int size, const char *message)
{
	struct bt_diag diag;
	char *got = history(r, arg, size, 0, &diag);

	cr_assert_null(got, "'%s' printed %s", arg, got);
	cr_assert_str_eq(diag.text, message, "'%s'", arg);
}

Test(bt_history, indented_calls)
{
	struct built r;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	expect_text(&r, "/c", 10, indented(1, 9));
	expect_text(&r, "", 10, plain(1, 9));
	done(&r);
}

Test(bt_history, instruction_ranges)
{
	struct built r;
	char *want = NULL, *got;
	size_t len = 0;
	FILE *out;
	struct bt_diag diag;
	uint32_t first = 1;
	const struct bt_corpus_func *m = &corpus.main, *f = &corpus.f,
		*g = &corpus.g;
	uint64_t after1 = m->calls[0] + bt_corpus_insn_length(&corpus,
							      m->calls[0]);
	uint64_t after2 = m->calls[1] + bt_corpus_insn_length(&corpus,
							      m->calls[1]);
	uint64_t fafter = f->calls[0] + bt_corpus_insn_length(&corpus,
							      f->calls[0]);
	uint64_t ranges[9][2] = {
		{ m->address, m->calls[0] }, { f->address, f->calls[0] },
		{ g->address, g->ret }, { fafter, f->ret },
		{ after1, m->calls[1] }, { f->address, f->calls[0] },
		{ g->address, g->ret }, { fafter, f->ret },
		{ after2, m->ret },
	};

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	out = open_memstream(&want, &len);
	for (int i = 0; i < 9; ++i) {
		uint32_t n = bt_corpus_count(&corpus, ranges[i][0],
					     ranges[i][1]);

		fprintf(out, "%d\t%s\tinst %u,%u\n", i + 1, names[i], first,
			first + n - 1);
		first += n;
	}
	fclose(out);
	got = history(&r, "/i", 10, 0, &diag);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
	done(&r);
}

/* The file name GDB displays for bt_prog.c, asked from GDB itself.  */
static int gdb_file_name(char *name, size_t size)
{
	const char *gdb = getenv("GDB");
	char cmd[8192], line[4096];
	FILE *in;
	int found = 0;

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		return 0;
	snprintf(cmd, sizeof(cmd), "'%s' -nx -batch -ex 'info line g' '%s' "
		 "2>/dev/null", gdb, corpus.prog);
	in = popen(cmd, "r");
	if (!in)
		return 0;
	while (fgets(line, sizeof(line), in)) {
		char *a = strstr(line, " of \""), *b;

		if (a && (b = strchr(a + 5, '"')) && !found) {
			snprintf(name, size, "%.*s", (int) (b - a - 5), a + 5);
			found = 1;
		}
	}
	pclose(in);
	return found;
}

Test(bt_history, source_lines)
{
	struct built r;
	char file[4096], *want = NULL, *got;
	size_t len = 0;
	FILE *out;
	struct bt_diag diag;
	static const char *marks[9][2] = {
		{ "L:main_open", "L:main_call1" }, { "L:f_open", "L:f_body" },
		{ "L:g_open", "L:g_close" }, { "L:f_body", "L:f_close" },
		{ "L:main_call1", "L:main_call2" }, { "L:f_open", "L:f_body" },
		{ "L:g_open", "L:g_close" }, { "L:f_body", "L:f_close" },
		{ "L:main_call2", "L:main_close" },
	};

	if (!gdb_file_name(file, sizeof(file)))
		cr_skip_test("GDB is not available to name the source file");
	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	out = open_memstream(&want, &len);
	for (int i = 0; i < 9; ++i)
		fprintf(out, "%d\t%s\tat %s:%d,%d\n", i + 1, names[i], file,
			bt_corpus_line(&corpus, marks[i][0]),
			bt_corpus_line(&corpus, marks[i][1]));
	fclose(out);
	got = history(&r, "/l", 10, 0, &diag);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
	done(&r);
}

Test(bt_history, windows_follow_gdbs_arithmetic)
{
	struct built r;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	expect_text(&r, "", 3, plain(7, 9));
	expect_text(&r, "+", 3, plain(7, 9));
	expect_text(&r, "-", 3, plain(7, 9));
	expect_text(&r, "", 0, plain(1, 9));
	expect_text(&r, "3", 3, plain(3, 5));
	expect_text(&r, "2,+3", 10, plain(2, 4));
	expect_text(&r, "5,-2", 10, plain(4, 5));
	expect_text(&r, "2,4", 10, plain(2, 4));
	expect_text(&r, "1,100", 10, plain(1, 9));
	expect_text(&r, "9", 10, plain(9, 9));
	expect_text(&r, "/c 3,3", 10, indented(3, 3));
	expect_error(&r, "0", 10, "Range out of bounds.");
	expect_error(&r, "10", 10, "Range out of bounds.");
	expect_error(&r, "4,2", 10, "Bad range.");
	expect_error(&r, "1,+0", 10, "Bad record function-call-history-size.");
	expect_error(&r, "5000000000", 10, "Bad range.");
	done(&r);
}

Test(bt_history, a_last_segment_of_just_the_pc_is_left_out)
{
	struct built r;
	char *want;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	corpus.bundle.pc = corpus.g.address;
	r = build(&corpus.bundle);
	/* GDB steps over the single-instruction last segment in unsigned
	   arithmetic (btrace_call_next/prev): a window of 3 at the end shows
	   four segments, 6 to 9, and never segment 10.  */
	expect_text(&r, "", 3, plain(6, 9));
	expect_text(&r, "", 10, plain(1, 9));
	/* A range names it explicitly, though.  */
	if (asprintf(&want, "10\tg\n") < 0)
		cr_assert_fail();
	expect_text(&r, "10,10", 10, want);
	done(&r);
}

Test(bt_history, gaps_print_gdbs_error_text)
{
	struct built r;
	char *want, *head;

	cr_assert_eq(bt_corpus_calls_with_error(&corpus), 0);
	r = build(&corpus.bundle);
	head = indented(1, 7);
	if (asprintf(&want, "%s8\t[decode error (%d): %s]\n9\tmain\n", head,
		     -pte_nomap, pt_errstr(pte_nomap)) < 0)
		cr_assert_fail();
	free(head);
	expect_text(&r, "/c", 10, want);
	done(&r);

	cr_assert_eq(bt_corpus_calls_with_overflow(&corpus), 0);
	r = build(&corpus.bundle);
	/* PT notifications have no "decode error" prefix.  */
	if (asprintf(&want, "5\t[overflow]\n") < 0)
		cr_assert_fail();
	expect_text(&r, "/i 5,5", 10, want);
	done(&r);
}

Test(bt_history, empty_trace_is_no_trace)
{
	struct built r;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	corpus.bundle.trace_size = 0;
	r = build(&corpus.bundle);
	expect_error(&r, "", 10, "No trace.");
	done(&r);
}

Test(bt_history, json_has_the_same_segments)
{
	struct built r;
	struct bt_diag diag;
	char *got, want[128];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	got = history(&r, "/ic 2,3", 10, 1, &diag);
	cr_assert_not_null(got);
	cr_assert_eq(got[0], '[');
	snprintf(want, sizeof(want), "{\"index\": 3, \"level\": 2, "
		 "\"function\": \"g\", \"insn_begin\": ");
	cr_assert_not_null(strstr(got, want), "%s", got);
	cr_assert_null(strstr(got, "\"index\": 4"));
	free(got);
	done(&r);
}

Test(bt_history, functions_without_dwarf_print_a_bare_at)
{
	struct bt_corpus_asm a;
	struct built r;
	struct bt_diag diag;
	char why[512], *got;

	if (bt_corpus_asm_init(&a, why, sizeof(why)) < 0)
		cr_skip_test("%s", why);
	cr_assert_eq(bt_corpus_asm_trace(&a), 0);
	corpus.bundle = a.bundle;
	r = build(&corpus.bundle);
	/* GDB prints "\tat " and nothing more without a symtab, and leaves
	   out the last segment, which holds only the current instruction.  */
	got = history(&r, "/cl", 10, 0, &diag);
	cr_assert_str_eq(got, "1\tt_main\tat \n2\t  t_a\tat \n"
			 "3\t    t_b\tat \n4\tt_main\tat \n5\t  t_pic\tat \n"
			 "6\t  t_c\tat \n");
	free(got);
	done(&r);
}

/* Recompute a bundle's checksum so that damage gets past it.  */
static void fix_crc(uint8_t *data, size_t size)
{
	uint32_t crc = bt_bundle_crc32(0, data, 28);

	crc = bt_bundle_crc32(crc, data + 32, size - 32);
	for (int i = 0; i < 4; ++i)
		data[28 + i] = (uint8_t) (crc >> (8 * i));
}

Test(bt_history, damaged_bundles_never_crash_the_pipeline)
{
	uint8_t *data, *copy;
	size_t size;
	int decoded = 0;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	cr_assert_eq(bt_bundle_encode(&corpus.bundle, &data, &size), 0);
	copy = malloc(size);
	srand(11);
	for (int round = 0; round < 300; ++round) {
		struct bt_bundle b;
		struct bt_image *image;
		struct bt_ftrace *ft;
		struct bt_call_range range = { btcr_default, 0, 0, 0, 0 };
		struct bt_diag diag;
		FILE *out = fopen("/dev/null", "w");

		memcpy(copy, data, size);
		for (int k = 0; k < 1 + rand() % 4; ++k)
			copy[32 + (size_t) rand() % (size - 32)] =
				(uint8_t) rand();
		fix_crc(copy, size);
		if (bt_bundle_parse(&b, copy, size, &diag) == 0) {
			if (bt_image_alloc(&image, &b, &diag) == 0) {
				if (bt_ftrace_build(&ft, &b, image, &diag) == 0) {
					decoded += 1;
					bt_call_history_print(out, ft, image,
							      &range,
							      btcf_indent |
							      btcf_insn_range |
							      btcf_src_line,
							      0, &diag);
					bt_ftrace_free(ft);
				}
				bt_image_free(image);
			}
			bt_bundle_fini(&b);
		}
		fclose(out);
	}
	/* Damage to the trace bytes still decodes, to gaps or otherwise.  */
	cr_assert_gt(decoded, 0);
	free(copy);
	free(data);
}
