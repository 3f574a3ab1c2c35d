/* A process's memory map (/proc/PID/maps), and the build-id of the
   files it maps: what a trace bundle needs to decode away from the
   process.  */
#ifndef NAT_MAPS_H
#define NAT_MAPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct nat_map {
	uint64_t start, end;
	uint64_t offset;
	unsigned prot;          /* PROT_READ | PROT_WRITE | PROT_EXEC */
	char *path;             /* "" for anonymous, "[vdso]" and the like */
	uint8_t build_id[64];
	size_t build_id_size;
};

struct nat_maps {
	struct nat_map *map;
	size_t count, cap;
};

void nat_maps_init(struct nat_maps *maps);
void nat_maps_fini(struct nat_maps *maps);

/* Read PID's mappings, with the build-id of each file-backed one.  */
int nat_maps_read(struct nat_maps *maps, pid_t pid);

/* The GNU build-id note of the ELF file PATH into ID (at most LEN
   bytes); returns its size, or -pse_notfound.  */
int nat_build_id(const char *path, uint8_t *id, size_t len);

#endif
