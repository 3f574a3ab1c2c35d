/* The decoder-to-builder block queue: every chunk arrives, in order,
   whichever side waits; a cancel or a close never leaves a side
   waiting.  */
#include "btrace/bt_blockq.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <pthread.h>

enum { nchunks_given = 1000 };

/* Gives nchunks_given chunks numbered in their records' ip, or fewer if
   cancelled; counts what it gave.  */
struct producer {
	struct bt_blockq *q;
	size_t given;
};

static void *produce(void *arg)
{
	struct producer *p = arg;

	for (size_t i = 0; i < nchunks_given; ++i) {
		struct bt_blockq_chunk *c = bt_blockq_free_chunk(p->q);

		if (!c)
			break;
		c->n = 1 + i % p->q->chunk_size;
		for (size_t k = 0; k < c->n; ++k)
			c->recs[k].ip = i * 1000 + k;
		c->offset = i;
		bt_blockq_give(p->q);
		p->given += 1;
	}
	bt_blockq_close(p->q);
	return NULL;
}

Test(bt_blockq, sizes_of_zero_are_refused)
{
	struct bt_blockq q;

	cr_assert_eq(bt_blockq_init(&q, 0, 16), -bte_invalid);
	cr_assert_eq(bt_blockq_init(&q, 4, 0), -bte_invalid);
	bt_blockq_fini(&q);
}

static void run_in_order(size_t nchunks, size_t chunk_size)
{
	struct bt_blockq q;
	struct producer p = { &q, 0 };
	struct bt_blockq_chunk *c;
	pthread_t thread;
	size_t taken = 0;

	cr_assert_eq(bt_blockq_init(&q, nchunks, chunk_size), 0);
	cr_assert_eq(pthread_create(&thread, NULL, produce, &p), 0);
	while ((c = bt_blockq_full_chunk(&q)) != NULL) {
		cr_assert_eq(c->offset, taken);
		cr_assert_eq(c->n, 1 + taken % chunk_size);
		for (size_t k = 0; k < c->n; ++k)
			cr_assert_eq(c->recs[k].ip, taken * 1000 + k);
		bt_blockq_take(&q);
		taken += 1;
	}
	pthread_join(thread, NULL);
	cr_assert_eq(taken, nchunks_given);
	cr_assert_eq(p.given, nchunks_given);
	bt_blockq_fini(&q);
}

Test(bt_blockq, every_chunk_arrives_in_order)
{
	run_in_order(1, 1);      /* each side waits for the other each time */
	run_in_order(2, 3);
	run_in_order(8, 64);
}

Test(bt_blockq, a_cancel_stops_a_waiting_producer)
{
	struct bt_blockq q;
	struct producer p = { &q, 0 };
	pthread_t thread;

	cr_assert_eq(bt_blockq_init(&q, 2, 4), 0);
	cr_assert_eq(pthread_create(&thread, NULL, produce, &p), 0);
	cr_assert_not_null(bt_blockq_full_chunk(&q));
	bt_blockq_take(&q);
	bt_blockq_cancel(&q);
	pthread_join(thread, NULL);
	/* It stopped early: at most the ring's two plus the one taken.  */
	cr_assert_lt(p.given, nchunks_given);
	cr_assert_leq(p.given, 3);
	bt_blockq_fini(&q);
}

Test(bt_blockq, a_closed_empty_queue_gives_nothing)
{
	struct bt_blockq q;

	cr_assert_eq(bt_blockq_init(&q, 2, 4), 0);
	bt_blockq_close(&q);
	cr_assert_null(bt_blockq_full_chunk(&q));
	bt_blockq_fini(&q);
}
