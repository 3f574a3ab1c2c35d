/* The code cache: walks by start address, bounded by a fixed number of
   entries (emu_cache_limit walks, a few MiB at most); when full it is
   emptied and refilled, like a translation cache.  */
#ifndef NAT_EMU_EMU_CACHE_H
#define NAT_EMU_EMU_CACHE_H

#include "nat/emu/emu_walk.h"

#include <stddef.h>
#include <stdint.h>

/* At most this many walks; each is about 80 bytes plus 24 per direct
   branch on it, so the cache stays under about 6 MiB.  */
enum { emu_cache_limit = 32768 };

struct emu_cache {
	struct emu_walk **slots;   /* open addressing, power-of-two size */
	size_t nslots;
	size_t count;
	size_t limit;
	uint64_t flushes;          /* how often it was emptied */
};

/* Room for LIMIT walks (0: emu_cache_limit).  */
int emu_cache_init(struct emu_cache *cache, size_t limit);
void emu_cache_fini(struct emu_cache *cache);

/* The walk starting at START, or NULL.  */
struct emu_walk *emu_cache_find(const struct emu_cache *cache,
				uint64_t start);

/* Take ownership of WALK (malloc'd); may empty the cache first, so
   pointers from earlier finds become invalid.  */
int emu_cache_add(struct emu_cache *cache, struct emu_walk *walk);

/* Forget every walk (code changed, or the map did).  */
void emu_cache_flush(struct emu_cache *cache);

#endif
