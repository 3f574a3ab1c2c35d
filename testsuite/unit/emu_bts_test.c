/* BTS blocks: opening, closing, dropping, wrap, and all/new reads.  */
#include "nat/emu/emu_bts.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdlib.h>

Test(bts, blocks_in_order)
{
	struct emu_bts bts;
	struct emu_bts_block *b;
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
	n = emu_bts_read(&bts, false, &b);
	cr_assert_eq(n, 2);
	cr_expect_eq(b[0].begin, 0x100);
	cr_expect_eq(b[0].end, 0x120);
	cr_expect_eq(b[1].begin, 0x200);
	cr_expect_eq(b[1].end, 0x210);
	free(b);
	emu_bts_fini(&bts);
}

Test(bts, wrap_keeps_newest_and_new_reads)
{
	struct emu_bts bts;
	struct emu_bts_block *b;
	long n;

	cr_assert_eq(emu_bts_init(&bts, 24 * 4), 0);
	cr_assert_eq(bts.cap, 4);
	for (uint64_t i = 0; i < 6; i++) {
		emu_bts_start(&bts, i * 0x10);
		emu_bts_close(&bts, i * 0x10 + 4);
	}
	n = emu_bts_read(&bts, false, &b);
	cr_assert_eq(n, 4);
	cr_expect_eq(b[0].begin, 0x20, "the two oldest were overwritten");
	cr_expect_eq(b[3].begin, 0x50);
	free(b);
	emu_bts_start(&bts, 0x60);
	emu_bts_close(&bts, 0x64);
	n = emu_bts_read(&bts, true, &b);
	cr_assert_eq(n, 1);
	cr_expect_eq(b[0].begin, 0x60);
	free(b);
	for (uint64_t i = 0; i < 5; i++) {
		emu_bts_start(&bts, i);
		emu_bts_close(&bts, i);
	}
	cr_expect_eq(emu_bts_read(&bts, true, &b), -pse_range);
	emu_bts_fini(&bts);
}
