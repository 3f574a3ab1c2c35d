/* Bridging gaps in the function trace and normalizing levels, by GDB's
   rules (btrace_bridge_gaps): connect the segments left and right of a
   gap whose back traces match best, wanting many matches first.  */
#include "btrace/bt_seg.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* SEG's caller, skipping tail calls (ftrace_get_caller).  */
static uint32_t bt_get_caller(const struct bt_ftrace *ft, uint32_t seg)
{
	for (; seg; seg = bt_seg_up(ft, seg))
		if (!(bt_seg_flags(ft, seg) & btff_up_links_to_tailcall))
			return bt_seg_up(ft, seg);
	return 0;
}

static int bt_switched(const struct bt_ftrace *ft, uint32_t a, uint32_t b)
{
	if (bt_segs_key(&ft->segs, a) == bt_segs_key(&ft->segs, b))
		return 0;
	return bt_func_key_switched(bt_seg_func(ft, a), bt_seg_func(ft, b));
}

static int bt_match_backtrace(const struct bt_ftrace *ft, uint32_t lhs,
			      uint32_t rhs)
{
	int matches;

	for (matches = 0; lhs && rhs; ++matches) {
		if (bt_switched(ft, lhs, rhs))
			return 0;
		lhs = bt_get_caller(ft, lhs);
		rhs = bt_get_caller(ft, rhs);
	}
	return matches;
}

/* Add ADJUSTMENT to the level of SEG and all later segments.  */
static void bt_fixup_level(struct bt_ftrace *ft, uint32_t seg, int adjustment)
{
	bt_segs_add_level(&ft->segs, seg, adjustment);
}

void bt_ftrace_set_caller(struct bt_ftrace *ft, uint32_t seg, uint32_t caller,
			  unsigned int flags)
{
	uint32_t prev = bt_seg_prev(ft, seg), next = bt_seg_next(ft, seg);

	bt_segs_set_up(&ft->segs, seg, caller);
	bt_seg_set_flags(ft, seg, flags);
	for (; prev; prev = bt_seg_prev(ft, prev)) {
		bt_segs_set_up(&ft->segs, prev, caller);
		bt_seg_set_flags(ft, prev, flags);
	}
	for (; next; next = bt_seg_next(ft, next)) {
		bt_segs_set_up(&ft->segs, next, caller);
		bt_seg_set_flags(ft, next, flags);
	}
}

/* Connect PREV and NEXT across a gap (ftrace_connect_bfun).  */
static void bt_connect(struct bt_ftrace *ft, uint32_t prev, uint32_t next)
{
	uint32_t prev_up, next_up;

	bt_segs_set_next(&ft->segs, prev, next);
	bt_segs_set_prev(&ft->segs, next, prev);

	bt_fixup_level(ft, next,
		       bt_seg_level(ft, prev) - bt_seg_level(ft, next));

	/* If one runs out of back trace, use the other's.  */
	prev_up = bt_seg_up(ft, prev);
	next_up = bt_seg_up(ft, next);
	if (!prev_up) {
		if (next_up)
			bt_ftrace_set_caller(ft, prev, next_up,
					     bt_seg_flags(ft, next));
	} else if (!next_up) {
		bt_ftrace_set_caller(ft, next, prev_up, bt_seg_flags(ft, prev));
	} else if (bt_seg_flags(ft, prev) & btff_up_links_to_tailcall) {
		/* Give NEXT PREV's tail callers; if they end without a real
		   call, hang NEXT's old caller at their top.  */
		uint32_t caller = next_up;
		unsigned int next_flags = bt_seg_flags(ft, next);

		bt_ftrace_set_caller(ft, next, prev_up, bt_seg_flags(ft, prev));

		for (prev = prev_up; prev; prev = bt_seg_up(ft, prev)) {
			if (!bt_seg_up(ft, prev)) {
				bt_ftrace_set_caller(ft, prev, caller,
						     next_flags);
				/* Only fine because this is the last step of
				   the walk in bt_connect_backtrace.  */
				bt_fixup_level(ft, caller,
					       bt_seg_level(ft, prev)
					       - bt_seg_level(ft, caller) - 1);
				break;
			}
			if (!(bt_seg_flags(ft, prev) &
			      btff_up_links_to_tailcall))
				break;
		}
	}
}

static void bt_connect_backtrace(struct bt_ftrace *ft, uint32_t lhs,
				 uint32_t rhs)
{
	while (lhs && rhs) {
		uint32_t prev = lhs, next = rhs;

		lhs = bt_get_caller(ft, lhs);
		rhs = bt_get_caller(ft, rhs);
		bt_connect(ft, prev, next);
	}
}

static int bt_bridge_gap(struct bt_ftrace *ft, uint32_t lhs, uint32_t rhs,
			 int min_matches)
{
	uint32_t best_l = 0, best_r = 0;
	int best = 0;

	for (uint32_t l = lhs; l; l = bt_get_caller(ft, l))
		for (uint32_t r = rhs; r; r = bt_get_caller(ft, r)) {
			int matches = bt_match_backtrace(ft, l, r);

			if (best < matches) {
				best = matches;
				best_l = l;
				best_r = r;
			}
		}
	if (best < min_matches)
		return 0;

	/* Level RHS and what follows to BEST_L now; connecting BEST_L to
	   BEST_R then finds them on the same level.  */
	bt_fixup_level(ft, rhs, bt_seg_level(ft, best_l)
		       - bt_seg_level(ft, best_r));
	bt_connect_backtrace(ft, best_l, best_r);
	return best;
}

void bt_ftrace_finish_levels(struct bt_ftrace *ft)
{
	uint32_t last = bt_nsegs(ft);
	int level = INT_MAX;

	if (!last)
		return;
	for (uint32_t n = 1; n < last; ++n)
		if (bt_seg_level(ft, n) < level)
			level = bt_seg_level(ft, n);

	/* A last segment holding just the current instruction is not really
	   part of the trace.  */
	if (bt_seg_is_gap(ft, last) || bt_seg_ninsn(ft, last) != 1)
		if (bt_seg_level(ft, last) < level)
			level = bt_seg_level(ft, last);
	ft->level = level == INT_MAX ? 0 : -level;
}

void bt_ftrace_bridge_gaps(struct bt_ftrace *ft)
{
	uint32_t *gaps, *remaining;
	size_t ngaps = ft->segs.ngaps, nremaining;

	gaps = malloc((ngaps + 1) * sizeof(*gaps));
	remaining = malloc((ngaps + 1) * sizeof(*remaining));
	if (!gaps || !remaining) {
		free(gaps);
		free(remaining);
		bt_ftrace_finish_levels(ft);
		return;
	}
	memcpy(gaps, ft->segs.gaps, ngaps * sizeof(*gaps));

	for (int min_matches = 5; min_matches > 0; --min_matches) {
		while (ngaps) {
			nremaining = 0;
			for (size_t i = 0; i < ngaps; ++i) {
				uint32_t lhs, rhs;

				/* Only the leftmost of a run of gaps, and not
				   at the start of the trace.  */
				lhs = bt_seg_valid(ft, gaps[i] - 1);
				if (!lhs || bt_seg_is_gap(ft, lhs))
					continue;
				rhs = bt_seg_valid(ft, gaps[i] + 1);
				while (rhs && bt_seg_is_gap(ft, rhs))
					rhs = bt_seg_valid(ft, rhs + 1);
				if (!rhs)
					continue;
				if (!bt_bridge_gap(ft, lhs, rhs, min_matches))
					remaining[nremaining++] = gaps[i];
			}
			if (nremaining == ngaps)
				break;
			memcpy(gaps, remaining, nremaining * sizeof(*gaps));
			ngaps = nremaining;
		}
		if (!ngaps)
			break;
	}
	free(gaps);
	free(remaining);
	bt_ftrace_finish_levels(ft);
}
