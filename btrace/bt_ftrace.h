/* Function segments, library-internal side: compact storage and the
   builder interface the decoders (PT, BTS) feed.  */
#ifndef BT_FTRACE_H
#define BT_FTRACE_H

#include "btrace/bt_image.h"

/* A block of sequential, contiguous instructions; only the last one may
   branch.  Eight bytes: the trace is stored as blocks, not instructions,
   to stay within a few bytes per instruction.  The high half of the
   address comes from the segment (hi), changed by a marker block of no
   instructions whose ip_lo holds the new high half.  */
struct bt_block {
	uint32_t ip_lo;
	uint16_t ninsn;           /* 0 for a marker */
	uint16_t end_off;         /* last insn's ip minus the first's */
};

/* A function segment in storage (32 bytes); its number is its index plus
   one.  Its blocks run from block_begin to the next segment's, its
   instructions from insn_offset to the next segment's (bt_seg_ninsn).  */
struct bt_seg {
	uint32_t insn_offset;
	uint32_t up, prev, next;
	int32_t level;
	uint32_t key;             /* index into the key table */
	uint32_t block_begin;
	uint8_t flags;            /* enum bt_function_flag */
	int8_t errcode;           /* libipt's and GDB's codes are small */
	uint8_t last_iclass : 4;  /* enum bt_insn_class of its last insn */
	uint8_t last_size : 4;    /* that insn's length, 0 if not known */
	uint8_t hi;               /* its blocks' high address half: his[hi] */
};

struct bt_ftrace {
	enum bt_format format;
	const struct bt_image *image;

	struct bt_block *blocks;
	size_t nblocks, blocks_cap;
	uint64_t last_ip;         /* the last segment's last instruction */
	uint32_t last_ninsn;      /* the last segment's instruction count */
	uint32_t cur_hi;          /* the high half its blocks now use */
	/* The distinct high address halves segments start with (few: one
	   or two per object); past 256, a marker block sets it.  */
	uint32_t his[256];
	uint32_t nhis;
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
	bt_progress_fn *progress; /* or NULL */
	void *progress_ctx;
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

/* Make CALLER the caller of SEG and of all its other parts (its prev and
   next chain), with FLAGS (GDB's ftrace_fixup_caller).  */
void bt_ftrace_set_caller(struct bt_ftrace *ft, struct bt_seg *seg,
			  const struct bt_seg *caller, uint8_t flags);

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

/* The number of instructions of SEG (0 for a gap).  */
static inline uint32_t bt_seg_ninsn(const struct bt_ftrace *ft,
				    const struct bt_seg *seg)
{
	size_t i = (size_t) (seg - ft->segs);

	if (seg->errcode)
		return 0;
	if (i + 1 < ft->nsegs)
		return ft->segs[i + 1].insn_offset - seg->insn_offset;
	return ft->last_ninsn;
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

/* A gap's text in the histories, "[...]\n" (GDB's
   btrace_ui_out_decode_error).  */
void bt_print_gap(FILE *out, enum bt_format format, int errcode);

/* A history iterator: a segment index (the call history uses it alone)
   and an instruction index in it.  */
struct bt_hist_it {
	uint32_t seg;
	uint32_t index;
};

typedef unsigned int (*bt_hist_step_fn)(const struct bt_ftrace *ft,
					struct bt_hist_it *it,
					unsigned int stride);

/* GDB's window for "", "+" (forward) and "-" (BACKWARD) without prior
   history: BEGIN and END start at the trace's end and grow by CONTEXT
   with NEXT and PREV.  Returns how much they cover; *AT_EDGE is set to
   -1/1 (GDB's "At the start/end ...") when nothing.  */
void bt_history_end_window(const struct bt_ftrace *ft, bt_hist_step_fn next,
			   bt_hist_step_fn prev, int backward,
			   unsigned int context, struct bt_hist_it *begin,
			   struct bt_hist_it *end, int *at_edge);

/* GDB's history size: 0 ("unlimited") is INT_MAX.  */
int bt_history_size(unsigned int size);

/* The instruction or segment numbers [*LOW, *HIGH] a numeric RANGE
   (btcr_from, btcr_between) names, as GDB's *_history_from and
   *_history_range compute them, with their errors; WHAT is the setting
   ("function-call-history").  */
int bt_history_range_numbers(const struct bt_call_range *range, int size,
			     const char *what, unsigned int *low,
			     unsigned int *high, struct bt_diag *diag);

/* GDB's "At the start/end of the branch trace record." for AT_EDGE
   -1/1, or an empty JSON array.  */
void bt_print_edge(FILE *out, int at_edge, int json);

/* TEXT as a JSON string.  */
void bt_json_string(FILE *out, const char *text);

/* The decoders (bt_pt_decode.c, bt_bts_decode.c).  */
int bt_pt_decode(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		 struct bt_diag *diag);
int bt_bts_decode(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		  struct bt_diag *diag);

/* How often (in blocks) a decoder reports its progress.  */
enum { bt_progress_every = 1 << 16 };

static inline void bt_ftrace_progress(const struct bt_ftrace *ft,
				      uint64_t done, uint64_t total)
{
	if (ft->progress)
		ft->progress(ft->progress_ctx, done, total);
}

#endif
