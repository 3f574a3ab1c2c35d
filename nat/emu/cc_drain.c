/* The code cache's drain: the log a thread wrote while it ran in the
   cache (one byte per conditional, eight per looked-up target) turned
   into trace through the recorders of emu_thread.c (PT's primitives of
   emu_pt.h straight when the thread records PT), then emptied.  Apart
   from the rest of the engine because it is the one hot loop of ptstub
   while the cache runs, and it only reads blocks.  */
#define _GNU_SOURCE
#include "nat/emu/cc_int.h"
#include "nat/emu/emu_pt.h"
#include "nat/emu/emu_thread.h"

#include <stdlib.h>
#include <string.h>

/* The block the log goes on in after BLK, found the slow way (then
   kept in BLK: once per block and way or target, not per entry).  */
static struct cc_block *cc_drain_find(struct cc *cc, struct cc_block *blk,
				      bool taken, uint64_t target)
{
	struct cc_block *to;

	if (blk->end == cc_end_cond || blk->end == cc_end_exit) {
		to = cc_blocks_find(&cc->bs, blk->ways[taken].target);
		blk->next[taken] = to && to->size ? to : NULL;
		return blk->next[taken];
	}
	to = cc_blocks_find(&cc->bs, target);
	if (!to || !to->size)
		return NULL;
	blk->last_target = target;
	blk->last_next = to;
	return to;
}

/* One entry's record for a thread recording PT: the primitives of
   emu_pt.h straight (the checks of emu_rec_* hold for the whole log),
   inline.  */
static inline void cc_drain_pt(struct emu_thread *th,
			       const struct cc_block *blk, bool taken,
			       uint64_t target)
{
	struct emu_pt *pt = &th->pt;

	if (th->ring.head - pt->psb_at >= pt->psb_period)
		emu_pt_psb(pt, true, blk->start);
	for (uint16_t e = 0; blk->calls && e < blk->nedges; e++)
		if (blk->edges[e].call)
			emu_pt_call(pt, blk->edges[e].from + blk->edges[e].len);
	if (blk->end == cc_end_cond) {
		emu_pt_tnt(pt, taken);
	} else if (blk->end == cc_end_exit) {
		/* A cut block: no branch ends it.  */
	} else if (blk->end == cc_end_ret) {
		emu_pt_ret(pt, target);
	} else {
		emu_pt_tip(pt, target);
		if (blk->ind_call)
			emu_pt_call(pt, blk->jcc_target);
	}
}

/* The same through the recorders of emu_rec.h (BTS, or PT off).  */
static void cc_drain_rec(struct emu_thread *th, const struct cc_block *blk,
			 bool taken, uint64_t target)
{
	emu_rec_psb(th, blk->start);
	cc_rec_upto(th, blk, (uint16_t) (blk->ninsns - 1));
	if (blk->end == cc_end_cond)
		emu_rec_cond(th, blk->jcc_ip, taken, blk->jcc_target);
	else if (blk->end == cc_end_exit)
		;	/* a cut block: no branch ends it */
	else if (blk->end == cc_end_ret)
		emu_rec_ret(th, blk->jcc_ip, target);
	else
		emu_rec_indirect(th, blk->jcc_ip, target, blk->jcc_target,
				 blk->ind_call);
}

/* Turn N bytes of log into trace: each entry is the outcome of the
   conditional (one byte) or the target of the lookup (eight) that ends
   the block the thread was in, or the byte of a cut block's exit.  False if the log does not fit the
   blocks (never expected; the caller records a gap).  The loop keeps
   its state in locals, stored once at the end: it runs per entry.  */
static bool cc_drain_log(struct cc *cc, struct cc_thread *ct,
			 struct emu_thread *th, const uint8_t *buf, size_t n)
{
	uint64_t insns = 0, branches = 0, target = 0;
	struct cc_block *blk = cc_blocks_find(&cc->bs, ct->cur_ip);
	struct cc_block *last = NULL;
	bool pt = th->format == trace_format_pt && th->traced && th->on;
	const uint8_t *p = buf, *end = buf + n;
	bool ok = true, taken = false;

	if (blk && !blk->size)
		blk = NULL;
	/* Where the thread goes on (CUR_IP) and what it ran last
	   (LAST_EXEC) come from the last entry alone: worked out once,
	   after the loop.  */
	while (p < end) {
		struct cc_block *next;

		if (!blk || (blk->end == cc_end_exit && !blk->cut)) {
			ok = false;
			break;
		}
		if (blk->end == cc_end_cond) {
			taken = *p++ != 0;
			next = blk->next[taken];
		} else if (blk->end == cc_end_exit) {
			p++;
			taken = false;
			next = blk->next[0];
		} else {
			if (end - p < 8) {
				ok = false;
				break;
			}
			memcpy(&target, p, 8);
			p += 8;
			next = blk->last_target == target ? blk->last_next
				: NULL;
		}
		insns += blk->ncopied + blk->nedges;
		branches += blk->end != cc_end_exit;
		if (pt)
			cc_drain_pt(th, blk, taken, target);
		else
			cc_drain_rec(th, blk, taken, target);
		last = blk;
		blk = next ? next : cc_drain_find(cc, blk, taken, target);
	}
	if (last) {
		ct->cur_ip = last->end == cc_end_cond ||
			last->end == cc_end_exit ? last->ways[taken].target
			: target;
		th->last_exec = last->end == cc_end_exit ?
			last->insns[last->ninsns - 1].prev : last->jcc_ip;
	}
	ct->st.insns += insns;
	ct->st.branches += branches;
	return ok;
}

/* Turn the thread's log into trace, and empty it, reading it through
   thread TID of the process.  */
bool cc_drain_via(struct cc *cc, struct cc_thread *ct, struct emu_thread *th,
		  pid_t tid)
{
	uint64_t log = ct->data + cc_log_off, cursor;
	const uint8_t *buf;
	uint64_t t0;
	size_t n;
	bool ok;

	if (cc_data_read(ct, tid, cc_ctl_cursor, &cursor, 8) < 0 ||
	    cursor < log || cursor > log + cc->log_size)
		return false;
	n = (size_t) (cursor - log);
	if (!n)
		return true;
	t0 = cc_now_ns();
	if (ct->local) {
		/* Read where it lies: the thread is stopped.  */
		buf = ct->local + cc_log_off;
	} else {
		if (!cc->logbuf && !(cc->logbuf = malloc(cc->log_size)))
			return false;
		if (cc_peek(tid, log, cc->logbuf, n) < 0)
			return false;
		buf = cc->logbuf;
	}
	ok = cc_drain_log(cc, ct, th, buf, n);
	/* The log ran before this stop, what the thread runs next after.  */
	emu_rec_time(th, false);
	cc_data_write(ct, tid, cc_ctl_cursor, &log, 8);
	cc->st.drain_ns += cc_now_ns() - t0;
	return ok;
}

bool cc_drain(struct cc *cc, struct cc_thread *ct, struct emu_thread *th)
{
	return cc_drain_via(cc, ct, th, th->tid);
}
