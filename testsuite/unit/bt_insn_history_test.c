/* The instruction history as GDB 13.1 prints it, on traces of the real
   bt_prog: GDB's line layout, its window arithmetic, gaps, and the
   instruction text checked against objdump (libopcodes, as in GDB).  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
#include "testsuite/btrace/bt_corpus_expect.h"

BT_CORPUS_TEST_MAIN(bt_insn_history, corpus)


/* The history for ARG with SIZE and PC; the text, or NULL and DIAG.  */
static char *history(const struct built *r, const char *arg,
		     unsigned int size, uint64_t pc, int json,
		     struct bt_diag *diag)
{
	struct bt_call_range range;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int flags, status;

	bt_diag_init(diag);
	flags = bt_insn_history_parse(arg, &range, diag);
	cr_assert_geq(flags, 0, "%s: %s", arg, diag->text);
	if (json)
		status = bt_insn_history_print_json(out, r->ft, r->image,
						    &range, flags, size, pc,
						    diag);
	else
		status = bt_insn_history_print(out, r->ft, r->image, &range,
					       flags, size, pc, diag);
	fclose(out);
	if (status < 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; *text; ++text)
		n += *text == '\n';
	return n;
}

/* Line NUMBER (1-based) of TEXT, malloc'ed.  */
static char *line_of(const char *text, int number)
{
	for (int i = 1; i < number && text; ++i) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	cr_assert_not_null(text);
	return strndup(text, strcspn(text, "\n"));
}

Test(bt_insn_history, the_default_window_ends_before_the_pc)
{
	struct built r;
	struct bt_diag diag;
	uint32_t insns;
	char *text, *last, want[64];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	bt_ftrace_counts(r.ft, &insns, NULL, NULL);
	text = history(&r, "", 10, 0, 0, &diag);
	cr_assert_not_null(text, "%s", diag.text);
	cr_assert_eq(count_lines(text), 10, "%s", text);
	last = line_of(text, 10);
	/* The last instruction of the trace proper is main's leave.  */
	snprintf(want, sizeof(want), "%u\t   0x%016" PRIx64 " <main+",
		 insns, corpus.main.ret - 1);
	cr_assert(strncmp(last, want, strlen(want)) == 0, "%s", last);
	cr_assert(strstr(last, ">:\tleave") != NULL, "%s", last);
	free(last);
	free(text);
	done(&r);
}

Test(bt_insn_history, lines_follow_gdbs_layout)
{
	struct built r;
	struct bt_diag diag;
	char *text, *line, want[128];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	text = history(&r, "1,1", 10, 0, 0, &diag);
	cr_assert_not_null(text, "%s", diag.text);
	snprintf(want, sizeof(want), "1\t   0x%016" PRIx64
		 " <main+0>:\tpush   %%rbp\n", corpus.main.address);
	cr_assert_str_eq(text, want);
	free(text);

	/* /f leaves the name out, /r adds the bytes padded to 7.  */
	text = history(&r, "/rf 1,1", 10, 0, 0, &diag);
	snprintf(want, sizeof(want), "1\t   0x%016" PRIx64
		 " <+0>:\t55                 \tpush   %%rbp\n",
		 corpus.main.address);
	cr_assert_str_eq(text, want);
	free(text);

	/* A call names its target as GDB's print_address does.  */
	text = history(&r, "1,10", 10, 0, 0, &diag);
	line = strstr(text, "call   0x");
	cr_assert_not_null(line, "%s", text);
	snprintf(want, sizeof(want), "call   0x%" PRIx64 " <f>\n",
		 corpus.f.address);
	cr_assert(strncmp(line, want, strlen(want)) == 0, "%s", line);
	free(text);
	done(&r);
}

Test(bt_insn_history, the_pc_is_marked_unless_p)
{
	struct built r;
	struct bt_diag diag;
	char *text, want[64];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	text = history(&r, "1,1", 10, corpus.main.address, 0, &diag);
	snprintf(want, sizeof(want), "1\t=> 0x%016" PRIx64,
		 corpus.main.address);
	cr_assert(strncmp(text, want, strlen(want)) == 0, "%s", text);
	free(text);
	text = history(&r, "/p 1,1", 10, corpus.main.address, 0, &diag);
	cr_assert(strncmp(text, "1\t   0x", 7) == 0, "%s", text);
	free(text);
	done(&r);
}

Test(bt_insn_history, windows_follow_gdbs_arithmetic)
{
	struct built r;
	struct bt_diag diag;
	char *text, *first;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	text = history(&r, "12,-4", 10, 0, 0, &diag);
	cr_assert_eq(count_lines(text), 4);
	first = line_of(text, 1);
	cr_assert(strncmp(first, "9\t", 2) == 0, "%s", first);
	free(first);
	free(text);

	text = history(&r, "5,+2", 10, 0, 0, &diag);
	cr_assert_eq(count_lines(text), 2);
	cr_assert(strncmp(text, "5\t", 2) == 0, "%s", text);
	free(text);

	/* The end is silently cut at the trace's end.  */
	text = history(&r, "30,9999", 10, 0, 0, &diag);
	cr_assert_not_null(text);
	cr_assert_gt(count_lines(text), 0);
	free(text);

	cr_assert_null(history(&r, "0", 10, 0, 0, &diag));
	cr_assert_str_eq(diag.text, "Range out of bounds.");
	cr_assert_null(history(&r, "5,3", 10, 0, 0, &diag));
	cr_assert_str_eq(diag.text, "Bad range.");
	done(&r);
}

Test(bt_insn_history, modifiers_are_gdbs)
{
	struct bt_call_range range;
	struct bt_diag diag;

	cr_assert_eq(bt_insn_history_parse("/mr 3", &range, &diag),
		     btif_source | btif_raw);
	cr_assert_eq(range.kind, btcr_from);
	cr_assert_eq(range.begin, 3);
	cr_assert_eq(bt_insn_history_parse("/s/f -", &range, &diag),
		     btif_source | btif_omit_fname);
	cr_assert_eq(range.kind, btcr_backward);
	cr_assert_lt(bt_insn_history_parse("/i", &range, &diag), 0);
	cr_assert_str_eq(diag.text, "Invalid modifier: i.");
	cr_assert_lt(bt_insn_history_parse("/", &range, &diag), 0);
	cr_assert_str_eq(diag.text, "Missing modifier.");
}

Test(bt_insn_history, source_lines_come_before_their_instructions)
{
	struct built r;
	struct bt_diag diag;
	char *text, want[4200];
	int open = bt_corpus_line(&corpus, "L:main_open");

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	text = history(&r, "/m 1,1", 10, 0, 0, &diag);
	cr_assert_not_null(text, "%s", diag.text);
	/* GDB shows the file as DWARF names it; here, its full path.  */
	snprintf(want, sizeof(want), ":%d\t{                      /* "
		 "L:main_open */\n1\t", open);
	cr_assert(strstr(text, want) != NULL, "%s", text);
	cr_assert(strstr(text, "bt_prog.c:") != NULL, "%s", text);
	free(text);
	done(&r);
}

Test(bt_insn_history, gaps_are_one_instruction)
{
	struct built r;
	struct bt_diag diag;
	char *text;

	cr_assert_eq(bt_corpus_calls_with_error(&corpus), 0);
	r = build(&corpus.bundle);
	text = history(&r, "", 0, 0, 0, &diag);
	cr_assert_not_null(text, "%s", diag.text);
	cr_assert(strstr(text, "\t[decode error (") != NULL, "%s", text);
	free(text);
	done(&r);
}

Test(bt_insn_history, json_has_the_same_instructions)
{
	struct built r;
	struct bt_diag diag;
	char *text, want[64];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	text = history(&r, "/r 1,2", 10, 0, 1, &diag);
	cr_assert_not_null(text, "%s", diag.text);
	snprintf(want, sizeof(want), "\"address\": \"0x%" PRIx64 "\"",
		 corpus.main.address);
	cr_assert(strstr(text, want) != NULL, "%s", text);
	cr_assert(strstr(text, "\"insn\": \"push   %rbp\"") != NULL, "%s",
		  text);
	cr_assert(strstr(text, "\"bytes\": \"55\"") != NULL, "%s", text);
	cr_assert(text[0] == '[' && strstr(text, "\n]\n") != NULL);
	free(text);
	done(&r);
}

/* objdump -d (libopcodes too) as the independent reference for the
   instruction text: every instruction without an address operand must
   read the same.  */
Test(bt_insn_history, text_matches_objdump)
{
	struct built r;
	struct bt_diag diag;
	char cmd[4200], *text, *p, buf[512];
	FILE *dump;
	int compared = 0;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn '%s' "
		 "2>/dev/null", corpus.prog);
	dump = popen(cmd, "r");
	if (!dump)
		cr_skip_test("no objdump");
	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	text = history(&r, "", 0, 0, 0, &diag);
	cr_assert_not_null(text, "%s", diag.text);

	while (fgets(buf, sizeof(buf), dump)) {
		unsigned long link;
		char *tab, line[600];

		if (sscanf(buf, " %lx:", &link) != 1 || strchr(buf, '<'))
			continue;
		tab = strchr(buf, '\t');
		if (!tab)
			continue;
		tab[strcspn(tab, "\n")] = 0;
		/* Drop objdump's trailing blanks, as GDB has none either.  */
		for (size_t n = strlen(tab); n && tab[n - 1] == ' '; --n)
			tab[n - 1] = 0;
		snprintf(line, sizeof(line), "0x%016" PRIx64 " <",
			 (uint64_t) (BT_CORPUS_BASE + link));
		p = strstr(text, line);
		if (!p)
			continue;
		p = strstr(p, ">:");
		cr_assert_not_null(p);
		cr_assert(strncmp(p + 2, tab, strlen(tab)) == 0 &&
			  p[2 + strlen(tab)] == '\n', "ours: %.*s objdump: %s",
			  (int) strcspn(p + 2, "\n"), p + 2, tab);
		compared++;
	}
	pclose(dump);
	if (!compared)
		cr_skip_test("objdump printed nothing to compare");
	cr_assert_gt(compared, 10);
	free(text);
	done(&r);
}
