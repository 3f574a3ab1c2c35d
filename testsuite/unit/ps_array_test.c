/* common/ps_array.h: growing arrays, the stub's and libptbtrace's.  */
#include "common/ps_array.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

Test(ps_array, grows_by_doubling_and_keeps_items)
{
	int *items = NULL;
	size_t cap = 0;

	for (int i = 0; i < 1000; i++) {
		cr_assert_eq(PS_ARRAY_RESERVE(items, cap, (size_t) i + 1), 0);
		items[i] = i;
	}
	cr_assert_eq(cap, 1024, "cap %zu", cap);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(items[i], i);
	free(items);
}

Test(ps_array, room_enough_changes_nothing)
{
	long *items = NULL, *before;
	size_t cap = 0;

	cr_assert_eq(PS_ARRAY_RESERVE(items, cap, 3), 0);
	cr_assert_eq(cap, 16);
	before = items;
	cr_assert_eq(PS_ARRAY_RESERVE(items, cap, 16), 0);
	cr_assert_eq(items, before);
	cr_assert_eq(cap, 16);
	cr_assert_eq(PS_ARRAY_RESERVE(items, cap, 0), 0);
	free(items);
}

Test(ps_array, a_size_past_memory_fails_unchanged)
{
	char *items = NULL;
	size_t cap = 0;

	cr_assert_eq(PS_ARRAY_RESERVE(items, cap, 10), 0);
	items[9] = 'x';
	cr_assert_eq(PS_ARRAY_RESERVE(items, cap, SIZE_MAX), -1);
	cr_assert_eq(cap, 16);
	cr_assert_eq(items[9], 'x');
	cr_assert_eq(ps_array_reserve(&items, &cap, SIZE_MAX / 4, 8),
		     -1);
	cr_assert_eq(cap, 16);
	free(items);
}
