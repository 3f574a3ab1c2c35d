/* The memory map reader on this very process.  */
#include "nat/emu/emu_maps.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int global_data = 1;

Test(maps, code_data_and_jit_pages)
{
	struct emu_maps maps;
	void *rwx = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *rx = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const struct emu_map *map;
	int local = 0;

	cr_assert_neq(rwx, MAP_FAILED);
	cr_assert_neq(rx, MAP_FAILED);
	cr_assert_eq(mprotect(rx, 4096, PROT_READ | PROT_EXEC), 0);
	emu_maps_init(&maps);
	cr_expect(maps.stale);
	cr_assert_eq(emu_maps_load(&maps, getpid()), 0);
	cr_expect(!maps.stale);

	map = emu_maps_find(&maps, (uint64_t) (uintptr_t) &emu_maps_find);
	cr_assert_not_null(map);
	cr_expect(map->x && !map->w);
	cr_expect(emu_maps_cacheable(&maps,
				     (uint64_t) (uintptr_t) &emu_maps_find));
	cr_expect(!emu_maps_cacheable(&maps, (uint64_t) (uintptr_t) &local));
	cr_expect(!emu_maps_cacheable(&maps,
				      (uint64_t) (uintptr_t) &global_data));
	cr_expect(!emu_maps_cacheable(&maps, (uint64_t) (uintptr_t) rwx),
		  "writable code is never cached");
	cr_expect(emu_maps_cacheable(&maps, (uint64_t) (uintptr_t) rx));
	cr_expect_null(emu_maps_find(&maps, 0x1000));
	emu_maps_fini(&maps);
	munmap(rwx, 4096);
	munmap(rx, 4096);
}

Test(maps, no_such_process)
{
	struct emu_maps maps;

	emu_maps_init(&maps);
	cr_expect_lt(emu_maps_load(&maps, 0x7ffffff0), 0);
	emu_maps_fini(&maps);
}
