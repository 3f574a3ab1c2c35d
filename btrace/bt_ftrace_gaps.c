/* Bridging gaps in the function trace and normalizing levels, by GDB's
   rules (btrace_bridge_gaps): connect the segments left and right of a
   gap whose back traces match best, wanting many matches first.  */
#include "btrace/bt_ftrace.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* SEG's caller, skipping tail calls (ftrace_get_caller).  */
static struct bt_seg *bt_get_caller(const struct bt_ftrace *ft,
				    struct bt_seg *seg)
{
	for (; seg; seg = bt_ftrace_seg(ft, seg->up))
		if (!(seg->flags & btff_up_links_to_tailcall))
			return bt_ftrace_seg(ft, seg->up);
	return NULL;
}

static int bt_switched(const struct bt_ftrace *ft, const struct bt_seg *a,
		       const struct bt_seg *b)
{
	if (a->key == b->key)
		return 0;
	return bt_func_key_switched(bt_seg_key(ft, a), bt_seg_key(ft, b));
}

static int bt_match_backtrace(const struct bt_ftrace *ft, struct bt_seg *lhs,
			      struct bt_seg *rhs)
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
static void bt_fixup_level(struct bt_ftrace *ft, struct bt_seg *seg,
			   int adjustment)
{
	if (!adjustment || !seg)
		return;
	for (size_t i = bt_seg_number(ft, seg) - 1; i < ft->nsegs; ++i)
		ft->segs[i].level += adjustment;
}

void bt_ftrace_set_caller(struct bt_ftrace *ft, struct bt_seg *seg,
			  const struct bt_seg *caller, uint8_t flags)
{
	uint32_t up = bt_seg_number(ft, caller), prev = seg->prev,
		 next = seg->next;

	seg->up = up;
	seg->flags = flags;
	for (; prev; prev = seg->prev) {
		seg = bt_ftrace_seg(ft, prev);
		seg->up = up;
		seg->flags = flags;
	}
	for (; next; next = seg->next) {
		seg = bt_ftrace_seg(ft, next);
		seg->up = up;
		seg->flags = flags;
	}
}

/* Connect PREV and NEXT across a gap (ftrace_connect_bfun).  */
static void bt_connect(struct bt_ftrace *ft, struct bt_seg *prev,
		       struct bt_seg *next)
{
	prev->next = bt_seg_number(ft, next);
	next->prev = bt_seg_number(ft, prev);

	bt_fixup_level(ft, next, prev->level - next->level);

	/* If one runs out of back trace, use the other's.  */
	if (!prev->up) {
		uint8_t flags = next->flags;
		struct bt_seg *caller = bt_ftrace_seg(ft, next->up);

		if (caller)
			bt_ftrace_set_caller(ft, prev, caller, flags);
	} else if (!next->up) {
		uint8_t flags = prev->flags;
		struct bt_seg *caller = bt_ftrace_seg(ft, prev->up);

		if (caller)
			bt_ftrace_set_caller(ft, next, caller, flags);
	} else if (prev->flags & btff_up_links_to_tailcall) {
		/* Give NEXT PREV's tail callers; if they end without a real
		   call, hang NEXT's old caller at their top.  */
		struct bt_seg *caller = bt_ftrace_seg(ft, next->up);
		uint8_t next_flags = next->flags, prev_flags = prev->flags;

		prev = bt_ftrace_seg(ft, prev->up);
		bt_ftrace_set_caller(ft, next, prev, prev_flags);

		for (; prev; prev = bt_ftrace_seg(ft, prev->up)) {
			if (!prev->up) {
				bt_ftrace_set_caller(ft, prev, caller,
						     next_flags);
				/* Only fine because this is the last step of
				   the walk in bt_connect_backtrace.  */
				bt_fixup_level(ft, caller, prev->level
					       - caller->level - 1);
				break;
			}
			if (!(prev->flags & btff_up_links_to_tailcall))
				break;
		}
	}
}

static void bt_connect_backtrace(struct bt_ftrace *ft, struct bt_seg *lhs,
				 struct bt_seg *rhs)
{
	while (lhs && rhs) {
		struct bt_seg *prev = lhs, *next = rhs;

		lhs = bt_get_caller(ft, lhs);
		rhs = bt_get_caller(ft, rhs);
		bt_connect(ft, prev, next);
	}
}

static int bt_bridge_gap(struct bt_ftrace *ft, struct bt_seg *lhs,
			 struct bt_seg *rhs, int min_matches)
{
	struct bt_seg *best_l = NULL, *best_r = NULL, *l, *r;
	int best = 0;

	for (l = lhs; l; l = bt_get_caller(ft, l))
		for (r = rhs; r; r = bt_get_caller(ft, r)) {
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
	bt_fixup_level(ft, rhs, best_l->level - best_r->level);
	bt_connect_backtrace(ft, best_l, best_r);
	return best;
}

void bt_ftrace_finish_levels(struct bt_ftrace *ft)
{
	int level = INT_MAX;
	const struct bt_seg *last;

	if (!ft->nsegs)
		return;
	for (size_t i = 0; i + 1 < ft->nsegs; ++i)
		if (ft->segs[i].level < level)
			level = ft->segs[i].level;

	/* A last segment holding just the current instruction is not really
	   part of the trace.  */
	last = &ft->segs[ft->nsegs - 1];
	if (last->errcode || bt_seg_ninsn(ft, last) != 1)
		if (last->level < level)
			level = last->level;
	ft->level = level == INT_MAX ? 0 : -level;
}

void bt_ftrace_bridge_gaps(struct bt_ftrace *ft)
{
	uint32_t *gaps, *remaining;
	size_t ngaps = ft->ngaps, nremaining;

	gaps = malloc((ngaps + 1) * sizeof(*gaps));
	remaining = malloc((ngaps + 1) * sizeof(*remaining));
	if (!gaps || !remaining) {
		free(gaps);
		free(remaining);
		bt_ftrace_finish_levels(ft);
		return;
	}
	memcpy(gaps, ft->gaps, ngaps * sizeof(*gaps));

	for (int min_matches = 5; min_matches > 0; --min_matches) {
		while (ngaps) {
			nremaining = 0;
			for (size_t i = 0; i < ngaps; ++i) {
				struct bt_seg *lhs, *rhs;

				/* Only the leftmost of a run of gaps, and not
				   at the start of the trace.  */
				lhs = bt_ftrace_seg(ft, gaps[i] - 1);
				if (!lhs || lhs->errcode)
					continue;
				rhs = bt_ftrace_seg(ft, gaps[i] + 1);
				while (rhs && rhs->errcode)
					rhs = bt_ftrace_seg(ft,
						bt_seg_number(ft, rhs) + 1);
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
