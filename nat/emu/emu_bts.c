#include "nat/emu/emu_bts.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

int emu_bts_init(struct emu_bts *bts, size_t size)
{
	memset(bts, 0, sizeof(*bts));
	bts->cap = size / emu_bts_record_size;
	if (!bts->cap)
		bts->cap = 1;
	bts->blocks = calloc(bts->cap, sizeof(*bts->blocks));
	if (!bts->blocks)
		return -pse_nomem;
	return 0;
}

void emu_bts_fini(struct emu_bts *bts)
{
	free(bts->blocks);
	bts->blocks = NULL;
}

void emu_bts_close(struct emu_bts *bts, uint64_t last)
{
	if (!bts->open)
		return;
	bts->blocks[bts->count % bts->cap] =
		(struct trace_block) { bts->begin, last };
	bts->count++;
	bts->open = false;
	bts->paused = false;
	/* The block the last read ended in is now blocks[mark_count].  */
	bts->mark_open = false;
	bts->events++;
}

void emu_bts_drop(struct emu_bts *bts)
{
	if (bts->open && bts->mark_open)
		bts->mark_broken = true;
	bts->mark_open = false;
	bts->open = false;
	bts->paused = false;
	bts->events++;
}

void emu_bts_start(struct emu_bts *bts, uint64_t ip)
{
	if (bts->paused) {
		bts->paused = false;
		if (ip == bts->stop)
			return;    /* no branch: the same block goes on */
		/* Moved elsewhere (a signal handler, a changed pc): what a
		   previous read ended at never ran.  */
		if (bts->mark_open)
			bts->mark_broken = true;
		if (bts->last)
			emu_bts_close(bts, bts->last);
		else
			emu_bts_drop(bts);
	}
	if (bts->open)
		return;
	bts->open = true;
	bts->begin = ip;
	bts->events++;
}

void emu_bts_pause(struct emu_bts *bts, uint64_t ip, uint64_t prev)
{
	if (!bts->open)
		return;
	bts->paused = true;
	bts->stop = ip;
	bts->last = ip == bts->begin ? 0 : prev;
	bts->events++;
}

/* The open block as the newest one, if a read shows it.  */
static bool emu_bts_tail(const struct emu_bts *bts, bool to_stop,
			 struct trace_block *tail)
{
	if (!bts->open || !bts->paused)
		return false;
	if (to_stop) {
		*tail = (struct trace_block) { bts->begin, bts->stop };
		return true;
	}
	if (!bts->last)
		return false;
	*tail = (struct trace_block) { bts->begin, bts->last };
	return true;
}

static void emu_bts_mark(struct emu_bts *bts)
{
	bts->read_once = true;
	bts->mark_count = bts->count;
	bts->mark_events = bts->events;
	bts->mark_paused = bts->open && bts->paused;
	bts->mark_open = bts->open;
	bts->mark_broken = false;
}

int emu_bts_read(struct emu_bts *bts, enum emu_bts_read_type type,
		 bool to_stop, struct trace_blocks *out)
{
	uint64_t oldest = bts->count > bts->cap ? bts->count - bts->cap : 0;
	uint64_t from = oldest, n;
	struct trace_block *copy, tail;
	int err;
	bool has_tail = emu_bts_tail(bts, to_stop, &tail);

	if (type == emu_bts_read_delta) {
		if (!bts->read_once || !bts->mark_paused || bts->mark_broken)
			return -pse_unsupported;
		if (bts->mark_count < oldest)
			return -pse_range;
		from = bts->mark_count;
	} else if (type == emu_bts_read_new && bts->read_once &&
		   bts->events == bts->mark_events) {
		from = bts->count;
		has_tail = false;
	}
	n = bts->count - from + has_tail;
	err = trace_blocks_reserve(out, n);
	if (err < 0)
		return err;
	if (n) {
		copy = out->block + out->len;
		for (uint64_t i = from; i < bts->count; i++)
			copy[i - from] = bts->blocks[i % bts->cap];
		if (has_tail)
			copy[n - 1] = tail;
		/* GDB fills in the start of the block its trace ended in.  */
		if (type == emu_bts_read_delta)
			copy[0].begin = 0;
		out->len += n;
	}
	if (type != emu_bts_read_copy)
		emu_bts_mark(bts);
	return 0;
}
