/* The trace's time by instruction number (bt_times.h).  */
#include "btrace/bt_times.h"
#include "btrace/ptbtrace.h"

#include <stdlib.h>

void bt_times_init(struct bt_times *t)
{
	t->number = NULL;
	t->tsc = NULL;
	t->n = t->cap = 0;
}

void bt_times_fini(struct bt_times *t)
{
	free(t->number);
	free(t->tsc);
	bt_times_init(t);
}

static int bt_times_grow(struct bt_times *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64;
	uint32_t *number = realloc(t->number, cap * sizeof(*number));
	uint64_t *tsc;

	if (!number)
		return -bte_nomem;
	t->number = number;
	tsc = realloc(t->tsc, cap * sizeof(*tsc));
	if (!tsc)
		return -bte_nomem;
	t->tsc = tsc;
	t->cap = cap;
	return 0;
}

int bt_times_push(struct bt_times *t, uint32_t number, uint64_t tsc)
{
	if (t->n && t->tsc[t->n - 1] == tsc)
		return 0;
	if (t->n && t->number[t->n - 1] >= number) {
		t->tsc[t->n - 1] = tsc;
		/* The replaced entry may now repeat the one before it.  */
		if (t->n > 1 && t->tsc[t->n - 2] == tsc)
			t->n -= 1;
		return 0;
	}
	if (t->n == t->cap) {
		int errcode = bt_times_grow(t);

		if (errcode < 0)
			return errcode;
	}
	t->number[t->n] = number;
	t->tsc[t->n] = tsc;
	t->n += 1;
	return 0;
}

int bt_times_at(const struct bt_times *t, uint32_t number, uint64_t *tsc)
{
	size_t lo = 0, hi;

	if (!t->n)
		return -bte_notfound;
	/* The last entry whose number is at most NUMBER.  */
	hi = t->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->number[mid] <= number)
			lo = mid;
		else
			hi = mid;
	}
	*tsc = t->tsc[lo];
	return 0;
}
