/* The code cache: walks by start address, bounded by a number of walks
   and by the bytes they take (emu_cache_bytes, plus 16 bytes of table
   per walk allowed); when either bound is reached it is emptied and
   refilled, like a translation cache.  */
#ifndef NAT_EMU_EMU_CACHE_H
#define NAT_EMU_EMU_CACHE_H

#include "nat/emu/emu_walk.h"

#include <stddef.h>
#include <stdint.h>

/* At most this many walks, and this many bytes of walks (each is 240
   bytes plus 24 per direct branch on it): under 9 MiB in all.  */
enum { emu_cache_limit = 32768, emu_cache_bytes = 8 << 20 };

struct emu_cache {
	struct emu_walk **slots;   /* open addressing, power-of-two size */
	size_t nslots;
	size_t count;
	size_t limit;
	size_t bytes;              /* taken by the walks held */
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
