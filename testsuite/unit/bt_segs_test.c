/* Compact segment storage: every field round-trips, wide values through
   the escape table, and the bytes a segment takes.  */
#include "btrace/bt_segs.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>

static void append(struct bt_segs *s, uint32_t n)
{
	for (uint32_t i = 0; i < n; ++i)
		cr_assert_eq(bt_segs_append(s), 0);
}

Test(bt_segs, links_near_and_far_round_trip)
{
	struct bt_segs s;

	bt_segs_init(&s);
	append(&s, 100000);
	bt_segs_set_up(&s, 99999, 3);          /* far back: escaped */
	bt_segs_set_prev(&s, 50000, 49998);    /* near */
	bt_segs_set_next(&s, 2, 90000);        /* far ahead */
	bt_segs_set_up(&s, 10, 40);            /* forward, near */
	bt_segs_set_up(&s, 11, 11 + 32767);    /* the widest narrow value */
	bt_segs_set_up(&s, 12, 12 + 32768);    /* one past it */
	cr_assert_eq(bt_segs_up(&s, 99999), 3);
	cr_assert_eq(bt_segs_prev(&s, 50000), 49998);
	cr_assert_eq(bt_segs_next(&s, 2), 90000);
	cr_assert_eq(bt_segs_up(&s, 10), 40);
	cr_assert_eq(bt_segs_up(&s, 11), 11 + 32767);
	cr_assert_eq(bt_segs_up(&s, 12), 12 + 32768);
	cr_assert_eq(s.wide.count, 3, "only the far ones escape");
	bt_segs_set_up(&s, 99999, 0);
	cr_assert_eq(bt_segs_up(&s, 99999), 0, "cleared");
	cr_assert_eq(bt_segs_up(&s, 1), 0, "never set");
	bt_segs_fini(&s);
}

Test(bt_segs, levels_follow_settings_and_range_adds)
{
	struct bt_segs s;
	int want[41];

	bt_segs_init(&s);
	/* Deep and shallow in turn, with a jump no byte holds.  */
	for (uint32_t n = 1; n <= 40; ++n) {
		append(&s, 1);
		cr_assert_eq(bt_segs_level(&s, n), n > 1 ? want[n - 1] : 0,
			     "a new segment starts on its predecessor's level");
		want[n] = n == 20 ? -100000 : (int) (n % 7) - 3;
		bt_segs_set_level(&s, n, want[n]);
	}
	for (uint32_t n = 1; n <= 40; ++n)
		cr_assert_eq(bt_segs_level(&s, n), want[n], "segment %u", n);

	/* From inside a stride and from a stride's start.  */
	bt_segs_add_level(&s, 5, 1000);
	bt_segs_add_level(&s, 17, -7);
	for (uint32_t n = 1; n <= 40; ++n)
		cr_assert_eq(bt_segs_level(&s, n),
			     want[n] + (n >= 5 ? 1000 : 0) - (n >= 17 ? 7 : 0),
			     "segment %u", n);
	/* One step at a time, across strides and the wide jump.  */
	for (uint32_t n = 1, level = 0; n <= 40; ++n) {
		level = (uint32_t) bt_segs_level_next(&s, n, (int) level);
		cr_assert_eq((int) level, bt_segs_level(&s, n), "step to %u",
			     n);
	}
	bt_segs_fini(&s);
}

Test(bt_segs, keys_and_bits_round_trip)
{
	struct bt_segs s;

	bt_segs_init(&s);
	append(&s, 3);
	bt_segs_set_key(&s, 1, 65534);
	bt_segs_set_key(&s, 2, 65535);
	bt_segs_set_key(&s, 3, 1u << 24);
	cr_assert_eq(bt_segs_key(&s, 1), 65534);
	cr_assert_eq(bt_segs_key(&s, 2), 65535);
	cr_assert_eq(bt_segs_key(&s, 3), 1u << 24);

	bt_segs_set_bits(&s, 2, bt_segs_hi_shift, bt_segs_hi_mask, 63);
	bt_segs_set_bits(&s, 2, bt_segs_size_shift, bt_segs_size_mask, 15);
	bt_segs_set_bits(&s, 2, bt_segs_iclass_shift, bt_segs_iclass_mask, 5);
	bt_segs_set_bits(&s, 2, 0, bt_segs_flags_mask, 2);
	cr_assert_eq(bt_segs_bits(&s, 2, bt_segs_hi_shift, bt_segs_hi_mask),
		     63);
	cr_assert_eq(bt_segs_bits(&s, 2, bt_segs_size_shift,
				  bt_segs_size_mask), 15);
	cr_assert_eq(bt_segs_bits(&s, 2, bt_segs_iclass_shift,
				  bt_segs_iclass_mask), 5);
	cr_assert_eq(bt_segs_bits(&s, 2, 0, bt_segs_flags_mask), 2);
	cr_assert_not(bt_segs_is_gap(&s, 2), "no bit spills into the gap's");
	cr_assert_eq(bt_segs_bits(&s, 1, 0, 0xffff), 0);
	bt_segs_fini(&s);
}

Test(bt_segs, counts_and_first_numbers_across_strides)
{
	struct bt_segs s;
	uint32_t insn = 1, block = 0;

	bt_segs_init(&s);
	/* Segment n gets n % 5 blocks of n instructions each (no blocks
	   makes an empty segment); segment 37 is a long one.  */
	for (uint32_t n = 1; n <= 50; ++n) {
		uint32_t nblocks = n == 37 ? 300 : n % 5;

		append(&s, 1);
		for (uint32_t b = 0; b < nblocks; ++b)
			cr_assert_eq(bt_segs_push_block(&s, n, n == 37 ? 255
							: n), 0);
	}
	for (uint32_t n = 1; n <= 50; ++n) {
		uint32_t nblocks = n == 37 ? 300 : n % 5;
		uint32_t ninsn = nblocks * (n == 37 ? 255 : n);

		cr_assert_eq(bt_segs_first_insn(&s, n), insn, "segment %u", n);
		cr_assert_eq(bt_segs_first_block(&s, n), block);
		cr_assert_eq(bt_segs_nnum(&s, n), ninsn);
		cr_assert_eq(bt_segs_nblocks(&s, n), nblocks);
		insn += ninsn;
		block += nblocks;
	}
	cr_assert_eq(s.nblocks, block);
	cr_assert_eq(bt_segs_push_block(&s, 0, 256), -bte_invalid,
		     "a block's count is a byte");
	bt_segs_fini(&s);
}

Test(bt_segs, gaps_take_one_number_and_keep_their_code)
{
	struct bt_segs s;

	bt_segs_init(&s);
	append(&s, 1);
	cr_assert_eq(bt_segs_push_block(&s, 0x1000, 3), 0);
	cr_assert_eq(bt_segs_make_gap(&s, -13), -bte_invalid,
		     "a segment with instructions cannot become a gap");
	append(&s, 1);
	cr_assert_eq(bt_segs_make_gap(&s, -13), 0);
	cr_assert_eq(bt_segs_make_gap(&s, -13), -bte_invalid, "only once");
	append(&s, 1);
	cr_assert_eq(bt_segs_make_gap(&s, 2), 0);
	append(&s, 1);

	cr_assert(bt_segs_is_gap(&s, 2));
	cr_assert_eq(bt_segs_errcode(&s, 2), -13);
	cr_assert_eq(bt_segs_errcode(&s, 3), 2);
	cr_assert_eq(bt_segs_errcode(&s, 1), 0);
	cr_assert_eq(bt_segs_first_insn(&s, 4), 1 + 3 + 1 + 1);
	cr_assert_eq(s.ngaps, 2);
	bt_segs_fini(&s);
}

Test(bt_segs, high_halves_fill_a_table_then_refuse)
{
	struct bt_segs s;

	bt_segs_init(&s);
	for (uint32_t i = 0; i < bt_segs_nhis; ++i)
		cr_assert_eq(bt_segs_hi_index(&s, 0x7f00 + i), (int) i);
	cr_assert_eq(bt_segs_hi_index(&s, 0x7f00), 0, "found again");
	cr_assert_eq(bt_segs_hi_index(&s, 0x1), -1, "full");
	bt_segs_fini(&s);
}

Test(bt_segs, a_segment_takes_under_fourteen_bytes_when_trimmed)
{
	struct bt_segs s;
	const uint32_t n = 4096;

	bt_segs_init(&s);
	for (uint32_t i = 1; i <= n; ++i) {
		append(&s, 1);
		cr_assert_eq(bt_segs_push_block(&s, i, 5), 0);
		if (i > 1)
			bt_segs_set_up(&s, i, i - 1);
	}
	bt_segs_shrink(&s);
	cr_assert_eq(s.cap, n);
	cr_assert_eq(s.blocks_cap, n);
	/* 13 bytes a segment, 12 more every 16, 5 a block.  */
	cr_assert_eq(bt_segs_memory(&s), n * 13 + n / 16 * 12 + n * 5);
	cr_assert_eq(bt_segs_up(&s, n), n - 1, "still there after trimming");
	bt_segs_fini(&s);
}

/* Arrays as mappings: growing within the reservation, past it (the
   mapping moves), and shrinking keep every value; a reservation of two
   pages makes all three happen at a test's size.  */
static void check_mapped(uint32_t n, size_t reserve)
{
	struct bt_segs s;

	bt_segs_init(&s);
	s.reserve = reserve;
	for (uint32_t i = 1; i <= n; ++i) {
		append(&s, 1);
		bt_segs_set_key(&s, i, i % 1000);
		cr_assert_eq(bt_segs_push_block(&s, i * 16, i % 7 + 1), 0);
		cr_assert_eq(bt_segs_push_block(&s, i * 16 + 8, 1), 0);
		if (i > 1)
			bt_segs_set_up(&s, i, i - 1);
	}
	for (int round = 0; round < 2; ++round) {
		for (uint32_t i = 1; i <= n; ++i) {
			uint32_t b = bt_segs_first_block(&s, i);

			cr_assert_eq(bt_segs_key(&s, i), i % 1000);
			cr_assert_eq(bt_segs_up(&s, i), i - 1);
			cr_assert_eq(s.block_ip[b], i * 16);
			cr_assert_eq(s.block_ninsn[b], i % 7 + 1);
			cr_assert_eq(s.block_ip[b + 1], i * 16 + 8);
		}
		bt_segs_shrink(&s);     /* the second round checks after it */
	}
	cr_assert_eq(s.cap, n);
	bt_segs_fini(&s);
	cr_assert_eq(s.reserve, reserve, "kept for the next use");
}

Test(bt_segs, mapped_arrays_keep_their_values_as_they_grow_and_shrink)
{
	check_mapped(100000, 8192);
	check_mapped(3000, bt_segs_reserve);
}
