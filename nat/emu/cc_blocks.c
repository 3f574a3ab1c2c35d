#include "nat/emu/cc_blocks.h"
#include "common/ps_array.h"
#include "common/ps_error.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int cc_blocks_init(struct cc_blocks *bs)
{
	memset(bs, 0, sizeof(*bs));
	bs->nslots = 1024;
	bs->table = calloc(bs->nslots, sizeof(*bs->table));
	return bs->table ? 0 : -pse_nomem;
}

void cc_blocks_clear(struct cc_blocks *bs)
{
	for (size_t i = 0; i < bs->nblocks; i++) {
		cc_block_fini(bs->blocks[i]);
		if (!bs->blocks[i]->slab)
			free(bs->blocks[i]);
	}
	bs->nblocks = 0;
	/* The first slab is kept for the blocks to come.  */
	for (size_t i = 1; i < bs->nslabs; i++)
		free(bs->slabs[i]);
	bs->nslabs = bs->nslabs ? 1 : 0;
	bs->slab_used = 0;
	for (size_t i = 0; i < bs->nwindows; i++)
		free(bs->windows[i].slots);
	bs->nwindows = 0;
	for (size_t i = 0; i < bs->nbad; i++)
		free(bs->bad[i]);
	bs->nbad = 0;
	memset(bs->table, 0, bs->nslots * sizeof(*bs->table));
}

void cc_blocks_fini(struct cc_blocks *bs)
{
	cc_blocks_clear(bs);
	free(bs->blocks);
	for (size_t i = 0; i < bs->nslabs; i++)
		free(bs->slabs[i]);
	free(bs->slabs);
	free(bs->windows);
	free(bs->table);
	free(bs->bad);
}

static size_t cc_slot(const struct cc_blocks *bs, uint64_t start)
{
	return (size_t) ((start * 0x9e3779b97f4a7c15ull) >> 20) &
		(bs->nslots - 1);
}

struct cc_block *cc_blocks_find(const struct cc_blocks *bs, uint64_t start)
{
	for (size_t i = cc_slot(bs, start);; i = (i + 1) & (bs->nslots - 1)) {
		if (!bs->table[i].blk)
			return NULL;
		if (bs->table[i].start == start)
			return bs->table[i].blk;
	}
}

static void cc_table_put(struct cc_blocks *bs, struct cc_block *blk)
{
	size_t s = cc_slot(bs, blk->start);

	while (bs->table[s].blk)
		s = (s + 1) & (bs->nslots - 1);
	bs->table[s].start = blk->start;
	bs->table[s].blk = blk;
}

static int cc_table_room(struct cc_blocks *bs)
{
	struct cc_entry *grown;

	if ((bs->nblocks + bs->nbad + 1) * 2 <= bs->nslots)
		return 0;
	grown = calloc(2 * bs->nslots, sizeof(*grown));
	if (!grown)
		return -pse_nomem;
	free(bs->table);
	bs->table = grown;
	bs->nslots *= 2;
	for (size_t i = 0; i < bs->nblocks; i++)
		cc_table_put(bs, bs->blocks[i]);
	for (size_t i = 0; i < bs->nbad; i++)
		cc_table_put(bs, bs->bad[i]);
	return 0;
}

/* START cannot be taken: remembered so it is not tried again.  */
void cc_blocks_mark_bad(struct cc_blocks *bs, uint64_t start)
{
	struct cc_block *blk;

	if (cc_table_room(bs) < 0)
		return;
	if (PS_ARRAY_RESERVE(bs->bad, bs->badcap, bs->nbad + 1))
		return;
	blk = calloc(1, sizeof(*blk));
	if (!blk)
		return;
	blk->start = start;
	bs->bad[bs->nbad++] = blk;
	cc_table_put(bs, blk);
}

/* The slot of ADDR in the window index (made if MAKE), or NULL.  */
static struct cc_block **cc_slot_at(struct cc_blocks *bs, uint64_t addr,
				    bool make)
{
	uint64_t base = addr & ~((1ull << cc_window_shift) - 1);
	struct cc_window *w = NULL;

	for (size_t i = 0; i < bs->nwindows; i++)
		if (bs->windows[i].base == base) {
			w = &bs->windows[i];
			break;
		}
	if (!w) {
		struct cc_block **slots;

		if (!make || PS_ARRAY_RESERVE(bs->windows, bs->wcap,
					      bs->nwindows + 1))
			return NULL;
		slots = calloc(1u << (cc_window_shift - cc_granule_shift),
			       sizeof(*slots));
		if (!slots)
			return NULL;
		w = &bs->windows[bs->nwindows++];
		w->base = base;
		w->slots = slots;
	}
	return &w->slots[(addr - base) >> cc_granule_shift];
}

struct cc_block *cc_blocks_new(struct cc_blocks *bs)
{
	struct cc_block *blk;

	if (!bs->nslabs || bs->slab_used == cc_slab_blocks) {
		struct cc_block *slab;

		if (PS_ARRAY_RESERVE(bs->slabs, bs->slabcap, bs->nslabs + 1))
			return NULL;
		slab = aligned_alloc(64, cc_slab_blocks * sizeof(*slab));
		if (!slab)
			return NULL;
		bs->slabs[bs->nslabs++] = slab;
		bs->slab_used = 0;
	}
	blk = &bs->slabs[bs->nslabs - 1][bs->slab_used];
	memset(blk, 0, sizeof(*blk));
	return blk;
}

int cc_blocks_add(struct cc_blocks *bs, struct cc_block *blk)
{
	uint64_t g = blk->cache & ~((1ull << cc_granule_shift) - 1);

	if (cc_table_room(bs) < 0)
		return -pse_nomem;
	if (PS_ARRAY_RESERVE(bs->blocks, bs->cap, bs->nblocks + 1))
		return -pse_nomem;
	for (; g < blk->cache + blk->size; g += 1u << cc_granule_shift) {
		struct cc_block **slot = cc_slot_at(bs, g, true);

		if (!slot)
			return -pse_nomem;
		*slot = blk;
	}
	bs->blocks[bs->nblocks++] = blk;
	cc_table_put(bs, blk);
	if (bs->nslabs && blk == &bs->slabs[bs->nslabs - 1][bs->slab_used]) {
		blk->slab = true;
		bs->slab_used++;
	}
	return 0;
}

/* The block whose code holds ADDR, or NULL.  */
struct cc_block *cc_blocks_at(const struct cc_blocks *bs, uint64_t addr)
{
	struct cc_block **slot = cc_slot_at((struct cc_blocks *) bs, addr,
					    false);
	struct cc_block *blk = slot ? *slot : NULL;

	return blk && addr >= blk->cache && addr < blk->cache + blk->size ?
		blk : NULL;
}
