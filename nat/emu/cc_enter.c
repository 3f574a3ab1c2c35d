/* Moving a thread between original IPs and the code cache: sending a
   stopped thread in at the block of its IP (cc_enter), and placing a
   thread stopped anywhere in the cache back in original terms (the
   trace up to there recorded, the glue it was in finished) before it
   leaves.  Whoever looks at a stopped thread (GDB, the ptrace engine)
   must see only original IPs; this file is what makes that so.  */
#define _GNU_SOURCE
#include "nat/emu/cc_int.h"
#include "nat/emu/emu_engine.h"
#include "nat/emu/emu_thread.h"

bool cc_enter(struct cc *cc, struct emu_thread *th,
	      struct user_regs_struct *regs)
{
	struct cc_thread *ct;
	struct cc_block *blk;
	uint64_t sig;

	if (cc->fallback || !th->traced || !th->on)
		return false;
	ct = cc_thread_get(cc, th->tid);
	if (!ct || ct->fallback)
		return false;
	if (ct->skip && ct->skip == regs->rip) {
		ct->skip = 0;
		return false;
	}
	if (regs->gs_base || regs->gs) {
		/* Its log is reached through GS.  */
		ct->fallback = "the program uses GS";
		return false;
	}
	sig = cc_sites_sig(cc);
	if (sig != cc->sites_sig) {
		cc->sites_sig = sig;
		if (cc->bs.nblocks)
			cc_flush_for(cc, th);
	}
	if (cc->flush_pending && !cc_flush_for(cc, th))
		return false;
	if (!cc_may_copy(cc, regs->rip))
		return false;
	if (cc_thread_data(cc, ct) < 0) {
		ct->fallback = "its mappings could not be made";
		return false;
	}
	blk = cc_block_ahead(cc, ct, regs->rip);
	if (!blk)
		return false;
	/* Returns find this block through the table.  */
	cc_table_put(ct, regs->rip, blk->cache, true);
	ct->cur_ip = regs->rip;
	regs->rip = blk->cache;
	regs->gs_base = ct->data;
	th->mode = emu_mode_cache;
	ct->st.entries++;
	return true;
}

/* A stop in a return's lookup: registers back from their slots; before
   the target is logged the return has not run, after it, it has.  */
static bool cc_settle_ret(struct cc *cc, struct cc_thread *ct,
			  struct emu_thread *th,
			  const struct cc_block *blk,
			  const struct cc_pos *pos,
			  struct user_regs_struct *regs, uint64_t *orig)
{
	uint64_t v;

	if (pos->flags & cc_ret_rax) {
		if (cc_data_read(ct, th->tid, cc_ctl_save, &v, 8) < 0)
			return false;
		regs->rax = v;
	}
	if (pos->flags & cc_ret_rcx) {
		if (cc_data_read(ct, th->tid, cc_ctl_save2, &v, 8) < 0)
			return false;
		regs->rcx = v;
	}
	if (pos->flags & cc_ret_logged) {
		/* The drain recorded the return and moved on to its
		   target.  */
		if (blk->end == cc_end_ret && !(pos->flags & cc_ret_rsp))
			regs->rsp += blk->ret_pop;
		if (blk->ind_call) {
			/* The call's push, finished.  */
			if (!(pos->flags & cc_ret_rsp))
				regs->rsp -= 8;
			if (cc_poke(th->tid, regs->rsp, &blk->jcc_target, 8) < 0)
				return false;
		}
		*orig = ct->cur_ip;
		return true;
	}
	if (ct->cur_ip != blk->start)
		return false;
	cc_rec_upto(th, blk, (uint16_t) (blk->ninsns - 1));
	ct->st.insns += blk->ncopied - 1 + blk->nedges;
	*orig = blk->jcc_ip;
	return true;
}

/* Where a thread stopped at cache address IP stands in original terms:
   the trace up to there is recorded, the glue it was in finished, and
   *ORIG is the original IP of the next instruction.  */
bool cc_settle(struct cc *cc, struct cc_thread *ct, struct emu_thread *th,
	       struct user_regs_struct *regs, uint64_t ip,
	       uint64_t *orig)
{
	const struct cc_block *blk = cc_blocks_at(&cc->bs, ip);
	const struct cc_pos *pos;
	bool drained = cc_drain(cc, ct, th);

	if (!blk || !drained)
		return false;
	pos = cc_block_pos(blk, (uint32_t) (ip - blk->cache));
	if (!pos)
		return false;
	switch (pos->kind) {
	case cc_pos_push: {
		/* Finish the push: the thread is then at the callee.  */
		const struct emu_edge *e = &blk->edges[pos->insn];
		uint64_t ret = e->from + e->len;

		if (pos->flags == 0)
			regs->rsp -= 8;
		if (ct->cur_ip != blk->start ||
		    cc_poke(th->tid, regs->rsp, &ret, 8) < 0)
			return false;
		for (uint16_t i = 0; i <= pos->insn; i++)
			emu_rec_edge(th, &blk->edges[i]);
		*orig = e->to;
		return true;
	}
	case cc_pos_orig:
		if (ct->cur_ip != blk->start)
			return false;
		cc_rec_upto(th, blk, pos->insn);
		*orig = blk->insns[pos->insn].ip;
		return true;
	case cc_pos_ret:
	case cc_pos_miss:
		return cc_settle_ret(cc, ct, th, blk, pos, regs, orig);
	default:
		break;
	}
	/* In an exit's glue or at its stub.  */
	if (pos->flags & cc_way_rax_saved) {
		uint64_t rax;

		if (cc_data_read(ct, th->tid, cc_ctl_save, &rax, 8) < 0)
			return false;
		regs->rax = rax;
	}
	if ((blk->end == cc_end_exit && !blk->cut) ||
	    !(pos->flags & cc_way_logged)) {
		if (ct->cur_ip != blk->start)
			return false;
		cc_rec_upto(th, blk, (uint16_t) (blk->ninsns - 1));
		ct->st.insns += blk->ncopied + blk->nedges;
		if (blk->end == cc_end_cond) {
			emu_rec_cond(th, blk->jcc_ip, pos->way == 1,
				     blk->jcc_target);
			ct->st.branches++;
		}
	} else if (ct->cur_ip != blk->ways[pos->way].target) {
		return false;
	}
	*orig = blk->ways[pos->way].target;
	ct->cur_ip = *orig;
	return true;
}

/* Leave the cache at ORIG: registers as the program knows them.  */
void cc_leave(struct emu_thread *th, struct user_regs_struct *regs,
	      uint64_t orig)
{
	regs->rip = orig;
	regs->gs_base = 0;
	th->mode = emu_mode_stopped;
}
