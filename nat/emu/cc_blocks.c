#include "nat/emu/cc_blocks.h"
#include "common/ps_array.h"
#include "common/ps_error.h"

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
		free(bs->blocks[i]);
	}
	bs->nblocks = bs->nsorted = 0;
	for (size_t i = 0; i < bs->nbad; i++)
		free(bs->bad[i]);
	bs->nbad = 0;
	memset(bs->table, 0, bs->nslots * sizeof(*bs->table));
}

void cc_blocks_fini(struct cc_blocks *bs)
{
	cc_blocks_clear(bs);
	free(bs->blocks);
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
		if (!bs->table[i])
			return NULL;
		if (bs->table[i]->start == start)
			return bs->table[i];
	}
}

static void cc_table_put(struct cc_blocks *bs, struct cc_block *blk)
{
	size_t s = cc_slot(bs, blk->start);

	while (bs->table[s])
		s = (s + 1) & (bs->nslots - 1);
	bs->table[s] = blk;
}

static int cc_table_room(struct cc_blocks *bs)
{
	struct cc_block **grown;

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

static int cc_by_cache(const void *a, const void *b)
{
	uint64_t x = (*(struct cc_block *const *) a)->cache;
	uint64_t y = (*(struct cc_block *const *) b)->cache;

	return (x > y) - (x < y);
}

/* The recent blocks sorted and merged into the sorted ones: one pass
   per cc_blocks_recent additions, where an insertion each would move
   half the array (a process with code in many chunks adds anywhere).  */
static int cc_blocks_merge(struct cc_blocks *bs)
{
	size_t n = bs->nblocks, k = bs->nsorted, i = 0, j = k, o = 0;
	struct cc_block **out = malloc(n * sizeof(*out));

	if (!out)
		return -pse_nomem;
	qsort(bs->blocks + k, n - k, sizeof(*bs->blocks), cc_by_cache);
	while (i < k || j < n)
		out[o++] = j == n || (i < k && bs->blocks[i]->cache <
				      bs->blocks[j]->cache) ?
			bs->blocks[i++] : bs->blocks[j++];
	memcpy(bs->blocks, out, n * sizeof(*out));
	free(out);
	bs->nsorted = n;
	return 0;
}

int cc_blocks_add(struct cc_blocks *bs, struct cc_block *blk)
{
	if (cc_table_room(bs) < 0)
		return -pse_nomem;
	if (PS_ARRAY_RESERVE(bs->blocks, bs->cap, bs->nblocks + 1))
		return -pse_nomem;
	bs->blocks[bs->nblocks++] = blk;
	cc_table_put(bs, blk);
	if (bs->nblocks - bs->nsorted >= cc_blocks_recent)
		cc_blocks_merge(bs);
	return 0;
}

/* The block whose code holds ADDR, or NULL.  */
struct cc_block *cc_blocks_at(const struct cc_blocks *bs, uint64_t addr)
{
	size_t lo = 0, hi = bs->nsorted;

	for (size_t i = bs->nsorted; i < bs->nblocks; i++)
		if (addr >= bs->blocks[i]->cache &&
		    addr < bs->blocks[i]->cache + bs->blocks[i]->size)
			return bs->blocks[i];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (bs->blocks[mid]->cache <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	return addr < bs->blocks[lo - 1]->cache + bs->blocks[lo - 1]->size ?
		bs->blocks[lo - 1] : NULL;
}
