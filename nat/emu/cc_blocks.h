/* The code cache's blocks as ptstub indexes them: by original start
   (open addressing, with marks for starts that cannot be taken) and by
   cache address (to map a stopped thread's IP back).  */
#ifndef NAT_EMU_CC_BLOCKS_H
#define NAT_EMU_CC_BLOCKS_H

#include "nat/emu/cc_xlate.h"

#include <stddef.h>
#include <stdint.h>

/* Blocks added since the last merge into the sorted ones, at most.  */
enum { cc_blocks_recent = 256 };

struct cc_blocks {
	/* By cache address: sorted up to NSORTED, then the recent ones in
	   the order they came.  */
	struct cc_block **blocks;
	size_t nblocks, nsorted, cap;
	struct cc_block **table;       /* by start; open addressing */
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

/* Take ownership of BLK (malloc'd).  */
int cc_blocks_add(struct cc_blocks *bs, struct cc_block *blk);

/* START cannot be taken: remembered so it is not tried again.  */
void cc_blocks_mark_bad(struct cc_blocks *bs, uint64_t start);

/* The block whose code holds ADDR, or NULL.  */
struct cc_block *cc_blocks_at(const struct cc_blocks *bs, uint64_t addr);

#endif
