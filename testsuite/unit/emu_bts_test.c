/* BTS blocks: opening, closing, dropping, pausing at stops, wrap, and
   the all/new/delta reads.  */
#include "nat/emu/emu_bts.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdlib.h>

static long read_bts(struct emu_bts *bts, enum emu_bts_read_type type,
		     bool to_stop, struct trace_block **b)
{
	struct trace_blocks blocks;
	int err;

	trace_blocks_init(&blocks);
	err = emu_bts_read(bts, type, to_stop, &blocks);
	*b = blocks.block;
	return err < 0 ? err : (long) blocks.len;
}

Test(bts, blocks_in_order)
{
	struct emu_bts bts;
	struct trace_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 8), 0);
	emu_bts_start(&bts, 0x100);
	emu_bts_start(&bts, 0x180);   /* already open: ignored */
	emu_bts_close(&bts, 0x120);
	emu_bts_start(&bts, 0x200);
	emu_bts_close(&bts, 0x210);
	emu_bts_start(&bts, 0x300);
	emu_bts_drop(&bts);
	emu_bts_close(&bts, 0x999);   /* nothing open */
	n = read_bts(&bts, emu_bts_read_all, true, &b);
	cr_assert_eq(n, 2);
	cr_expect_eq(b[0].begin, 0x100);
	cr_expect_eq(b[0].end, 0x120);
	cr_expect_eq(b[1].begin, 0x200);
	cr_expect_eq(b[1].end, 0x210);
	free(b);
	emu_bts_fini(&bts);
}

Test(bts, wrap_keeps_newest)
{
	struct emu_bts bts;
	struct trace_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 4), 0);
	cr_assert_eq(bts.cap, 4);
	for (uint64_t i = 0; i < 6; i++) {
		emu_bts_start(&bts, i * 0x10);
		emu_bts_close(&bts, i * 0x10 + 4);
	}
	n = read_bts(&bts, emu_bts_read_all, true, &b);
	cr_assert_eq(n, 4);
	cr_expect_eq(b[0].begin, 0x20, "the two oldest were overwritten");
	cr_expect_eq(b[3].begin, 0x50);
	free(b);
	emu_bts_fini(&bts);
}

/* A stop is no branch: the block goes on when the thread resumes where
   it stopped, and a read ends it at the stop (GDB's current pc) or at
   the last instruction run (the oracle's view).  */
Test(bts, stop_pauses_the_block)
{
	struct emu_bts bts;
	struct trace_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 8), 0);
	emu_bts_start(&bts, 0x100);
	emu_bts_pause(&bts, 0x104, 0x100);   /* a stepi */
	n = read_bts(&bts, emu_bts_read_all, true, &b);
	cr_assert_eq(n, 1);
	cr_expect_eq(b[0].begin, 0x100);
	cr_expect_eq(b[0].end, 0x104, "ends at the stop pc");
	free(b);
	n = read_bts(&bts, emu_bts_read_all, false, &b);
	cr_assert_eq(n, 1);
	cr_expect_eq(b[0].end, 0x100, "ends at the last instruction run");
	free(b);

	emu_bts_start(&bts, 0x104);          /* resumed where it stopped */
	emu_bts_pause(&bts, 0x108, 0x104);
	emu_bts_start(&bts, 0x108);
	emu_bts_close(&bts, 0x10c);          /* a taken branch */
	emu_bts_start(&bts, 0x400);
	emu_bts_pause(&bts, 0x400, 0x10c);   /* stopped at its start */
	n = read_bts(&bts, emu_bts_read_all, true, &b);
	cr_assert_eq(n, 2);
	cr_expect_eq(b[0].begin, 0x100);
	cr_expect_eq(b[0].end, 0x10c, "one block across two stops");
	cr_expect_eq(b[1].begin, 0x400);
	cr_expect_eq(b[1].end, 0x400);
	free(b);
	n = read_bts(&bts, emu_bts_read_all, false, &b);
	cr_expect_eq(n, 1, "nothing of the newest block ran");
	free(b);
	emu_bts_fini(&bts);
}

/* Resumed elsewhere (a signal handler): the paused block ends at the
   last instruction run, a new one starts.  */
Test(bts, resume_elsewhere_ends_the_block)
{
	struct emu_bts bts;
	struct trace_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 8), 0);
	emu_bts_start(&bts, 0x100);
	emu_bts_pause(&bts, 0x108, 0x104);
	emu_bts_start(&bts, 0x800);
	emu_bts_pause(&bts, 0x804, 0x800);
	n = read_bts(&bts, emu_bts_read_all, true, &b);
	cr_assert_eq(n, 2);
	cr_expect_eq(b[0].begin, 0x100);
	cr_expect_eq(b[0].end, 0x104);
	cr_expect_eq(b[1].begin, 0x800);
	cr_expect_eq(b[1].end, 0x804);
	free(b);
	emu_bts_fini(&bts);
}

/* "new": everything when anything ran since the last read, else
   nothing (gdbserver's meaning).  */
Test(bts, new_reads_all_or_nothing)
{
	struct emu_bts bts;
	struct trace_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 8), 0);
	emu_bts_start(&bts, 0x100);
	emu_bts_close(&bts, 0x104);
	emu_bts_start(&bts, 0x200);
	emu_bts_pause(&bts, 0x204, 0x200);
	n = read_bts(&bts, emu_bts_read_new, true, &b);
	cr_expect_eq(n, 2, "the first read has everything");
	free(b);
	n = read_bts(&bts, emu_bts_read_new, true, &b);
	cr_expect_eq(n, 0, "nothing ran since");
	free(b);
	emu_bts_start(&bts, 0x204);
	emu_bts_pause(&bts, 0x206, 0x204);   /* one step, no branch */
	n = read_bts(&bts, emu_bts_read_new, true, &b);
	cr_assert_eq(n, 2, "a step without a branch is new trace too");
	cr_expect_eq(b[1].end, 0x206);
	free(b);
	emu_bts_fini(&bts);
}

/* "delta": what GDB stitches to its trace, which ended at the last
   read's stop: the chronologically first block has begin 0.  */
Test(bts, delta_continues_the_last_read)
{
	struct emu_bts bts;
	struct trace_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 8), 0);
	emu_bts_start(&bts, 0x100);
	emu_bts_pause(&bts, 0x108, 0x104);
	cr_expect_eq(read_bts(&bts, emu_bts_read_delta, true, &b),
		     -pse_unsupported, "no read to continue yet");
	n = read_bts(&bts, emu_bts_read_all, true, &b);
	cr_assert_eq(n, 1);
	free(b);

	n = read_bts(&bts, emu_bts_read_delta, true, &b);
	cr_assert_eq(n, 1, "no progress: the partial block at the pc");
	cr_expect_eq(b[0].begin, 0);
	cr_expect_eq(b[0].end, 0x108);
	free(b);

	emu_bts_start(&bts, 0x108);
	emu_bts_close(&bts, 0x110);
	emu_bts_start(&bts, 0x300);
	emu_bts_close(&bts, 0x308);
	emu_bts_start(&bts, 0x500);
	emu_bts_pause(&bts, 0x504, 0x500);
	n = read_bts(&bts, emu_bts_read_delta, true, &b);
	cr_assert_eq(n, 3);
	cr_expect_eq(b[0].begin, 0);
	cr_expect_eq(b[0].end, 0x110);
	cr_expect_eq(b[1].begin, 0x300);
	cr_expect_eq(b[2].begin, 0x500);
	cr_expect_eq(b[2].end, 0x504);
	free(b);

	/* Resumed elsewhere: the stop GDB's trace ends at never ran.  */
	emu_bts_start(&bts, 0x900);
	emu_bts_pause(&bts, 0x904, 0x900);
	cr_expect_eq(read_bts(&bts, emu_bts_read_delta, true, &b),
		     -pse_unsupported);
	n = read_bts(&bts, emu_bts_read_new, true, &b);
	cr_expect_eq(n, 4, "new still has all");
	free(b);

	/* More blocks than the ring holds since the last read.  */
	emu_bts_start(&bts, 0x904);
	emu_bts_close(&bts, 0x908);
	for (uint64_t i = 0; i < 9; i++) {
		emu_bts_start(&bts, 0x1000 + i * 0x10);
		emu_bts_close(&bts, 0x1004 + i * 0x10);
	}
	cr_expect_eq(read_bts(&bts, emu_bts_read_delta, true, &b),
		     -pse_range);
	emu_bts_fini(&bts);
}

/* A copy (a trace bundle saved) is no read of GDB's: "new" and "delta"
   go on from GDB's last read.  */
Test(bts, copy_leaves_new_and_delta_alone)
{
	struct emu_bts bts;
	struct trace_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 8), 0);
	emu_bts_start(&bts, 0x100);
	emu_bts_pause(&bts, 0x104, 0x100);
	n = read_bts(&bts, emu_bts_read_all, true, &b);
	free(b);
	emu_bts_start(&bts, 0x104);
	emu_bts_close(&bts, 0x108);
	emu_bts_start(&bts, 0x200);
	emu_bts_pause(&bts, 0x204, 0x200);
	n = read_bts(&bts, emu_bts_read_copy, true, &b);
	cr_expect_eq(n, 2, "everything, as all");
	free(b);
	n = read_bts(&bts, emu_bts_read_delta, true, &b);
	cr_assert_eq(n, 2, "still since GDB's read");
	cr_expect_eq(b[0].begin, 0);
	cr_expect_eq(b[0].end, 0x108);
	cr_expect_eq(b[1].end, 0x204);
	free(b);
	emu_bts_fini(&bts);
}
