/* The trace's time by instruction number: entries only where the TSC
   changes, the earlier entry holding up to the next.  */
#include "btrace/bt_times.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>

Test(bt_times, empty_has_no_time)
{
	struct bt_times t;
	uint64_t tsc = 7;

	bt_times_init(&t);
	cr_assert_eq(bt_times_at(&t, 1, &tsc), -bte_notfound);
	cr_assert_eq(tsc, 7);
	bt_times_fini(&t);
}

Test(bt_times, earlier_entry_holds_until_the_next)
{
	struct bt_times t;
	uint64_t tsc;

	bt_times_init(&t);
	cr_assert_eq(bt_times_push(&t, 1, 100), 0);
	cr_assert_eq(bt_times_push(&t, 10, 100), 0);   /* unchanged */
	cr_assert_eq(bt_times_push(&t, 20, 500), 0);
	cr_assert_eq(t.n, 2);
	cr_assert_eq(bt_times_at(&t, 1, &tsc), 0);
	cr_assert_eq(tsc, 100);
	cr_assert_eq(bt_times_at(&t, 19, &tsc), 0);
	cr_assert_eq(tsc, 100);
	cr_assert_eq(bt_times_at(&t, 20, &tsc), 0);
	cr_assert_eq(tsc, 500);
	cr_assert_eq(bt_times_at(&t, 4000000000u, &tsc), 0);
	cr_assert_eq(tsc, 500);
	bt_times_fini(&t);
}

Test(bt_times, before_the_first_entry_takes_the_first)
{
	struct bt_times t;
	uint64_t tsc;

	bt_times_init(&t);
	cr_assert_eq(bt_times_push(&t, 5, 300), 0);
	cr_assert_eq(bt_times_at(&t, 1, &tsc), 0);
	cr_assert_eq(tsc, 300);
	bt_times_fini(&t);
}

Test(bt_times, second_time_at_one_number_replaces_the_first)
{
	struct bt_times t;
	uint64_t tsc;

	bt_times_init(&t);
	cr_assert_eq(bt_times_push(&t, 1, 100), 0);
	cr_assert_eq(bt_times_push(&t, 8, 200), 0);
	cr_assert_eq(bt_times_push(&t, 8, 300), 0);
	cr_assert_eq(t.n, 2);
	cr_assert_eq(bt_times_at(&t, 8, &tsc), 0);
	cr_assert_eq(tsc, 300);
	/* Back to the time before: the entry goes.  */
	cr_assert_eq(bt_times_push(&t, 8, 100), 0);
	cr_assert_eq(t.n, 1);
	bt_times_fini(&t);
}

Test(bt_times, many_entries_are_found_by_number)
{
	struct bt_times t;
	uint64_t tsc;

	bt_times_init(&t);
	for (uint32_t i = 0; i < 10000; ++i)
		cr_assert_eq(bt_times_push(&t, 1 + 3 * i, 1000 + i), 0);
	cr_assert_eq(t.n, 10000);
	for (uint32_t n = 1; n < 30000; n += 7) {
		cr_assert_eq(bt_times_at(&t, n, &tsc), 0);
		cr_assert_eq(tsc, 1000 + (n - 1) / 3, "at %u", n);
	}
	bt_times_fini(&t);
}
