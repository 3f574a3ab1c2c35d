/* The code cache's blocks as ptstub indexes them: by original start
   (open addressing, with marks for starts that cannot be taken) and by
   cache address (to map a stopped thread's IP back).  */
#ifndef NAT_EMU_CC_BLOCKS_H
#define NAT_EMU_CC_BLOCKS_H

#include "nat/emu/cc_xlate.h"

#include <stddef.h>
#include <stdint.h>

/* The cache-address index: a window per 4 MiB of cache, in it a slot
   per 16 bytes (blocks start 16-byte aligned) naming the block whose
   code covers it, so a stopped thread's IP finds its block at once.  */
enum { cc_window_shift = 22, cc_granule_shift = 4 };

struct cc_window {
	uint64_t base;
	struct cc_block **slots;
};

/* Blocks come from slabs of this many, side by side in memory: the
   drain walks from block to block, one dependent load each, and
   blocks translated together are mostly run together.  */
enum { cc_slab_blocks = 1024 };

struct cc_blocks {
	struct cc_block **blocks;      /* in the order added */
	size_t nblocks, cap;
	struct cc_block **slabs;
	size_t nslabs, slabcap, slab_used;  /* of the last slab */
	struct cc_window *windows;
	size_t nwindows, wcap;
	/* By start, open addressing; the start kept beside its block, so
	   a probe reads one line (the drain looks up every new return
	   target).  */
	struct cc_entry {
		uint64_t start;
		struct cc_block *blk;
	} *table;
	size_t nslots;
	struct cc_block **bad;         /* in the table, size 0: starts
					  that cannot be taken */
	size_t nbad, badcap;
};

int cc_blocks_init(struct cc_blocks *bs);
void cc_blocks_fini(struct cc_blocks *bs);

/* Forget (and free) every block and mark.  */
void cc_blocks_clear(struct cc_blocks *bs);

/* The block or mark (size 0) at START, or NULL.  */
struct cc_block *cc_blocks_find(const struct cc_blocks *bs, uint64_t start);

/* A zeroed block from the slabs, for cc_blocks_add (NULL: out of
   memory); until it is added the next call gives it again.  */
struct cc_block *cc_blocks_new(struct cc_blocks *bs);
/* Index BLK (from cc_blocks_new, or malloc'd: then it is taken over).  */
int cc_blocks_add(struct cc_blocks *bs, struct cc_block *blk);

/* START cannot be taken: remembered so it is not tried again.  */
void cc_blocks_mark_bad(struct cc_blocks *bs, uint64_t start);

/* The block whose code holds ADDR, or NULL.  */
struct cc_block *cc_blocks_at(const struct cc_blocks *bs, uint64_t addr);

#endif
