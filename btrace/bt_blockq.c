/* The decoder-to-builder block queue (bt_blockq.h).  */
#include "btrace/bt_blockq.h"
#include "btrace/ptbtrace.h"

#include <stdlib.h>
#include <string.h>

int bt_blockq_init(struct bt_blockq *q, size_t nchunks, size_t chunk_size)
{
	memset(q, 0, sizeof(*q));
	if (!nchunks || !chunk_size)
		return -bte_invalid;
	q->chunks = calloc(nchunks, sizeof(*q->chunks));
	if (!q->chunks)
		return -bte_nomem;
	q->nchunks = nchunks;
	q->chunk_size = chunk_size;
	if (pthread_mutex_init(&q->lock, NULL) != 0) {
		bt_blockq_fini(q);
		return -bte_nomem;
	}
	if (pthread_cond_init(&q->cond, NULL) != 0) {
		pthread_mutex_destroy(&q->lock);
		bt_blockq_fini(q);
		return -bte_nomem;
	}
	q->synced = 1;
	return 0;
}

void bt_blockq_fini(struct bt_blockq *q)
{
	if (q->synced) {
		pthread_cond_destroy(&q->cond);
		pthread_mutex_destroy(&q->lock);
	}
	for (size_t i = 0; q->chunks && i < q->nchunks; ++i)
		free(q->chunks[i].recs);
	free(q->chunks);
	memset(q, 0, sizeof(*q));
}

struct bt_blockq_chunk *bt_blockq_free_chunk(struct bt_blockq *q)
{
	struct bt_blockq_chunk *chunk = NULL;

	pthread_mutex_lock(&q->lock);
	while (!q->cancelled && q->tail - q->head == q->nchunks)
		pthread_cond_wait(&q->cond, &q->lock);
	if (!q->cancelled)
		chunk = &q->chunks[q->tail % q->nchunks];
	pthread_mutex_unlock(&q->lock);

	/* Only the producer touches a chunk the consumer has not been
	   given: its records can be allocated without the lock.  */
	if (chunk && !chunk->recs) {
		chunk->recs = malloc(q->chunk_size * sizeof(*chunk->recs));
		if (!chunk->recs) {
			q->error = -bte_nomem;
			return NULL;
		}
	}
	if (chunk)
		chunk->n = 0;
	return chunk;
}

void bt_blockq_give(struct bt_blockq *q)
{
	pthread_mutex_lock(&q->lock);
	/* The consumer waits only on an empty ring.  */
	if (q->tail++ == q->head)
		pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void bt_blockq_close(struct bt_blockq *q)
{
	pthread_mutex_lock(&q->lock);
	q->closed = 1;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

struct bt_blockq_chunk *bt_blockq_full_chunk(struct bt_blockq *q)
{
	struct bt_blockq_chunk *chunk = NULL;

	pthread_mutex_lock(&q->lock);
	while (!q->closed && q->tail == q->head)
		pthread_cond_wait(&q->cond, &q->lock);
	if (q->tail != q->head)
		chunk = &q->chunks[q->head % q->nchunks];
	pthread_mutex_unlock(&q->lock);
	return chunk;
}

void bt_blockq_take(struct bt_blockq *q)
{
	pthread_mutex_lock(&q->lock);
	/* The producer waits only on a full ring.  */
	if (q->tail - q->head++ == q->nchunks)
		pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void bt_blockq_cancel(struct bt_blockq *q)
{
	pthread_mutex_lock(&q->lock);
	q->cancelled = 1;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}
