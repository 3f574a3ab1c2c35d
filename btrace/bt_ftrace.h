/* The segment builder, library-internal side: the trace's state and the
   interface the decoders (PT, BTS) feed.  Segment fields by number are
   in bt_seg.h, the decoders in bt_decode.h, the driver that joins them
   in bt_build.c.  */
#ifndef BT_FTRACE_H
#define BT_FTRACE_H

#include "btrace/bt_image.h"
#include "btrace/bt_segs.h"
#include "btrace/bt_times.h"

struct bt_ftrace {
	enum bt_format format;
	const struct bt_image *image;

	struct bt_segs segs;      /* the segments, their blocks and gaps */
	uint64_t last_ip;         /* the last segment's last instruction */
	uint32_t cur_hi;          /* the high half its blocks now use */

	/* Distinct function identities, hashed by their pointers.  */
	struct bt_func_key *keys;
	size_t nkeys, keys_cap;
	uint32_t *key_hash;       /* key index + 1, 0 = empty */
	size_t key_hash_size;

	/* The last function asked whether it is _dl_runtime_resolve.  */
	uint32_t resolver_key;
	int resolver_asked, resolver;

	/* The last identity lookup and the range it holds for.  */
	uint64_t cache_lo, cache_hi;
	uint32_t cache_key;
	int cache_valid;

	int min_level;            /* minimum level seen while decoding */
	int track_level;          /* whether new instructions count for it */
	bt_progress_fn *progress; /* or NULL */
	void *progress_ctx;
	int level;                /* the normalizing offset */
	struct bt_times times;    /* the TSC by instruction number (PT) */
};

/* An empty trace of FORMAT over IMAGE, reporting to PROGRESS (or NULL);
   NULL when out of memory.  */
struct bt_ftrace *bt_ftrace_alloc(enum bt_format format,
				   const struct bt_image *image,
				   bt_progress_fn *progress, void *ctx);

/* After the decoder's last block: bridge gaps, normalize levels, give
   back spare memory.  */
int bt_ftrace_finish(struct bt_ftrace *ft, struct bt_diag *diag);

/* Add NINSN instructions from IP to END_IP, the last of class ICLASS
   (its LAST_SIZE if known, else 0), splitting at function changes.  */
int bt_ftrace_add_block(struct bt_ftrace *ft, uint64_t ip, uint64_t end_ip,
			uint32_t ninsn, enum bt_insn_class iclass,
			unsigned int last_size);

/* Add a gap for ERRCODE (GDB's ftrace_new_gap).  */
int bt_ftrace_add_gap(struct bt_ftrace *ft, int errcode);

/* From the next instruction on, the time is TSC (the decoder's latest
   timing packet).  */
int bt_ftrace_add_time(struct bt_ftrace *ft, uint64_t tsc);

/* Make CALLER the caller of SEG and of all its other parts (its prev and
   next chain), with FLAGS (GDB's ftrace_fixup_caller).  */
void bt_ftrace_set_caller(struct bt_ftrace *ft, uint32_t seg, uint32_t caller,
			  unsigned int flags);

/* After decoding: bridge gaps and normalize levels (bt_ftrace_gaps.c).  */
void bt_ftrace_finish_levels(struct bt_ftrace *ft);
void bt_ftrace_bridge_gaps(struct bt_ftrace *ft);

/* How often (in blocks) a decoder reports its progress.  */
enum { bt_progress_every = 1 << 16 };

static inline void bt_ftrace_progress(const struct bt_ftrace *ft,
				      uint64_t done, uint64_t total)
{
	if (ft->progress)
		ft->progress(ft->progress_ctx, done, total);
}

#endif
