/* A bounded queue of decoded blocks between one producer (the PT block
   decoder, on a thread of its own) and one consumer (the segment
   builder), handed over a chunk at a time so that the lock is taken once
   per thousands of blocks.  Chunks are allocated as the producer first
   needs them: a consumer that keeps up uses a few, one that is held up
   (reading debug information at its first question, say) lets the
   producer run ahead by up to all of them.  */
#ifndef BT_BLOCKQ_H
#define BT_BLOCKQ_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

enum bt_blockrec_kind {
	bt_rec_block,             /* instructions from ip to end_ip */
	bt_rec_gap,               /* a gap for errcode */
	bt_rec_gap_if_any,        /* the same, unless nothing came before */
	bt_rec_time,              /* the TSC in ip, from the next block on */
};

/* One decoded block or one event that makes a gap, in 16 bytes.  */
struct bt_blockrec {
	union {
		uint64_t ip;      /* a block's first instruction; a time's TSC */
		int64_t errcode;  /* a gap's */
	};
	uint32_t end;             /* its last instruction, from ip */
	uint16_t ninsn;
	uint8_t kind;             /* enum bt_blockrec_kind */
	uint8_t iclass : 4;       /* enum bt_insn_class of the last */
	uint8_t size : 4;         /* its size if known, else 0 */
};

struct bt_blockq_chunk {
	struct bt_blockrec *recs;
	size_t n;
	uint64_t offset;          /* the trace offset decoded up to */
};

struct bt_blockq {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct bt_blockq_chunk *chunks;   /* a ring of nchunks */
	size_t nchunks, chunk_size;
	int error;                /* the producer could not get memory */
	size_t head, tail;        /* chunks taken, chunks given (ever) */
	int closed;               /* the producer gives no more */
	int cancelled;            /* the consumer takes no more */
	int synced;               /* lock and cond are initialized */
};

/* At most NCHUNKS chunks of CHUNK_SIZE records each (both at least
   1).  */
int bt_blockq_init(struct bt_blockq *q, size_t nchunks, size_t chunk_size);
void bt_blockq_fini(struct bt_blockq *q);

/* Producer: an empty chunk to fill, waiting for one; NULL once the
   consumer cancelled, or (with error set) when out of memory.  */
struct bt_blockq_chunk *bt_blockq_free_chunk(struct bt_blockq *q);
/* Producer: the chunk bt_blockq_free_chunk gave is filled.  */
void bt_blockq_give(struct bt_blockq *q);
/* Producer: no more chunks.  */
void bt_blockq_close(struct bt_blockq *q);

/* Consumer: the next filled chunk, waiting for one; NULL once the queue
   is closed and empty.  */
struct bt_blockq_chunk *bt_blockq_full_chunk(struct bt_blockq *q);
/* Consumer: the chunk bt_blockq_full_chunk gave is used up.  */
void bt_blockq_take(struct bt_blockq *q);
/* Consumer: stop the producer (after an error).  */
void bt_blockq_cancel(struct bt_blockq *q);

#endif
