/* The replay cursor on bt_prog's trace (main calls f twice, f calls g):
   landings from the program's control flow and its source markers.  The
   same landings against GDB's are in testsuite/btrace/gdb_oracle.sh.  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <stdio.h>
#include <string.h>

static struct bt_corpus corpus;
#include "testsuite/btrace/bt_corpus_expect.h"

BT_CORPUS_TEST_MAIN(bt_replay, corpus)

/* The calls trace decoded, with a replay cursor on it.  */
struct replayed {
	struct built b;
	struct bt_image *image;
	struct bt_ftrace *ft;
	struct bt_replay *replay;
};

static struct replayed replayed(void)
{
	struct replayed r;
	struct bt_diag diag;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r.b = build(&corpus.bundle);
	r.image = r.b.image;
	r.ft = r.b.ft;
	cr_assert_eq(bt_replay_alloc(&r.replay, r.ft, r.image, &diag), 0,
		     "%s", diag.text);
	return r;
}

static void finished(struct replayed *r)
{
	bt_replay_free(r->replay);
	done(&r->b);
}

static int move(struct replayed *r, enum bt_replay_cmd cmd, int reverse,
		uint32_t number)
{
	struct bt_diag diag;

	bt_diag_init(&diag);
	return bt_replay_move(r->replay, cmd, reverse, number, &diag);
}

static uint64_t pc_of(const struct replayed *r, uint32_t *number)
{
	uint64_t pc;

	cr_assert_eq(bt_replay_position(r->replay, number, &pc), 0);
	return pc;
}

static int line_at(const struct replayed *r, uint64_t pc)
{
	int line = 0;

	cr_assert_eq(bt_image_line(r->image, pc, &line, NULL), 0);
	return line;
}

Test(bt_replay, single_steps_and_the_ends_of_the_history)
{
	struct replayed r = replayed();
	uint32_t insns, number;

	bt_ftrace_counts(r.ft, &insns, NULL, NULL);
	/* Live: not replaying, at the stop pc.  */
	cr_assert_eq(pc_of(&r, &number), corpus.main.ret);
	cr_assert_eq(number, 0);

	cr_assert_eq(move(&r, btrc_stepi, 1, 0), 1);
	cr_assert_eq(pc_of(&r, &number), corpus.main.ret - 1);
	cr_assert_eq(number, insns);

	cr_assert_eq(move(&r, btrc_begin, 0, 0), 1);
	cr_assert_eq(pc_of(&r, &number), corpus.main.address);
	cr_assert_eq(number, 1);
	/* Nothing before the first instruction: it stays.  */
	cr_assert_eq(move(&r, btrc_stepi, 1, 0), 0);
	cr_assert_eq(pc_of(&r, &number), corpus.main.address);

	/* Stepping onto the current instruction stops replaying.  */
	cr_assert_eq(move(&r, btrc_goto, 0, insns), 1);
	cr_assert_eq(move(&r, btrc_stepi, 0, 0), 0);
	pc_of(&r, &number);
	cr_assert_eq(number, 0);
	finished(&r);
}

Test(bt_replay, finish_both_ways)
{
	struct replayed r = replayed();
	uint32_t number;
	uint64_t pc;

	/* Into g, the first time: main's call, f's prologue, f's call.  */
	cr_assert_eq(move(&r, btrc_begin, 0, 0), 1);
	do {
		cr_assert_eq(move(&r, btrc_stepi, 0, 0), 1);
		pc = pc_of(&r, &number);
	} while (pc != corpus.g.address);

	cr_assert_eq(move(&r, btrc_finish, 0, 0), 1);
	cr_assert_eq(pc_of(&r, NULL), corpus.f.calls[0] +
		     (uint64_t) bt_corpus_insn_length(&corpus,
						      corpus.f.calls[0]));
	/* Back from f's body: onto main's first call.  */
	cr_assert_eq(move(&r, btrc_finish, 1, 0), 1);
	cr_assert_eq(pc_of(&r, NULL), corpus.main.calls[0]);
	finished(&r);
}

Test(bt_replay, step_and_next_by_lines)
{
	struct replayed r = replayed();
	uint64_t pc;

	/* From main's "{", step to its first line, then into f, past its
	   prologue, at its body's line.  */
	cr_assert_eq(move(&r, btrc_begin, 0, 0), 1);
	cr_assert_eq(move(&r, btrc_step, 0, 0), 1);
	pc = pc_of(&r, NULL);
	cr_assert_eq(line_at(&r, pc), bt_corpus_line(&corpus,
						     "L:main_call1"));
	cr_assert_eq(move(&r, btrc_step, 0, 0), 1);
	pc = pc_of(&r, NULL);
	cr_assert_eq(line_at(&r, pc), bt_corpus_line(&corpus, "L:f_body"));

	/* next from main's first line steps over f.  */
	cr_assert_eq(move(&r, btrc_begin, 0, 0), 1);
	cr_assert_eq(move(&r, btrc_next, 0, 0), 1);
	cr_assert_eq(move(&r, btrc_next, 0, 0), 1);
	pc = pc_of(&r, NULL);
	cr_assert_eq(line_at(&r, pc), bt_corpus_line(&corpus,
						     "L:main_call2"));

	/* reverse-next from there: back over f to the first call's line.  */
	cr_assert_eq(move(&r, btrc_next, 1, 0), 1);
	pc = pc_of(&r, NULL);
	cr_assert_eq(line_at(&r, pc), bt_corpus_line(&corpus,
						     "L:main_call1"));
	finished(&r);
}

Test(bt_replay, gdbs_errors)
{
	struct replayed r = replayed();
	struct bt_diag diag;

	cr_assert_lt(bt_replay_move(r.replay, btrc_goto, 0, 0, &diag), 0);
	cr_assert_str_eq(diag.text, "Target insn '0' not found.");
	cr_assert_lt(bt_replay_move(r.replay, btrc_goto, 0, 100000, &diag),
		     0);
	/* main's call is not in the trace: it is the outermost frame.  */
	cr_assert_eq(move(&r, btrc_begin, 0, 0), 1);
	cr_assert_lt(bt_replay_move(r.replay, btrc_finish, 1, 0, &diag), 0);
	cr_assert_str_eq(diag.text,
			 "\"finish\" not meaningful in the outermost frame.");
	cr_assert_lt(bt_replay_alloc(NULL, r.ft, r.image, &diag), 0);
	finished(&r);
}

static int append_pc(uint64_t ip, void *ctx)
{
	uint64_t **at = ctx;

	*(*at)++ = ip;
	return 0;
}

/* The cursor keeps blocks, not a copy per instruction: every position,
   reached by stepping either way or by goto, has the address the
   segments' own walk gives.  */
Test(bt_replay, every_position_has_the_address_the_segments_give)
{
	struct replayed r = replayed();
	uint32_t n = (uint32_t) bt_ftrace_nfunctions(r.ft), total = 0, number;
	uint64_t pcs[4096], *at = pcs;

	for (uint32_t s = 1; s <= n; ++s)
		cr_assert_eq(bt_ftrace_for_each_insn(r.ft, s, append_pc, &at),
			     0);
	total = (uint32_t) (at - pcs);
	cr_assert_gt(total, 10);

	/* Backward from the live end, then forward from the start.  */
	cr_assert_eq(pc_of(&r, NULL), pcs[total - 1]);
	for (uint32_t i = total - 1; i-- > 0;) {
		cr_assert_eq(move(&r, btrc_stepi, 1, 0), 1);
		cr_assert_eq(pc_of(&r, &number), pcs[i], "insn %u", i + 1);
		cr_assert_eq(number, i + 1);
	}
	cr_assert_eq(move(&r, btrc_stepi, 1, 0), 0, "at the start");
	for (uint32_t i = 1; i + 1 < total; ++i) {
		cr_assert_eq(move(&r, btrc_stepi, 0, 0), 1);
		cr_assert_eq(pc_of(&r, &number), pcs[i], "insn %u", i + 1);
	}
	/* Jumps in both directions, far and near.  */
	for (uint32_t k = 0; k < total; ++k) {
		uint32_t target = (k * 7919u) % (total - 1) + 1;

		cr_assert_eq(move(&r, btrc_goto, 0, target), 1);
		cr_assert_eq(pc_of(&r, &number), pcs[target - 1]);
		cr_assert_eq(number, target);
	}
	finished(&r);
}
