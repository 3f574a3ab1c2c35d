/* An ELF file's compressed debug sections, inflated before libdw opens
   the file: libdeflate's whole-buffer decoder, into memory faulted in at
   once, the sections shared between two threads.  libelf would inflate
   them one by one with zlib, a fault per page: for libc that was a third
   of a 10M-instruction trace's call history.  */
#ifndef BT_INFLATE_H
#define BT_INFLATE_H

#include <gelf.h>
#include <stddef.h>

/* The memory the inflated sections live in, for the Elf's lifetime.  */
struct bt_inflated {
	void *memory;
	size_t size;
	size_t nsections;         /* sections inflated */
};

void bt_inflated_init(struct bt_inflated *inf);
/* Free the memory: after elf_end of the file inflated into it.  */
void bt_inflated_fini(struct bt_inflated *inf);

/* Inflate ELF's zlib-compressed .debug_* sections (but those marked
   SHT_NOBITS) into INF, and make libelf see them as uncompressed: the
   change is to the in-memory headers and data descriptors only.  A
   section that cannot be inflated here is left to libelf.  Returns 0, or
   a negative bt_error code when out of memory.  */
int bt_inflate_debug(Elf *elf, struct bt_inflated *inf);

#endif
