/* The code cache's block index: by start, by cache address, marks.  */
#include "nat/emu/cc_blocks.h"

#include <criterion/criterion.h>
#include <stdlib.h>

static struct cc_block *block(uint64_t start, uint64_t cache, uint32_t size)
{
	struct cc_block *blk = calloc(1, sizeof(*blk));

	cr_assert_not_null(blk);
	blk->start = start;
	blk->cache = cache;
	blk->size = size;
	return blk;
}

Test(cc_blocks, find_by_start_and_by_address)
{
	struct cc_blocks bs;

	cr_assert_eq(cc_blocks_init(&bs), 0);
	/* Added out of cache order, and more than the first table holds. */
	for (uint64_t i = 0; i < 3000; i++) {
		uint64_t slot = (i * 7919) % 3000;

		cr_assert_eq(cc_blocks_add(&bs, block(0x401000 + slot * 3,
				0x10000 + slot * 64, 48)), 0);
	}
	for (uint64_t slot = 0; slot < 3000; slot++) {
		struct cc_block *b = cc_blocks_find(&bs, 0x401000 + slot * 3);

		cr_assert_not_null(b);
		cr_assert_eq(b->cache, 0x10000 + slot * 64);
		cr_assert_eq(cc_blocks_at(&bs, b->cache + 47), b);
		/* The gap after a block's code is no block's.  */
		cr_assert_null(cc_blocks_at(&bs, b->cache + 48));
	}
	cr_expect_null(cc_blocks_at(&bs, 0x1000));
	cr_expect_null(cc_blocks_find(&bs, 0x400000));
	cc_blocks_fini(&bs);
}

Test(cc_blocks, marks_and_clear)
{
	struct cc_blocks bs;
	struct cc_block *b;

	cr_assert_eq(cc_blocks_init(&bs), 0);
	cc_blocks_mark_bad(&bs, 0x5000);
	b = cc_blocks_find(&bs, 0x5000);
	cr_assert_not_null(b);
	cr_expect_eq(b->size, 0, "a mark is a block of no code");
	cr_assert_eq(cc_blocks_add(&bs, block(0x6000, 0x9000, 16)), 0);
	cr_expect_null(cc_blocks_at(&bs, 0x5000));
	cc_blocks_clear(&bs);
	cr_expect_null(cc_blocks_find(&bs, 0x5000));
	cr_expect_null(cc_blocks_find(&bs, 0x6000));
	cr_expect_null(cc_blocks_at(&bs, 0x9000));
	cc_blocks_fini(&bs);
}
