/* BTS: GDB's blocks, newest first, walked instruction by instruction;
   the same calls give the same segments as PT, and bad blocks are gaps
   with GDB's BTS codes.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_decode.h"
#include "btrace/bt_history.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_bts_decode, corpus)

#include "testsuite/btrace/bt_corpus_expect.h"

/* The calls trace as BTS blocks, newest first, as GDB's XML has them.  */
static void bts_blocks(uint8_t *out, size_t *size)
{
	struct expect e[9];

	expectations(e);
	for (int i = 0; i < 9; ++i) {
		uint8_t *at = out + (8 - i) * 16;

		for (int k = 0; k < 8; ++k) {
			at[k] = (uint8_t) (e[i].first >> (8 * k));
			at[8 + k] = (uint8_t) (e[i].last >> (8 * k));
		}
	}
	*size = 9 * 16;
}

Test(bt_bts_decode, bts_gives_the_same_segments_as_pt)
{
	struct built r;
	uint8_t blocks[9 * 16];
	size_t size;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	bts_blocks(blocks, &size);
	corpus.bundle.format = btf_bts;
	corpus.bundle.trace = blocks;
	corpus.bundle.trace_size = size;
	corpus.bundle.has_pc = 0;
	r = build(&corpus.bundle);
	check_calls(&r, 9);
	cr_assert_eq(bt_ftrace_ngaps(r.ft), 0);
	done(&r);
}

static void put_block(uint8_t *at, uint64_t begin, uint64_t end)
{
	for (int k = 0; k < 8; ++k) {
		at[k] = (uint8_t) (begin >> (8 * k));
		at[8 + k] = (uint8_t) (end >> (8 * k));
	}
}

Test(bt_bts_decode, a_block_that_ends_mid_instruction_is_an_overflow)
{
	struct built r;
	uint8_t blocks[32];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	/* Newest first: then main's second block ends one byte into its
	   last instruction, so walking never meets the end.  */
	put_block(blocks, corpus.f.address, corpus.f.calls[0]);
	put_block(blocks + 16, corpus.main.address, corpus.main.calls[0] + 1);
	corpus.bundle.format = btf_bts;
	corpus.bundle.trace = blocks;
	corpus.bundle.trace_size = sizeof(blocks);
	r = build(&corpus.bundle);
	cr_assert_eq(fn(&r, 2).errcode, btg_bts_overflow);
	cr_assert_str_eq(bt_gap_string(btf_bts, btg_bts_overflow),
			 "instruction overflow");
	cr_assert_eq(fn(&r, 1).ninsn, bt_corpus_count(&corpus,
		corpus.main.address, corpus.main.calls[0]));
	done(&r);
}

Test(bt_bts_decode, unmapped_code_is_an_unknown_instruction)
{
	struct built r;
	uint8_t blocks[16];

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	put_block(blocks, 0x1000, 0x1010);
	corpus.bundle.format = btf_bts;
	corpus.bundle.trace = blocks;
	corpus.bundle.trace_size = sizeof(blocks);
	r = build(&corpus.bundle);
	/* GDB keeps the instruction it could not size, then the gap.  */
	cr_assert_eq(bt_ftrace_nfunctions(r.ft), 2);
	cr_assert_eq(fn(&r, 1).ninsn, 1);
	cr_assert_eq(fn(&r, 2).errcode, btg_bts_insn_size);
	cr_assert_str_eq(bt_gap_string(btf_bts, btg_bts_insn_size),
			 "unknown instruction");
	done(&r);
}
