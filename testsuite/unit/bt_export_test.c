/* Folded stacks and Chrome trace events from the corpus's calls trace.  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "btrace/bt_ftrace.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_export, corpus)

#include "testsuite/btrace/bt_corpus_expect.h"

static char *run_timed(const struct built *r, const struct bt_time *time)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct bt_diag diag;

	cr_assert_eq(bt_export_chrome(out, r->ft, time, 1, 2, &diag), 0);
	fclose(out);
	return text;
}

static char *run(const struct built *r, int chrome)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct bt_diag diag;

	if (chrome)
		cr_assert_eq(bt_export_chrome(out, r->ft, NULL, 1, 2, &diag), 0);
	else
		cr_assert_eq(bt_export_folded(out, r->ft, &diag), 0);
	fclose(out);
	return text;
}

Test(bt_export, folded_stacks_sum_instructions_per_stack)
{
	struct built r;
	struct expect e[9];
	uint64_t w[3] = { 0 };     /* main, main;f, main;f;g */
	char *got, *want;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	expectations(e);
	for (int i = 0; i < 9; ++i)
		w[e[i].level] += bt_corpus_count(&corpus, e[i].first,
						 e[i].last);
	/* The current instruction, the last, is not part of the trace:
	   the stacks sum to `info record`'s count.  */
	w[e[8].level] -= 1;
	uint32_t insns;

	cr_assert_eq(bt_ftrace_counts(r.ft, &insns, NULL, NULL), 0);
	cr_assert_eq(w[0] + w[1] + w[2], insns);
	if (asprintf(&want, "main %llu\nmain;f %llu\nmain;f;g %llu\n",
		     (unsigned long long) w[0], (unsigned long long) w[1],
		     (unsigned long long) w[2]) < 0)
		cr_assert_fail();
	got = run(&r, 0);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
	done(&r);
}

Test(bt_export, chrome_events_nest_callees_in_callers)
{
	struct built r;
	char *got, *at;
	int events = 0;
	char want[160];
	struct bt_function f2 = { 0 }, f4 = { 0 };

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	got = run(&r, 1);
	for (at = got; (at = strstr(at, "\"ph\": \"X\"")); ++at)
		events += 1;
	/* main once (1, 5, 9 are one instance), f twice, g twice.  */
	cr_assert_eq(events, 5, "%s", got);

	/* f's first instance spans segments 2 to 4, g's inside it.  */
	cr_assert_eq(bt_ftrace_function(r.ft, 2, &f2), 0);
	cr_assert_eq(bt_ftrace_function(r.ft, 4, &f4), 0);
	snprintf(want, sizeof(want), "{\"name\": \"f\", \"cat\": \"function\", "
		 "\"ph\": \"X\", \"ts\": %u, \"dur\": %u, \"pid\": 1, "
		 "\"tid\": 2, \"args\": {\"segment\": 2}}", f2.insn_offset,
		 f4.insn_offset + f4.ninsn - f2.insn_offset);
	cr_assert_not_null(strstr(got, want), "%s", got);
	cr_assert_eq(strncmp(got, "{\"traceEvents\": [", 17), 0);
	free(got);
	done(&r);
}

Test(bt_export, chrome_takes_the_trace_time_where_there_is_some)
{
	/* ns = 1000000 + tsc * 3 / 2, as perf's mult 3, shift 1.  */
	const struct bt_time time = { 1000000, 3, 1 };
	struct built r;
	struct bt_function f2 = { 0 }, f4 = { 0 };
	char *got, want[160];
	uint32_t end;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	/* The corpus's trace has no TSC packets: instructions, said so.  */
	got = run_timed(&r, &time);
	cr_assert_not_null(strstr(got, "\"otherData\": {\"time\": "
				  "\"instructions\"}"), "%s", got);
	free(got);

	/* With times: f's first instance (segments 2 to 4) from its first
	   instruction's time to that of the instruction after it; a time
	   inside it does not move either end.  */
	cr_assert_eq(bt_ftrace_function(r.ft, 2, &f2), 0);
	cr_assert_eq(bt_ftrace_function(r.ft, 4, &f4), 0);
	end = f4.insn_offset + f4.ninsn;
	cr_assert_lt(f2.insn_offset + 1, end);
	cr_assert_eq(bt_times_push(&r.ft->times, 1, 0), 0);
	cr_assert_eq(bt_times_push(&r.ft->times, f2.insn_offset + 1, 2000), 0);
	cr_assert_eq(bt_times_push(&r.ft->times, end, 5001), 0);
	got = run_timed(&r, &time);
	snprintf(want, sizeof(want), "{\"name\": \"f\", \"cat\": \"function\", "
		 "\"ph\": \"X\", \"ts\": 1000.0, \"dur\": 7.501, "
		 "\"pid\": 1, \"tid\": 2, \"args\": {\"segment\": 2}}");
	cr_assert_not_null(strstr(got, want), "%s", got);
	cr_assert_not_null(strstr(got, "\"otherData\": {\"time\": \"tsc\""),
			   "%s", got);
	free(got);

	/* A bundle without the conversion keeps instruction numbers.  */
	got = run_timed(&r, NULL);
	cr_assert_not_null(strstr(got, "\"time\": \"instructions\""), "%s",
			   got);
	free(got);
	done(&r);
}
