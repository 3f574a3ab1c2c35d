/* The code cache: lookups, duplicates, the limit.  */
#include "nat/emu/emu_cache.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdlib.h>

static struct emu_walk *walk_at(uint64_t start)
{
	struct emu_walk *walk = calloc(1, sizeof(*walk));

	walk->start = start;
	walk->stop = start + 4;
	return walk;
}

Test(cache, find_add_flush)
{
	struct emu_cache cache;
	struct emu_walk *dup;

	cr_assert_eq(emu_cache_init(&cache, 100), 0);
	for (uint64_t i = 0; i < 50; i++)
		cr_assert_eq(emu_cache_add(&cache, walk_at(0x400000 + i * 16)),
			     0);
	cr_expect_eq(cache.count, 50);
	cr_assert_not_null(emu_cache_find(&cache, 0x400000 + 7 * 16));
	cr_expect_eq(emu_cache_find(&cache, 0x400000 + 7 * 16)->stop,
		     0x400000 + 7 * 16 + 4);
	cr_expect_null(emu_cache_find(&cache, 0x400001));
	dup = walk_at(0x400000);
	cr_expect_eq(emu_cache_add(&cache, dup), -pse_exists);
	free(dup);
	emu_cache_flush(&cache);
	cr_expect_eq(cache.count, 0);
	cr_expect_null(emu_cache_find(&cache, 0x400000));
	emu_cache_fini(&cache);
}

Test(cache, bounded)
{
	struct emu_cache cache;

	cr_assert_eq(emu_cache_init(&cache, 10), 0);
	for (uint64_t i = 0; i < 25; i++)
		cr_assert_eq(emu_cache_add(&cache, walk_at(i * 64)), 0);
	cr_expect_leq(cache.count, 10);
	cr_expect_eq(cache.flushes, 2);
	cr_expect_not_null(emu_cache_find(&cache, 24 * 64), "newest kept");
	emu_cache_fini(&cache);
}

Test(cache, bounded_in_bytes)
{
	struct emu_cache cache;

	cr_assert_eq(emu_cache_init(&cache, 10000), 0);
	for (uint64_t i = 0; i < 6000; i++) {
		struct emu_walk *walk = walk_at(i * 64);

		walk->nedges = emu_walk_max_edges;
		walk->edges = calloc(walk->nedges, sizeof(*walk->edges));
		cr_assert_eq(emu_cache_add(&cache, walk), 0);
		cr_assert_leq(cache.bytes, (size_t) emu_cache_bytes);
	}
	cr_expect_eq(cache.flushes, 1, "6000 big walks pass 8 MiB once");
	emu_cache_fini(&cache);
}
