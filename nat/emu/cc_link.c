/* Linking: an exit pointed at the block it leads to, the thread's
   lookup table given a block's address, and translation ahead.  A trap
   costs tens of microseconds here, a translation a few: so a stop that
   has to translate a block also translates what it reaches by direct
   branches, fall-throughs and the returns of its calls, links them to
   one another and puts the return sites in the thread's table, and the
   thread meets none of them as a trap later.  */
#define _GNU_SOURCE
#include "nat/emu/cc_int.h"
#include "nat/emu/emu_engine.h"
#include "nat/mem.h"

#include <stdlib.h>

bool cc_link(struct cc *cc, const struct cc_block *blk, uint8_t w,
	     const struct cc_block *to, bool alone)
{
	const struct cc_way *way = &blk->ways[w];
	uint64_t jmp = blk->cache + way->jmp_off;
	int64_t rel = (int64_t) (to->cache - (jmp + 5));

	if (rel >= INT32_MIN && rel <= INT32_MAX) {
		int32_t r = (int32_t) rel;

		if (!alone && ((jmp + 1) & 63) > 60)
			return false;
		return cc_code_write(cc, jmp + 1, &r, 4) == 0;
	} else {
		uint8_t stub[cc_stub_size];

		if (!alone)
			return false;
		cc_stub_abs_jmp(stub, to->cache);
		return cc_code_write(cc, blk->cache + way->stub_off, stub,
				     sizeof(stub)) == 0;
	}
}

/* Where ORIG's key goes in way W of a thread's table, from the start
   of its data (its cache address cc_table_size words after).  */
static uint64_t cc_table_slot(uint64_t orig, int w)
{
	uint64_t i = w ? orig >> 8 : orig;

	return (w ? cc_ctl_table1 : cc_ctl_table) +
		((i & (cc_table_size - 1)) << 3);
}

int cc_table_put(const struct cc_thread *ct, uint64_t orig, uint64_t cache,
		 bool hot)
{
	uint64_t at = cc_table_slot(orig, 0), neg = -orig, held[2];

	if (cc_data_read(ct, ct->tid, at, &held[0], 8) < 0 ||
	    cc_data_read(ct, ct->tid, at + cc_table_size * 8, &held[1],
			 8) < 0)
		return -pse_fault;
	if (held[0] && held[0] != neg) {
		if (hot) {
			/* A target just missed is hot: it takes way 0, and
			   the one it displaces goes to its own way 1.  */
			uint64_t to = cc_table_slot(-held[0], 1);

			if (cc_data_write(ct, ct->tid, to, &held[0], 8) < 0 ||
			    cc_data_write(ct, ct->tid, to + cc_table_size * 8,
					  &held[1], 8) < 0)
				return -pse_fault;
		} else {
			/* A guess never displaces: way 1 if it is free.  */
			at = cc_table_slot(orig, 1);
			if (cc_data_read(ct, ct->tid, at, &held[0], 8) < 0 ||
			    held[0])
				return 0;
		}
	}
	if (cc_data_write(ct, ct->tid, at + cc_table_size * 8, &cache,
			  8) < 0 ||
	    cc_data_write(ct, ct->tid, at, &neg, 8) < 0)
		return -pse_fault;
	return 0;
}

/* Where BLK may go next without a trap of its own, into TO (SITE:
   a target for the table): its linkable exits' targets, the return
   sites of its calls, and what its [rip+disp] slot holds now.  */
static size_t cc_ahead_targets(const struct cc *cc, const struct cc_block *blk,
			       uint64_t to[cc_block_max_edges + 4],
			       bool site[cc_block_max_edges + 4])
{
	size_t n = 0;

	for (uint8_t w = 0; w < blk->nways; w++)
		if (blk->ways[w].link) {
			site[n] = false;
			to[n++] = blk->ways[w].target;
		}
	for (uint16_t e = 0; e < blk->nedges; e++)
		if (blk->edges[e].call) {
			site[n] = true;
			to[n++] = blk->edges[e].from + blk->edges[e].len;
		}
	if (blk->end == cc_end_ind && blk->ind_call) {
		site[n] = true;
		to[n++] = blk->jcc_target;
	}
	if (blk->end == cc_end_ind && blk->ind_slot &&
	    nat_mem_read(cc->emu->mem, blk->ind_slot, &to[n], 8) == 8 &&
	    to[n]) {
		/* The slot's target now (a bound GOT entry): a guess, looked
		   up like any.  */
		site[n] = true;
		n++;
	}
	return n;
}

struct cc_block *cc_block_ahead(struct cc *cc, struct cc_thread *ct,
				uint64_t start)
{
	struct cc_block *fresh[cc_ahead_blocks], *blk;
	struct { uint64_t orig; const struct cc_block *blk; }
		sites[cc_ahead_blocks * 2];
	size_t nfresh = 0, nsites = 0;

	blk = cc_blocks_find(&cc->bs, start);
	if (blk)
		return blk->size ? blk : NULL;
	cc_batch(cc, true);
	blk = cc_block_get(cc, ct->tid, start);
	if (!blk) {
		cc_batch(cc, false);
		return NULL;
	}
	fresh[nfresh++] = blk;
	/* Breadth first: what the thread meets soonest comes first.  */
	for (size_t q = 0; q < nfresh; q++) {
		uint64_t to[cc_block_max_edges + 4];
		bool site[cc_block_max_edges + 4];
		size_t n = cc_ahead_targets(cc, fresh[q], to, site);

		for (size_t i = 0; i < n; i++) {
			struct cc_block *nb = cc_blocks_find(&cc->bs, to[i]);

			if (!nb && nfresh < cc_ahead_blocks &&
			    cc_may_copy(cc, to[i]) &&
			    (nb = cc_block_get(cc, ct->tid, to[i])))
				fresh[nfresh++] = nb;
			if (site[i] && nb && nb->size &&
			    nsites < sizeof(sites) / sizeof(sites[0])) {
				sites[nsites].orig = to[i];
				sites[nsites++].blk = nb;
			}
		}
	}
	cc_batch(cc, false);
	/* No thread runs the new blocks yet: each is linked whole, before
	   any table names one.  */
	for (size_t q = 0; q < nfresh; q++) {
		for (uint8_t w = 0; w < fresh[q]->nways; w++) {
			const struct cc_way *way = &fresh[q]->ways[w];
			const struct cc_block *to;

			if (way->link &&
			    (to = cc_blocks_find(&cc->bs, way->target)) &&
			    to->size)
				cc_link(cc, fresh[q], w, to, true);
		}
	}
	for (size_t i = 0; i < nsites && ct->data; i++)
		cc_table_put(ct, sites[i].orig, sites[i].blk->cache, false);
	return blk;
}
