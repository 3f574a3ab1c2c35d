/* The engine's side of every ptrace stop: its own traps and steps are
   consumed; everything else closes the trace segment and is reported.  */
#include "nat/emu/cc.h"
#include "nat/emu/emu_rec.h"
#include "nat/emu/emu_engine.h"
#include "nat/emu/emu_signal.h"
#include "nat/catch_syscall.h"
#include "nat/int3_table.h"
#include "nat/mem.h"
#include "common/ps_error.h"

#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static const uint8_t emu_int3_byte = 0xcc;

/* The thread ran its walk up to IP (not run): record the direct
   branches before IP; *PREV gets the instruction run before IP.  False
   if IP is not on the walk.  */
static bool emu_walk_progress(struct emu *emu, struct emu_thread *th,
			      uint64_t ip, uint64_t rsp, uint64_t *prev)
{
	int found = -1, matches = 0;
	uint16_t found_edges = 0;
	uint32_t found_insns = 0;
	uint64_t found_prev = 0;

	if (th->mode != emu_mode_walk || th->walk_lost)
		return false;
	/* Followed returns can bring the path back over the same code: the
	   stack pointer tells which pass the thread is in.  */
	for (uint8_t i = 0; i < th->nchain; i++) {
		struct emu_link *link = &th->chain[i];
		struct emu_sym at;
		uint16_t edges = 0;
		uint32_t insns = 0;
		uint64_t p;

		if (!emu_walk_locate(&link->walk, emu->decoder, emu_read_code,
				     emu, ip, &p, &edges, &at, &insns))
			continue;
		if (th->nchain > 1 &&
		    (at.base != 0 || link->rsp0 + (int64_t) at.off != rsp))
			continue;
		found = i;
		found_edges = edges;
		found_insns = insns;
		found_prev = p;
		matches++;
	}
	if (matches != 1)
		return false;
	emu_rec_chain(th, (uint8_t) found);
	th->insns += found_insns;
	for (uint16_t e = 0; e < found_edges; e++)
		emu_rec_edge(th, &th->chain[found].edges[e]);
	*prev = found_prev ? found_prev : th->last_exec;
	return true;
}

static const struct emu_walk *emu_chain_end(const struct emu_thread *th)
{
	return th->nchain ? &th->chain[th->nchain - 1].walk : NULL;
}

/* Execution stopped at IP (not run) for a reason that is not the
   engine's: close the segment.  */
static void emu_interrupted(struct emu *emu, struct emu_thread *th,
			    uint64_t ip, uint64_t rsp)
{
	uint64_t prev = th->last_exec;

	if (th->traced && th->on) {
		if (th->mode == emu_mode_walk &&
		    !emu_walk_progress(emu, th, ip, rsp, &prev))
			emu_rec_gap(th, 0);
		else
			emu_rec_interrupt(th, ip, prev);
	}
	th->mode = emu_mode_stopped;
}

/* Whether the SIGTRAP TID stopped with came from one of the engine's
   traps at ADDR that is gone since (another thread took it out before
   this stop was seen): the INT3 byte is no longer in memory, and the
   kernel says an INT3 raised it.  */
static bool emu_lifted_trap(struct emu *emu, pid_t tid, uint64_t addr)
{
	siginfo_t si;
	uint8_t byte;

	if (!emu_planted_has(&emu->planted, addr))
		return false;
	if (nat_mem_read(emu->mem, addr, &byte, 1) != 1 ||
	    byte == emu_int3_byte)
		return false;
	memset(&si, 0, sizeof(si));
	return ptrace(PTRACE_GETSIGINFO, tid, 0, &si) == 0 &&
		si.si_code == SI_KERNEL;
}

/* The thread hit one of the engine's traps at SITE.  */
static int emu_site_trap(struct emu *emu, struct emu_thread *th,
			 struct user_regs_struct *regs, uint64_t site,
			 enum emu_resume *how)
{
	struct user_regs_struct before = *regs;

	regs->rip = site;
	if (th->traced) {
		if (!th->on) {
			/* It resumed without a stop the engine saw (a
			   restarted syscall): tracing picks up here.  */
			emu_rec_resume(th, site);
		} else if (th->mode != emu_mode_walk || th->walk_lost ||
			   site != emu_chain_end(th)->stop) {
			emu_rec_gap(th, site);
		} else {
			emu_rec_chain(th, th->nchain);
		}
	}
	th->mode = emu_mode_stopped;
	return emu_resume_from(emu, th, regs, &before, false, how);
}

/* Whether the step of INSN (at IP) trapped on an INT3 at IP instead of
   running it: another thread stepping the same site put the trap back
   after this one's step took it out (a thread blocked in a syscall
   there keeps its step going for as long as the syscall lasts).  The
   trap may be gone from the table since (unplanted for an munmap): the
   kernel's word that an INT3 ran, where the program has none, is
   enough.  */
static bool emu_step_hit_site(pid_t tid, const struct emu_insn *insn,
			      uint64_t to)
{
	siginfo_t si;

	if (insn->iclass == emu_ic_int3 || !insn->len || to != insn->ip + 1)
		return false;
	memset(&si, 0, sizeof(si));
	return ptrace(PTRACE_GETSIGINFO, tid, 0, &si) == 0 &&
		si.si_code == SI_KERNEL;
}

/* The single-step of TH->step_insn ended with signal SIG.  */
static int emu_step_done(struct emu *emu, struct emu_thread *th,
			 struct user_regs_struct *regs, int sig,
			 enum emu_verdict *verdict, enum emu_resume *how)
{
	const struct emu_insn *insn = &th->step_insn;
	struct user_regs_struct before = *regs;
	uint64_t ip = insn->ip, to = regs->rip, next = ip + insn->len;
	const struct int3_site *site = int3_lookup(emu->sites, ip);

	if (th->step_lifted && site)
		nat_mem_write(emu->mem, ip, &emu_int3_byte, 1);
	th->mode = emu_mode_stopped;

	if (sig != SIGTRAP) {
		if (to == ip)
			emu_interrupted(emu, th, ip, regs->rsp);
		else if (insn->iclass == emu_ic_far_kernel)
			emu_rec_far_kernel(th, ip, 0);
		else
			emu_rec_gap(th, 0);
		return 0;
	}

	if (emu_step_hit_site(th->tid, insn, to)) {
		/* The instruction did not run: step it again.  */
		emu_begin_step(emu, th, insn, regs, th->step_user);
		*verdict = emu_consumed;
		*how = emu_resume_step;
		return emu_setregs(th->tid, regs);
	}

	if (insn->rep && to == ip && !th->step_user) {
		/* One more iteration of the same instruction.  */
		emu_begin_step(emu, th, insn, regs, false);
		*verdict = emu_consumed;
		*how = emu_resume_step;
		return 0;
	}

	/* A restarted syscall the trace holds already is counted once.  */
	if (th->traced && !(!th->on && th->in_syscall == ip))
		th->insns++;
	switch (insn->iclass) {
	case emu_ic_cond:
		emu_rec_cond(th, ip, to != next, to);
		break;
	case emu_ic_ret:
		emu_rec_ret(th, ip, to);
		break;
	case emu_ic_jmp_ind:
	case emu_ic_call_ind:
		emu_rec_indirect(th, ip, to, next,
				 insn->iclass == emu_ic_call_ind);
		break;
	case emu_ic_jmp:
	case emu_ic_call: {
		struct emu_edge edge = {
			ip, to, insn->len, insn->iclass == emu_ic_call,
		};

		emu_rec_edge(th, &edge);
		break;
	}
	case emu_ic_far_kernel:
		if (emu_syscall_restart_ip(regs)) {
			/* The kernel moves the IP when it delivers the
			   pending signal; resume tracing from that stop. */
			emu_rec_far_kernel(th, ip, 0);
			*verdict = emu_consumed;
			*how = emu_resume_cont;
			return 0;
		}
		emu_rec_far_kernel(th, ip, to);
		if (th->step_maps && emu->config.on_map_change)
			emu->config.on_map_change(emu->config.map_ctx, th->tid);
		break;
	case emu_ic_far:
		emu_rec_far(th, ip, to);
		break;
	case emu_ic_int3:
		emu_rec_far_kernel(th, ip, 0);
		return 0;
	default:
		if (!insn->len || to != next)
			emu_rec_gap(th, to);
		else
			th->last_exec = ip;
		break;
	}

	if (th->step_user) {
		emu_interrupted(emu, th, to, regs->rsp);
		return 0;
	}
	*verdict = emu_consumed;
	return emu_resume_from(emu, th, regs, &before, false, how);
}

/* A syscall-entry stop of a thread on its walk (resumed with
   PTRACE_SYSCALL): it ran through the syscall at its walk's stop while
   another thread had the trap there lifted to step it.  The syscall
   has not run yet: the thread goes on as if it had stepped it from its
   own trap.  */
static int emu_syscall_entry(struct emu *emu, struct emu_thread *th,
			     const struct user_regs_struct *regs,
			     enum emu_verdict *verdict, enum emu_resume *how)
{
	uint64_t ip = regs->rip - 2, prev = 0;
	struct emu_insn insn;

	th->stops++;
	if (emu_decode_at(emu, ip, &insn) < 0 ||
	    insn.iclass != emu_ic_far_kernel || insn.len != 2 ||
	    ip != emu_chain_end(th)->stop ||
	    !emu_walk_progress(emu, th, ip, regs->rsp, &prev)) {
		/* Not the walk's syscall: lost track until it returns.  */
		emu_rec_gap(th, 0);
		memset(&insn, 0, sizeof(insn));
		insn.ip = ip;
		insn.len = 2;
		insn.iclass = emu_ic_far_kernel;
	} else {
		th->last_exec = prev;
	}
	th->step_insn = insn;
	th->mode = emu_mode_step;
	th->step_user = false;
	th->step_lifted = false;   /* another thread's step has the site */
	th->step_maps = emu_syscall_changes_map(regs->orig_rax);
	if (th->step_maps)
		emu_unplant_for_syscall(emu, regs, regs->orig_rax);
	th->steps++;
	*verdict = emu_consumed;
	*how = emu_resume_step;
	return 0;
}

int emu_on_stop(struct emu *emu, pid_t tid, int status,
		enum emu_verdict *verdict, enum emu_resume *how)
{
	struct emu_thread *th = emu_thread_get(emu, tid);
	struct user_regs_struct regs, before;
	const struct int3_site *site;
	uint64_t nr;
	int sig, err, entry;

	*verdict = emu_report;
	*how = emu_resume_cont;
	if (!th)
		return -pse_nomem;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		if (th->mode == emu_mode_step &&
		    th->step_insn.iclass == emu_ic_far_kernel)
			emu_rec_far_kernel(th, th->step_insn.ip, 0);
		else if (th->mode == emu_mode_cache && th->on &&
			 !cc_on_gone(emu->cc, th))
			emu_rec_gap(th, 0);
		th->mode = emu_mode_stopped;
		th->on = false;
		cc_thread_gone(emu->cc, tid);
		if (!th->traced)
			emu_thread_drop(emu, tid);
		return 0;
	}
	if (!WIFSTOPPED(status))
		return -pse_invalid;
	sig = WSTOPSIG(status);
	if (status >> 16 == PTRACE_EVENT_EXIT) {
		/* The thread is on its way out (its memory is still there):
		   close the trace as its exit would.  */
		if (th->mode == emu_mode_step &&
		    th->step_insn.iclass == emu_ic_far_kernel) {
			emu_rec_far_kernel(th, th->step_insn.ip, 0);
		} else if (th->mode == emu_mode_cache) {
			/* Killed in the cache: its log first.  */
			if (emu_getregs(tid, &regs) < 0 ||
			    !cc_on_exit(emu->cc, th, &regs))
				emu_rec_gap(th, 0);
			else
				emu_interrupted(emu, th, regs.rip, regs.rsp);
		} else if (th->on && emu_getregs(tid, &regs) == 0) {
			emu_interrupted(emu, th, regs.rip, regs.rsp);
		}
		th->mode = emu_mode_stopped;
		th->on = false;
		th->exiting = true;
		return 0;
	}
	/* Only a syscall's entry: a walk resumed after an exec event first
	   stops at execve's return, in the new image.  */
	if (sig == (SIGTRAP | 0x80) && th->mode == emu_mode_walk &&
	    !(status >> 16) && nat_syscall_stop_info(tid, &nr, &entry) == 0 &&
	    entry) {
		err = emu_getregs(tid, &regs);
		return err < 0 ? err
			: emu_syscall_entry(emu, th, &regs, verdict, how);
	}
	/* Ptrace events come from inside a syscall being stepped; the step
	   goes on after them (exec: see emu_on_exec).  */
	if (status >> 16 || sig == (SIGTRAP | 0x80))
		return 0;

	err = emu_getregs(tid, &regs);
	if (err < 0)
		return err;
	before = regs;
	th->stops++;
	th->foreign_held = th->foreign_stop && regs.rip == th->foreign_stop ?
		th->foreign_stop : 0;
	th->foreign_stop = 0;

	if (th->mode == emu_mode_cache)
		return cc_on_stop(emu->cc, th, &regs, sig, verdict, how);
	if (th->mode == emu_mode_step)
		return emu_step_done(emu, th, &regs, sig, verdict, how);

	if (th->mode == emu_mode_enter) {
		th->mode = emu_mode_stopped;
		if (sig != SIGTRAP)
			return 0;
		/* The kernel stopped at the handler's first instruction. */
		emu_rec_resume(th, regs.rip);
		if (th->step_user) {
			emu_interrupted(emu, th, regs.rip, regs.rsp);
			return 0;
		}
		*verdict = emu_consumed;
		return emu_resume_from(emu, th, &regs, &before, false, how);
	}

	if (sig == SIGTRAP) {
		site = int3_lookup(emu->sites, regs.rip - 1);
		if (site && site->owners == int3_owner_emu) {
			*verdict = emu_consumed;
			return emu_site_trap(emu, th, &regs, regs.rip - 1, how);
		}
		if (site) {
			/* Someone else's breakpoint: it stops there.  */
			emu_interrupted(emu, th, regs.rip - 1, regs.rsp);
			return 0;
		}
		if (emu_lifted_trap(emu, tid, regs.rip - 1)) {
			/* As if the trap had still been there.  */
			*verdict = emu_consumed;
			return emu_site_trap(emu, th, &regs, regs.rip - 1, how);
		}
		if (th->mode == emu_mode_walk &&
		    emu_chain_end(th)->kind == emu_stop_self &&
		    regs.rip - 1 == emu_chain_end(th)->stop) {
			/* The program's own INT3 ran: a far transfer.  */
			emu_rec_chain(th, th->nchain);
			emu_rec_far_kernel(th, emu_chain_end(th)->stop, 0);
			th->mode = emu_mode_stopped;
			return 0;
		}
	}
	emu_interrupted(emu, th, regs.rip, regs.rsp);
	return 0;
}
