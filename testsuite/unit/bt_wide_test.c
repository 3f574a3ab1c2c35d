/* The escape table of wide values.  */
#include "btrace/bt_wide.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>

Test(bt_wide, values_come_back_by_field_and_index)
{
	struct bt_wide wide;

	bt_wide_init(&wide);
	cr_assert_eq(bt_wide_get(&wide, 1, 7), 0, "never set reads 0");
	cr_assert_eq(bt_wide_set(&wide, 1, 7, 70000), 0);
	cr_assert_eq(bt_wide_set(&wide, 2, 7, 0xdeadbeef), 0);
	cr_assert_eq(bt_wide_get(&wide, 1, 7), 70000);
	cr_assert_eq(bt_wide_get(&wide, 2, 7), 0xdeadbeef);
	cr_assert_eq(bt_wide_get(&wide, 1, 8), 0);
	cr_assert_eq(bt_wide_set(&wide, 1, 7, 5), 0, "overwrite");
	cr_assert_eq(bt_wide_get(&wide, 1, 7), 5);
	cr_assert_eq(wide.count, 2);
	bt_wide_fini(&wide);
}

Test(bt_wide, it_grows_past_many_entries_and_keeps_them)
{
	struct bt_wide wide;
	const uint32_t n = 100000;

	bt_wide_init(&wide);
	for (uint32_t i = 0; i < n; ++i)
		cr_assert_eq(bt_wide_set(&wide, 1 + i % 3, i * 7919u, i), 0);
	for (uint32_t i = 0; i < n; ++i)
		cr_assert_eq(bt_wide_get(&wide, 1 + i % 3, i * 7919u), i);
	cr_assert_eq(wide.count, n);
	cr_assert_leq(2 * wide.count, wide.size, "at most half full");
	cr_assert_eq(bt_wide_memory(&wide), wide.size * 12);
	bt_wide_fini(&wide);
	cr_assert_eq(bt_wide_memory(&wide), 0);
}

Test(bt_wide, field_zero_is_refused)
{
	struct bt_wide wide;

	bt_wide_init(&wide);
	cr_assert_eq(bt_wide_set(&wide, 0, 1, 1), -bte_invalid);
	cr_assert_eq(wide.count, 0);
	bt_wide_fini(&wide);
}
