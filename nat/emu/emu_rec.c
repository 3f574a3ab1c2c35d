/* nat/emu/emu_rec.c: the branch recorder.  The engine tells what a
   thread ran (a conditional, a return, an indirect or far branch, a
   walk's edges, an interrupt, a gap) and each call writes it as PT
   packets or BTS blocks, keeping both formats in step.  Apart from the
   thread (emu_thread.c) since recording is one job the engine and the
   code cache both call into.  */
#include "nat/emu/emu_rec.h"
#include "nat/emu/emu.h"

static bool emu_rec_pt(const struct emu_thread *th)
{
	return th->traced && th->on && th->format == trace_format_pt;
}

static bool emu_rec_bts(const struct emu_thread *th)
{
	return th->traced && th->on && th->format == trace_format_bts;
}

static void emu_bts_taken(struct emu_thread *th, uint64_t ip,
			  uint64_t target)
{
	emu_bts_close(&th->bts, ip);
	emu_bts_start(&th->bts, target);
}

void emu_rec_cond(struct emu_thread *th, uint64_t ip, bool taken,
		  uint64_t target)
{
	th->last_exec = ip;
	if (emu_rec_pt(th))
		emu_pt_tnt(&th->pt, taken);
	else if (emu_rec_bts(th) && taken)
		emu_bts_taken(th, ip, target);
}

void emu_rec_ret(struct emu_thread *th, uint64_t ip, uint64_t target)
{
	th->last_exec = ip;
	if (emu_rec_pt(th))
		emu_pt_ret(&th->pt, target);
	else if (emu_rec_bts(th))
		emu_bts_taken(th, ip, target);
}

void emu_rec_indirect(struct emu_thread *th, uint64_t ip, uint64_t target,
		      uint64_t nlip, bool call)
{
	th->last_exec = ip;
	if (emu_rec_pt(th)) {
		emu_pt_tip(&th->pt, target);
		if (call)
			emu_pt_call(&th->pt, nlip);
	} else if (emu_rec_bts(th)) {
		emu_bts_taken(th, ip, target);
	}
}

void emu_rec_edge(struct emu_thread *th, const struct emu_edge *edge)
{
	th->last_exec = edge->from;
	if (emu_rec_pt(th)) {
		if (edge->call)
			emu_pt_call(&th->pt, edge->from + edge->len);
	} else if (emu_rec_bts(th)) {
		emu_bts_taken(th, edge->from, edge->to);
	}
}

void emu_rec_time(struct emu_thread *th, bool force)
{
	uint64_t now;

	if (!th->traced || th->format != trace_format_pt)
		return;
	now = emu_pt_now();
	if (now > th->pt.tsc &&
	    (force || (th->on && now - th->pt.tsc >= emu_tsc_period)))
		emu_pt_tsc(&th->pt, now);
}

void emu_rec_far_kernel(struct emu_thread *th, uint64_t ip,
			uint64_t resume)
{
	th->last_exec = ip;
	if (!th->traced)
		return;
	if (th->on) {
		/* The time the kernel was entered.  */
		emu_rec_time(th, true);
		if (th->format == trace_format_pt)
			emu_pt_pgd(&th->pt);
		else
			emu_bts_close(&th->bts, ip);
		th->on = false;
		th->in_syscall = ip;
	} else if (th->in_syscall != ip) {
		return;   /* off since before the syscall */
	}
	if (resume)
		emu_rec_resume(th, resume);
}

void emu_rec_far(struct emu_thread *th, uint64_t ip, uint64_t target)
{
	th->last_exec = ip;
	if (emu_rec_pt(th))
		emu_pt_tip(&th->pt, target);
	else if (emu_rec_bts(th))
		emu_bts_taken(th, ip, target);
}

void emu_rec_interrupt(struct emu_thread *th, uint64_t ip, uint64_t prev)
{
	if (!th->traced || !th->on)
		return;
	if (th->format == trace_format_pt) {
		emu_rec_time(th, true);
		emu_pt_fup(&th->pt, ip);
		emu_pt_pgd(&th->pt);
	} else {
		emu_bts_pause(&th->bts, ip, prev);
	}
	th->on = false;
}

void emu_rec_resume(struct emu_thread *th, uint64_t ip)
{
	if (!th->traced || th->on)
		return;
	th->on = true;
	th->in_syscall = 0;
	if (th->format == trace_format_bts) {
		emu_bts_start(&th->bts, ip);
		return;
	}
	if (emu_pt_psb_due(&th->pt))
		emu_pt_psb(&th->pt, false, 0);
	/* Back from the kernel (a syscall, a signal, a stop): the time it
	   took shows.  */
	emu_rec_time(th, true);
	emu_pt_pge(&th->pt, ip);
}

void emu_rec_gap(struct emu_thread *th, uint64_t ip)
{
	th->gaps++;
	if (!th->traced)
		return;
	if (th->format == trace_format_pt) {
		if (th->on || ip)
			emu_pt_ovf(&th->pt);
		if (ip) {
			emu_rec_time(th, true);
			emu_pt_fup(&th->pt, ip);
		}
	} else {
		emu_bts_drop(&th->bts);
		if (ip)
			emu_bts_start(&th->bts, ip);
	}
	th->on = ip != 0;
	th->in_syscall = 0;
}

void emu_rec_psb(struct emu_thread *th, uint64_t ip)
{
	if (emu_rec_pt(th) && emu_pt_psb_due(&th->pt))
		emu_pt_psb(&th->pt, true, ip);
}

void emu_rec_chain(struct emu_thread *th, uint8_t n)
{
	for (uint8_t i = 0; i < n; i++) {
		const struct emu_link *link = &th->chain[i];

		for (uint16_t e = 0; e < link->walk.nedges; e++)
			emu_rec_edge(th, &link->edges[e]);
		if (link->walk.ninsns)
			th->last_exec = link->walk.last;
		th->insns += link->walk.ninsns;
		if (i + 1 < th->nchain) {
			th->insns++;   /* the branch followed */
			if (link->walk.insn.iclass == emu_ic_cond)
				emu_rec_cond(th, link->walk.stop, link->taken,
					     link->ret_target);
			else
				emu_rec_ret(th, link->walk.stop,
					    link->ret_target);
			th->followed++;
		}
	}
}
