/* Function segments, library-internal side: the trace's state, the
   builder interface the decoders (PT, BTS) feed, and segment fields by
   number over the compact storage (bt_segs.h).  */
#ifndef BT_FTRACE_H
#define BT_FTRACE_H

#include "btrace/bt_image.h"
#include "btrace/bt_segs.h"

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
void bt_ftrace_set_caller(struct bt_ftrace *ft, uint32_t seg, uint32_t caller,
			  unsigned int flags);

/* After decoding: bridge gaps and normalize levels (bt_ftrace_gaps.c).  */
void bt_ftrace_finish_levels(struct bt_ftrace *ft);
void bt_ftrace_bridge_gaps(struct bt_ftrace *ft);

/* Segments by number (from 1, as GDB numbers them): the number of
   segments, and each one's fields.  */
static inline uint32_t bt_nsegs(const struct bt_ftrace *ft)
{
	return (uint32_t) ft->segs.count;
}

/* NUMBER if it names a segment, else 0 (ftrace_find_call_by_number).  */
static inline uint32_t bt_seg_valid(const struct bt_ftrace *ft,
				    uint32_t number)
{
	return number <= ft->segs.count ? number : 0;
}

static inline uint32_t bt_seg_up(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_up(&ft->segs, seg);
}

static inline uint32_t bt_seg_prev(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_prev(&ft->segs, seg);
}

static inline uint32_t bt_seg_next(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_next(&ft->segs, seg);
}

static inline int bt_seg_level(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_level(&ft->segs, seg);
}

static inline unsigned int bt_seg_flags(const struct bt_ftrace *ft,
					uint32_t seg)
{
	return bt_segs_bits(&ft->segs, seg, 0, bt_segs_flags_mask);
}

static inline void bt_seg_set_flags(struct bt_ftrace *ft, uint32_t seg,
				    unsigned int flags)
{
	bt_segs_set_bits(&ft->segs, seg, 0, bt_segs_flags_mask, flags);
}

/* The error code of a gap, 0 for a function segment.  */
static inline int bt_seg_errcode(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_is_gap(&ft->segs, seg) ? bt_segs_errcode(&ft->segs, seg)
		: 0;
}

static inline int bt_seg_is_gap(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_is_gap(&ft->segs, seg);
}

/* The number of instructions of SEG (0 for a gap).  */
static inline uint32_t bt_seg_ninsn(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_is_gap(&ft->segs, seg) ? 0
		: bt_segs_nnum(&ft->segs, seg);
}

/* The instruction numbers SEG takes: a gap counts as one.  */
static inline uint32_t bt_seg_nnum(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_segs_nnum(&ft->segs, seg);
}

/* The number of SEG's first instruction.  */
static inline uint32_t bt_seg_insn_offset(const struct bt_ftrace *ft,
					  uint32_t seg)
{
	return bt_segs_first_insn(&ft->segs, seg);
}

static inline const struct bt_func_key *bt_seg_func(const struct bt_ftrace *ft,
						    uint32_t seg)
{
	return &ft->keys[bt_segs_key(&ft->segs, seg)];
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

/* How the PT decoder hands blocks to the builder: from a thread of its
   own or not, through NCHUNKS chunks of CHUNK_SIZE records.  */
struct bt_pt_pipe {
	int threaded;
	size_t nchunks, chunk_size;
};

extern const struct bt_pt_pipe bt_pt_pipe_default;

/* The PT decoder (bt_pt_decode.c).  */
int bt_pt_decode_piped(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		       struct bt_diag *diag, const struct bt_pt_pipe *pipe);

/* bt_ftrace_build_progress with PIPE for a PT trace.  */
int bt_ftrace_build_piped(struct bt_ftrace **ftrace,
			  const struct bt_bundle *bundle,
			  const struct bt_image *image, struct bt_diag *diag,
			  bt_progress_fn *progress, void *ctx,
			  const struct bt_pt_pipe *pipe);

/* The BTS decoder (bt_bts_decode.c).  */
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
