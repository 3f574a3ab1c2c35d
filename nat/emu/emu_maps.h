/* The tracee's memory map as the emulator needs it: which code may be
   decoded once and cached (mapped, executable, not writable), read from
   /proc/PID/maps and refreshed when the map may have changed.  */
#ifndef NAT_EMU_EMU_MAPS_H
#define NAT_EMU_EMU_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct emu_map {
	uint64_t start, end;
	bool r, w, x;
};

struct emu_maps {
	struct emu_map *maps;   /* sorted by start */
	size_t count;
	size_t cap;
	bool stale;             /* re-read before the next lookup */
};

void emu_maps_init(struct emu_maps *maps);
void emu_maps_fini(struct emu_maps *maps);

/* Re-read the map of PID.  */
int emu_maps_load(struct emu_maps *maps, pid_t pid);

/* The mapping holding ADDR, or NULL.  */
const struct emu_map *emu_maps_find(const struct emu_maps *maps,
				    uint64_t addr);

/* Whether code at ADDR can run from a cached decode: it is mapped
   executable and nothing in the process can write it.  */
bool emu_maps_cacheable(const struct emu_maps *maps, uint64_t addr);

#endif
