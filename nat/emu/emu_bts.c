#include "nat/emu/emu_bts.h"
#include "common/ps_error.h"

#include <stdlib.h>

int emu_bts_init(struct emu_bts *bts, size_t size)
{
	bts->cap = size / emu_bts_record_size;
	if (!bts->cap)
		bts->cap = 1;
	bts->blocks = calloc(bts->cap, sizeof(*bts->blocks));
	if (!bts->blocks)
		return -pse_nomem;
	bts->count = 0;
	bts->read_mark = 0;
	bts->open = false;
	bts->begin = 0;
	return 0;
}

void emu_bts_fini(struct emu_bts *bts)
{
	free(bts->blocks);
	bts->blocks = NULL;
}

void emu_bts_start(struct emu_bts *bts, uint64_t ip)
{
	if (bts->open)
		return;
	bts->open = true;
	bts->begin = ip;
}

void emu_bts_close(struct emu_bts *bts, uint64_t last)
{
	if (!bts->open)
		return;
	bts->blocks[bts->count % bts->cap] =
		(struct emu_bts_block) { bts->begin, last };
	bts->count++;
	bts->open = false;
}

void emu_bts_drop(struct emu_bts *bts)
{
	bts->open = false;
}

long emu_bts_read(struct emu_bts *bts, bool only_new,
		  struct emu_bts_block **out)
{
	uint64_t oldest = bts->count > bts->cap ? bts->count - bts->cap : 0;
	uint64_t from = oldest;
	struct emu_bts_block *copy;

	if (only_new) {
		if (bts->read_mark < oldest)
			return -pse_range;
		from = bts->read_mark;
	}
	copy = malloc((bts->count - from + 1) * sizeof(*copy));
	if (!copy)
		return -pse_nomem;
	for (uint64_t i = from; i < bts->count; i++)
		copy[i - from] = bts->blocks[i % bts->cap];
	bts->read_mark = bts->count;
	*out = copy;
	return (long) (bts->count - from);
}
