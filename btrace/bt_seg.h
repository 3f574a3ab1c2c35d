/* Segments by number, as the histories, the replay cursor and the
   exporters read them: each segment's links, level, flags, instruction
   counts and function, over the builder's compact storage.  */
#ifndef BT_SEG_H
#define BT_SEG_H

#include "btrace/bt_ftrace.h"

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

#endif
