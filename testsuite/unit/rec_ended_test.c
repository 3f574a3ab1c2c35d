/* Ended threads' traces: kept in the order the threads ended, within
   the budget, the oldest dropped first and counted against their
   process; an exec or a process's end forgets them uncounted.  */
#include "rec/recorder.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *bytes(size_t n)
{
	uint8_t *p = malloc(n);

	cr_assert_not_null(p);
	memset(p, 0x02, n);
	return p;
}

static void setup(struct recorder *rec, size_t budget)
{
	memset(rec, 0, sizeof(*rec));
	rec->sigfd = -1;
	rec->opts.ended_size = budget;
	cr_assert_not_null(rec_space_new(rec, 100, NULL));
	cr_assert_not_null(rec_space_new(rec, 200, NULL));
}

Test(rec_ended, kept_in_order_within_the_budget)
{
	struct recorder rec;
	struct bt_thread t[4];

	setup(&rec, 1000);
	cr_assert_eq(rec_ended_keep(&rec, 100, 101, bytes(300), 300, 0), 0);
	cr_assert_eq(rec_ended_keep(&rec, 200, 201, bytes(300), 300, 0), 0);
	cr_assert_eq(rec_ended_keep(&rec, 100, 102, bytes(400), 400, 7), 0);
	cr_assert_eq(rec.ended_bytes, 1000);
	cr_assert_eq(rec_ended_count(&rec, 100), 2);
	cr_assert_eq(rec_ended_fill(&rec, 100, t), 2);
	cr_assert_eq(t[0].tid, 101);
	cr_assert_eq(t[1].tid, 102);
	cr_assert_eq(t[1].trace_size, 400);
	cr_assert_eq(t[1].lost, 7);
	cr_assert(t[0].ended && t[1].ended);
	cr_assert_eq(rec_space_of(&rec, 100)->ended_dropped, 0);
	rec_fini(&rec);
}

Test(rec_ended, the_oldest_go_first_and_are_counted)
{
	struct recorder rec;
	struct bt_thread t[4];
	struct rec_space *a, *b;

	setup(&rec, 1000);
	a = rec_space_of(&rec, 100);
	b = rec_space_of(&rec, 200);
	rec_ended_keep(&rec, 100, 101, bytes(300), 300, 0);
	rec_ended_keep(&rec, 200, 201, bytes(300), 300, 0);
	rec_ended_keep(&rec, 100, 102, bytes(300), 300, 0);
	/* 1200 bytes: 101 goes, the oldest.  */
	rec_ended_keep(&rec, 200, 202, bytes(300), 300, 0);
	cr_assert_eq(rec.ended_bytes, 900);
	cr_assert_eq(a->ended_dropped, 1);
	cr_assert_eq(a->ended_dropped_bytes, 300);
	cr_assert_eq(b->ended_dropped, 0);
	cr_assert_eq(rec_ended_fill(&rec, 100, t), 1);
	cr_assert_eq(t[0].tid, 102);
	/* One larger than the budget leaves nothing, itself included.  */
	rec_ended_keep(&rec, 200, 203, bytes(1500), 1500, 0);
	cr_assert_eq(rec.nended, 0);
	cr_assert_eq(rec.ended_bytes, 0);
	cr_assert_eq(a->ended_dropped, 2);
	cr_assert_eq(b->ended_dropped, 3);
	cr_assert_eq(b->ended_dropped_bytes, 2100);
	rec_fini(&rec);
}

Test(rec_ended, forgetting_a_process_counts_nothing)
{
	struct recorder rec;
	struct bt_thread t[4];

	setup(&rec, 1000);
	rec_ended_keep(&rec, 100, 101, bytes(100), 100, 0);
	rec_ended_keep(&rec, 200, 201, bytes(100), 100, 0);
	rec_ended_keep(&rec, 100, 102, bytes(100), 100, 0);
	rec_ended_forget(&rec, 100);
	cr_assert_eq(rec.nended, 1);
	cr_assert_eq(rec.ended_bytes, 100);
	cr_assert_eq(rec_space_of(&rec, 100)->ended_dropped, 0);
	cr_assert_eq(rec_ended_fill(&rec, 200, t), 1);
	cr_assert_eq(t[0].tid, 201);
	rec_fini(&rec);
}
