#include "nat/emu/emu_cache.h"
#include "common/ps_error.h"

#include <stdlib.h>

int emu_cache_init(struct emu_cache *cache, size_t limit)
{
	cache->limit = limit ? limit : emu_cache_limit;
	cache->nslots = 16;
	while (cache->nslots < 2 * cache->limit)
		cache->nslots *= 2;
	cache->slots = calloc(cache->nslots, sizeof(*cache->slots));
	cache->count = 0;
	cache->bytes = 0;
	cache->flushes = 0;
	return cache->slots ? 0 : -pse_nomem;
}

void emu_cache_fini(struct emu_cache *cache)
{
	emu_cache_flush(cache);
	free(cache->slots);
	cache->slots = NULL;
}

static size_t emu_cache_hash(const struct emu_cache *cache, uint64_t start)
{
	return (size_t) ((start * 0x9e3779b97f4a7c15ull) >> 20) &
		(cache->nslots - 1);
}

struct emu_walk *emu_cache_find(const struct emu_cache *cache,
				uint64_t start)
{
	size_t i = emu_cache_hash(cache, start);

	for (;;) {
		struct emu_walk *walk = cache->slots[i];

		if (!walk)
			return NULL;
		if (walk->start == start)
			return walk;
		i = (i + 1) & (cache->nslots - 1);
	}
}

int emu_cache_add(struct emu_cache *cache, struct emu_walk *walk)
{
	size_t size = sizeof(*walk) + walk->nedges * sizeof(*walk->edges) +
		(walk->recs ? walk->ninsns * sizeof(*walk->recs) : 0);
	size_t i;

	if (cache->count >= cache->limit ||
	    cache->bytes + size > emu_cache_bytes) {
		emu_cache_flush(cache);
		cache->flushes++;
	}
	i = emu_cache_hash(cache, walk->start);
	while (cache->slots[i]) {
		if (cache->slots[i]->start == walk->start)
			return -pse_exists;
		i = (i + 1) & (cache->nslots - 1);
	}
	cache->slots[i] = walk;
	cache->count++;
	cache->bytes += size;
	return 0;
}

void emu_cache_flush(struct emu_cache *cache)
{
	for (size_t i = 0; i < cache->nslots && cache->count; i++) {
		if (!cache->slots[i])
			continue;
		emu_walk_fini(cache->slots[i]);
		free(cache->slots[i]);
		cache->slots[i] = NULL;
		cache->count--;
	}
	cache->count = 0;
	cache->bytes = 0;
}
