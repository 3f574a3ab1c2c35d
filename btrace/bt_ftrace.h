/* Function segments, library-internal side: compact storage and the
   builder interface the decoders (PT, BTS) feed.  */
#ifndef BT_FTRACE_H
#define BT_FTRACE_H

#include "btrace/bt_image.h"

/* A block of sequential, contiguous instructions; only the last one may
   branch.  Eight bytes: the trace is stored as blocks, not instructions,
   to stay within a few bytes per instruction.  The high half of the
   address comes from the segment (ip_hi), changed by a marker block of no
   instructions whose ip_lo holds the new high half.  */
struct bt_block {
	uint32_t ip_lo;
	uint16_t ninsn;           /* 0 for a marker */
	uint16_t end_off;         /* last insn's ip minus the first's */
};

/* A function segment in storage; its number is its index plus one.  Its
   blocks run from block_begin to the next segment's.  */
struct bt_seg {
	uint32_t insn_offset;
	uint32_t ninsn;
	uint32_t up, prev, next;
	int32_t level;
	uint32_t key;             /* index into the key table */
	uint32_t block_begin;
	uint32_t ip_hi;           /* the high half of its blocks' addresses */
	uint8_t flags;            /* enum bt_function_flag */
	int8_t errcode;           /* libipt's and GDB's codes are small */
	uint8_t last_iclass;      /* enum bt_insn_class of its last insn */
	uint8_t last_size;        /* that insn's length, 0 if not known */
};

struct bt_ftrace {
	enum bt_format format;
	const struct bt_image *image;

	struct bt_block *blocks;
	size_t nblocks, blocks_cap;
	uint64_t last_ip;         /* the last segment's last instruction */
	uint32_t cur_hi;          /* the high half its blocks now use */
	struct bt_seg *segs;
	size_t nsegs, segs_cap;

	/* Distinct function identities, hashed by their pointers.  */
	struct bt_func_key *keys;
	size_t nkeys, keys_cap;
	uint32_t *key_hash;       /* key index + 1, 0 = empty */
	size_t key_hash_size;

	/* The last identity lookup and the range it holds for.  */
	uint64_t cache_lo, cache_hi;
	uint32_t cache_key;
	int cache_valid;

	uint32_t *gaps;           /* numbers of gap segments */
	size_t ngaps, gaps_cap;
	int min_level;            /* minimum level seen while decoding */
	int track_level;          /* whether new instructions count for it */
	int level;                /* the normalizing offset */
	int error;                /* a fatal error (nomem) while building */
};

/* Add NINSN instructions from IP to END_IP, the last of class ICLASS
   (its LAST_SIZE if known, else 0), splitting at function changes.  */
int bt_ftrace_add_block(struct bt_ftrace *ft, uint64_t ip, uint64_t end_ip,
			uint32_t ninsn, enum bt_insn_class iclass,
			unsigned int last_size);

/* Add a gap for ERRCODE (GDB's ftrace_new_gap).  */
int bt_ftrace_add_gap(struct bt_ftrace *ft, int errcode);

/* After decoding: bridge gaps and normalize levels (bt_ftrace_gaps.c).  */
void bt_ftrace_finish_levels(struct bt_ftrace *ft);
void bt_ftrace_bridge_gaps(struct bt_ftrace *ft);

/* Segment NUMBER or NULL (GDB's ftrace_find_call_by_number).  */
static inline struct bt_seg *bt_ftrace_seg(const struct bt_ftrace *ft,
					   uint32_t number)
{
	if (number == 0 || number > ft->nsegs)
		return NULL;
	return &ft->segs[number - 1];
}

/* The number of blocks (markers included) of SEG.  */
static inline uint32_t bt_seg_nblocks(const struct bt_ftrace *ft,
				      const struct bt_seg *seg)
{
	uint32_t number = (uint32_t) (seg - ft->segs) + 1;
	uint32_t end = number < ft->nsegs ? ft->segs[number].block_begin
		: (uint32_t) ft->nblocks;

	return end - seg->block_begin;
}

static inline uint32_t bt_seg_number(const struct bt_ftrace *ft,
				     const struct bt_seg *seg)
{
	return (uint32_t) (seg - ft->segs) + 1;
}

static inline const struct bt_func_key *
bt_seg_key(const struct bt_ftrace *ft, const struct bt_seg *seg)
{
	return &ft->keys[seg->key];
}

/* The decoders (bt_pt_decode.c, bt_bts_decode.c).  */
int bt_pt_decode(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		 struct bt_diag *diag);
int bt_bts_decode(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		  struct bt_diag *diag);

#endif
