/* The stops of a thread running in the code cache (cc_on_stop): an
   exit's trap (linked to the next block, or the thread leaves), a
   return's table miss (the branch run here, the thread sent back in),
   the log running into its guard page (drained, the store restarted),
   and anyone else's stop (the thread placed at its original IP, the
   signal's address made original, the stop reported as the ptrace
   engine would).  */
#define _GNU_SOURCE
#include "nat/emu/cc_int.h"
#include "nat/emu/emu_engine.h"
#include "nat/emu/emu_thread.h"
#include "nat/mem.h"

#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>

/* A signal's siginfo may name the faulting instruction: the original.  */
static void cc_fix_siginfo(struct cc *cc, pid_t tid, uint64_t cache_ip,
			   uint64_t orig)
{
	siginfo_t si;

	if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) < 0)
		return;
	if ((uint64_t) si.si_addr == cache_ip ||
	    cc_blocks_at(&cc->bs, (uint64_t) si.si_addr)) {
		si.si_addr = (void *) orig;
		ptrace(PTRACE_SETSIGINFO, tid, 0, &si);
	}
}

static bool cc_si_kernel(pid_t tid, uint64_t *addr)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) < 0)
		return false;
	*addr = (uint64_t) si.si_addr;
	return si.si_code == SI_KERNEL || si.si_code > 0;
}

/* Run the return or indirect branch ending BLK at ORIG, for the
   thread: recorded, registers updated, *TARGET its target.  False if
   it would fault (the ptrace engine runs it then).  */
static bool cc_run_branch(struct cc *cc, struct emu_thread *th,
			  const struct cc_block *blk,
			  struct user_regs_struct *regs, uint64_t orig,
			  uint64_t *target)
{
	struct emu_access acc = { cc->emu, th->tid };
	struct user_regs_struct r = *regs;
	struct emu_insn insn;

	if (blk->end == cc_end_ret) {
		if (cc_peek(th->tid, regs->rsp, target, 8) < 0)
			return false;
		emu_rec_ret(th, orig, *target);
		regs->rsp += blk->ret_pop;
		return true;
	}
	r.gs_base = 0;
	r.rip = orig;
	if (emu_decode_at(cc->emu, orig, &insn) < 0 ||
	    emu_emulate(th, &acc, &insn, &r) < 0)
		return false;
	*target = r.rip;
	regs->rsp = r.rsp;
	return true;
}

/* Whether a SIGSEGV at FAULT is a log store running into the guard
   page; *REG gets the register holding the cursor.  */
static bool cc_log_full(struct cc *cc, const struct cc_thread *ct,
			const struct cc_block *blk,
			struct user_regs_struct *regs, uint64_t fault,
			unsigned long long **reg)
{
	const struct cc_pos *pos = cc_block_pos(blk,
			(uint32_t) (regs->rip - blk->cache));
	uint64_t guard = ct->data + cc_log_off + cc->log_size;

	if (!pos)
		return false;
	if (pos->kind == cc_pos_way && (pos->flags & cc_way_store))
		*reg = &regs->rax;
	else if (pos->kind == cc_pos_ret && (pos->flags & cc_ret_store))
		*reg = &regs->rcx;
	else
		return false;
	return fault >= guard && fault < guard + 8 && **reg + 8 > guard &&
		**reg <= guard;
}

/* A stop cc_settle could not place in original terms: a gap, the
   thread out of the cache for good, at the block its log began in.  */
static int cc_unplaced(struct cc_thread *ct, struct emu_thread *th,
		       struct user_regs_struct *regs)
{
	emu_rec_gap(th, 0);
	ct->fallback = "a stop it could not place";
	cc_leave(th, regs, ct->cur_ip);
	return emu_setregs(th->tid, regs);
}

int cc_on_stop(struct cc *cc, struct emu_thread *th,
	       struct user_regs_struct *regs, int sig,
	       enum emu_verdict *verdict, enum emu_resume *how)
{
	struct user_regs_struct before = *regs;
	const struct cc_block *blk;
	const struct cc_pos *pos = NULL;
	uint64_t orig, fault = 0;
	unsigned long long *cursor;
	struct cc_thread *ct = cc_thread_find(cc, th->tid);

	if (!ct) {
		/* Never expected: it entered through its entry.  */
		emu_rec_gap(th, 0);
		cc_leave(th, regs, regs->rip);
		return 0;
	}
	blk = cc_blocks_at(&cc->bs, regs->rip - (sig == SIGTRAP));
	if (blk)
		pos = cc_block_pos(blk, (uint32_t) (regs->rip - 1 -
						    blk->cache));
	if (sig == SIGTRAP && pos && pos->kind == cc_pos_stub &&
	    cc_si_kernel(th->tid, &fault)) {
		/* An exit: record up to it, then link or leave.  */
		uint8_t w = pos->way;
		const struct cc_block *to;

		ct->st.traps++;
		*verdict = emu_consumed;
		if (!cc_settle(cc, ct, th, regs, regs->rip - 1, &orig)) {
			ct->fallback = "a stop it could not place";
			orig = blk->ways[w].target;
			emu_rec_gap(th, orig);
			cc_leave(th, regs, orig);
			return emu_resume_from(cc->emu, th, regs, &before,
					       false, how);
		}
		if (blk->ways[w].link && !cc->flush_pending &&
		    cc_sites_sig(cc) == cc->sites_sig &&
		    cc_may_copy(cc, orig) &&
		    (to = cc_block_ahead(cc, ct, orig))) {
			/* cc_block_ahead may have moved BLK in its array, not
			   in memory.  Unlinked, the next pass traps here
			   again.  */
			cc_link(cc, blk, w, to, !cc_others_inside(cc, th));
			ct->st.links++;
			regs->rip = to->cache;
			*how = emu_resume_cont;
			return emu_setregs(th->tid, regs);
		}
		ct->st.leaves++;
		cc_leave(th, regs, orig);
		return emu_resume_from(cc->emu, th, regs, &before, false, how);
	}
	if (sig == SIGTRAP && pos && pos->kind == cc_pos_miss &&
	    cc_si_kernel(th->tid, &fault)) {
		/* A return whose target is not in the table: the ptrace
		   engine runs it, and the thread comes back in at its
		   target (cc_enter fills the table).  */
		uint64_t target;

		ct->st.traps++;
		ct->st.misses++;
		*verdict = emu_consumed;
		if (!cc_settle(cc, ct, th, regs, regs->rip - 1, &orig)) {
			ct->fallback = "a stop it could not place";
			emu_rec_gap(th, blk->jcc_ip);
			orig = blk->jcc_ip;
		} else if (cc_run_branch(cc, th, blk, regs, orig, &target)) {
			/* Run here (one instruction, the branch), and go on
			   in the cache.  */
			ct->st.insns++;
			regs->rip = target;
			regs->gs_base = 0;
			ct->cur_ip = target;
			if (cc_enter(cc, th, regs)) {
				*how = emu_resume_cont;
				return emu_setregs(th->tid, regs);
			}
			orig = target;
		} else {
			/* It faults: the ptrace engine runs it.  */
			ct->skip = orig;
		}
		cc_leave(th, regs, orig);
		return emu_resume_from(cc->emu, th, regs, &before, false, how);
	}
	if (sig == SIGSEGV && blk && cc_si_kernel(th->tid, &fault) &&
	    cc_log_full(cc, ct, blk, regs, fault, &cursor)) {
		/* The log is full: drained, the store goes on at its start. */
		ct->st.fills++;
		if (!cc_drain(cc, ct, th)) {
			emu_rec_gap(th, 0);
			ct->fallback = "its log could not be read";
		}
		*cursor = ct->data + cc_log_off;
		*verdict = emu_consumed;
		*how = emu_resume_cont;
		return emu_setregs(th->tid, regs);
	}
	if (sig == SIGTRAP && pos && pos->kind == cc_pos_orig &&
	    cc_patched(cc, regs->rip - 1)) {
		/* The copy of an instruction GDB put a breakpoint on since
		   the block was made (cc_on_site).  */
		if (!cc_settle(cc, ct, th, regs, regs->rip - 1, &orig))
			return cc_unplaced(ct, th, regs);
		cc_leave(th, regs, orig);
		if (!cc_others_site(cc, orig)) {
			/* Removed again since: on from there.  */
			*verdict = emu_consumed;
			return emu_resume_from(cc->emu, th, regs, &before,
					       false, how);
		}
		/* Reported as the breakpoint's own int3 would be.  */
		ct->st.signals++;
		emu_rec_interrupt(th, orig, th->last_exec);
		regs->rip = orig + 1;
		return emu_setregs(th->tid, regs);
	}
	/* Someone else's stop: out of the cache, then as the ptrace engine
	   would see it.  */
	if (!cc_settle(cc, ct, th, regs, regs->rip, &orig))
		return cc_unplaced(ct, th, regs);
	if (sig != SIGTRAP && sig != SIGSTOP)
		cc_fix_siginfo(cc, th->tid, before.rip, orig);
	ct->st.signals++;
	cc_leave(th, regs, orig);
	emu_rec_interrupt(th, orig, th->last_exec);
	return emu_setregs(th->tid, regs);
}

bool cc_on_exit(struct cc *cc, struct emu_thread *th,
		struct user_regs_struct *regs)
{
	struct cc_thread *ct = cc_thread_find(cc, th->tid);
	uint64_t orig;

	if (ct && cc_settle(cc, ct, th, regs, regs->rip, &orig)) {
		cc_leave(th, regs, orig);
		return true;
	}
	cc_leave(th, regs, ct ? ct->cur_ip : regs->rip);
	return false;
}

bool cc_on_gone(struct cc *cc, struct emu_thread *th)
{
	struct cc_thread *ct = cc_thread_find(cc, th->tid);
	const struct emu *emu = cc->emu;
	bool ok = false;

	th->mode = emu_mode_stopped;
	if (!ct || !ct->data)
		return false;
	/* Through the leader, else any other thread still there.  */
	ok = cc_drain_via(cc, ct, th, emu->pid);
	for (size_t i = 0; !ok && i < emu->nthreads; i++)
		if (emu->threads[i] != th && !emu->threads[i]->exiting)
			ok = cc_drain_via(cc, ct, th, emu->threads[i]->tid);
	return ok;
}
