#include "nat/emu/emu_maps.h"
#include "common/ps_array.h"
#include "common/ps_error.h"

#include <stdio.h>
#include <stdlib.h>

void emu_maps_init(struct emu_maps *maps)
{
	maps->maps = NULL;
	maps->count = 0;
	maps->cap = 0;
	maps->stale = true;
}

void emu_maps_fini(struct emu_maps *maps)
{
	free(maps->maps);
	emu_maps_init(maps);
}

int emu_maps_load(struct emu_maps *maps, pid_t pid)
{
	char path[64], line[512];
	FILE *file;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) pid);
	file = fopen(path, "re");
	if (!file)
		return -pse_io;
	maps->count = 0;
	while (fgets(line, sizeof(line), file)) {
		unsigned long long start, end;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s", &start, &end, perms) != 3)
			continue;
		if (PS_ARRAY_RESERVE(maps->maps, maps->cap, maps->count + 1)) {
			fclose(file);
			return -pse_nomem;
		}
		maps->maps[maps->count++] = (struct emu_map) {
			start, end, perms[0] == 'r', perms[1] == 'w',
			perms[2] == 'x',
		};
	}
	fclose(file);
	maps->stale = false;
	return 0;
}

const struct emu_map *emu_maps_find(const struct emu_maps *maps,
				    uint64_t addr)
{
	size_t lo = 0, hi = maps->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct emu_map *map = &maps->maps[mid];

		if (addr < map->start)
			hi = mid;
		else if (addr >= map->end)
			lo = mid + 1;
		else
			return map;
	}
	return NULL;
}

bool emu_maps_cacheable(const struct emu_maps *maps, uint64_t addr)
{
	const struct emu_map *map = emu_maps_find(maps, addr);

	return map && map->x && !map->w;
}
