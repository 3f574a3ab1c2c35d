/* nat/emu/emu_plan.c: the resume planner.  Before a traced thread runs
   towards a trap, its path is laid out from the walk at its IP: with
   the shortcuts, returns and conditionals whose outcome is proven are
   followed, so the trap goes further on and fewer stops are taken.
   Apart from the engine object (emu.c), which plants what is planned,
   since the proofs (stack slots, stores, ALU state) are a job alone.  */
#include "nat/emu/emu_plan.h"
#include "nat/emu/emu_alu.h"
#include "nat/emu/emu_engine.h"
#include "nat/emu/emu_walk.h"
#include "nat/int3_table.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static void emu_link_set(struct emu_link *link, const struct emu_walk *walk,
			 uint64_t rsp0)
{
	link->rsp0 = rsp0;
	link->walk = *walk;
	link->walk.edges = link->edges;
	if (walk->nedges)
		memcpy(link->edges, walk->edges,
		       walk->nedges * sizeof(*walk->edges));
	link->ret_target = 0;
	link->taken = false;
}

/* The value of S for a walk that started with RSP0 and RBP0.  */
static bool emu_sym_value(struct emu_sym s, uint64_t rsp0, uint64_t rbp0,
			  bool rbp_known, uint64_t *value)
{
	if (s.base == 0)
		*value = rsp0 + (int64_t) s.off;
	else if (s.base == 1 && rbp_known)
		*value = rbp0 + (int64_t) s.off;
	else
		return false;
	return true;
}

/* Where WALK's RET goes, read now: the walk is about to start with RSP0
   and RBP0, and no store on it can reach the slot (the walk proved it
   for same-base stores; the others are checked here).  */
static bool emu_ret_ahead(struct emu *emu, struct emu_thread *th,
			  const struct emu_walk *walk, uint64_t rsp0,
			  uint64_t rbp0, bool rbp_known, uint64_t *target)
{
	struct emu_access acc = { emu, th->tid };
	uint64_t slot, at;

	if (!walk->ret_known ||
	    !emu_sym_value(walk->slot, rsp0, rbp0, rbp_known, &slot))
		return false;
	for (uint8_t i = 0; i < walk->nchecks; i++) {
		if (!emu_sym_value(walk->checks[i], rsp0, rbp0, rbp_known, &at))
			return false;
		if (at < slot + 8 && slot < at + walk->check_size[i])
			return false;
	}
	return emu_read_data(&acc, slot, target, sizeof(*target)) == 0;
}

/* The stores a chain's earlier walks make, at their absolute addresses:
   the whole chain is planned before any of it runs, so a later RET's
   slot read now must be out of their reach (a call's push on an
   earlier walk is exactly such a store).  */
struct emu_chain_stores {
	bool known;           /* false: some store could not be placed */
	uint16_t n;
	uint64_t addr[emu_chain_links * emu_walk_max_writes];
	uint16_t size[emu_chain_links * emu_walk_max_writes];
};

static void emu_chain_stores_add(struct emu_chain_stores *st,
				 const struct emu_walk *walk, uint64_t rsp0,
				 uint64_t rbp0, bool rbp_known)
{
	if (!walk->writes_known)
		st->known = false;
	for (uint8_t i = 0; st->known && i < walk->nwrites; i++) {
		uint64_t at;

		if (!emu_sym_value(walk->writes[i], rsp0, rbp0, rbp_known,
				   &at)) {
			st->known = false;
			break;
		}
		st->addr[st->n] = at;
		st->size[st->n++] = walk->write_size[i];
	}
}

/* Whether the 8 bytes at SLOT are out of reach of the stores in ST.  */
static bool emu_chain_stores_clear(const struct emu_chain_stores *st,
				   uint64_t slot)
{
	if (!st->known)
		return false;
	for (uint16_t i = 0; i < st->n; i++)
		if (st->addr[i] < slot + 8 && slot < st->addr[i] + st->size[i])
			return false;
	return true;
}

/* Whether the thread may run through the branch at IP by itself: a trap
   planted there earlier is taken out, unless GDB needs it.  */
static bool emu_pass_ret(struct emu *emu, uint64_t ip)
{
	const struct int3_site *site = int3_lookup(emu->sites, ip);

	if (!site)
		return true;
	if (site->owners != int3_owner_emu)
		return false;
	return int3_remove(emu->sites, emu->mem, ip, int3_owner_emu) == 0;
}

static void emu_alu_visit(void *arg, const struct emu_insn *insn)
{
	struct emu_alu *alu = arg;

	if (insn->iclass == emu_ic_call)
		emu_alu_rsp(alu, -8);
	else if (insn->iclass == emu_ic_other)
		emu_alu_step(alu, insn);
}

static void emu_plan_links(struct emu *emu, struct emu_thread *th,
			   const struct emu_walk *walk,
			   const struct user_regs_struct *regs)
{
	uint64_t rsp0 = regs->rsp, rbp0 = regs->rbp;
	bool rbp_known = true, jcc = emu->config.jcc_shortcut;
	struct emu_chain_stores stores = { .known = true };
	struct emu_alu alu;

	th->nchain = 0;
	emu_link_set(&th->chain[th->nchain++], walk, rsp0);
	/* Another traced thread could plant a trap on a branch this one
	   runs through: with several, every branch stops.  */
	if (emu->ntraced != 1)
		return;
	if (jcc)
		emu_alu_init(&alu, regs);
	while (th->nchain < emu_chain_links) {
		struct emu_link *link = &th->chain[th->nchain - 1];
		const struct emu_walk *w = &link->walk, *next;
		uint64_t target, rsp1, rbp1 = 0;
		bool rbp1_known, taken;

		if (w->kind != emu_stop_emulate)
			return;
		if (jcc) {
			alu.r[4] = rsp0;
			alu.known |= 1u << 4;
			if (rbp_known) {
				alu.r[5] = rbp0;
				alu.known |= 1u << 5;
			} else {
				alu.known &= (uint16_t) ~(1u << 5);
			}
			if (w->recs) {
				for (uint32_t i = 0; i < w->ninsns; i++)
					emu_alu_apply(&alu, &w->recs[i]);
			} else if (!emu_walk_visit(w, emu->decoder,
						   emu_read_code, emu,
						   emu_alu_visit, &alu)) {
				return;
			}
		}
		if (w->insn.iclass == emu_ic_cond) {
			if (!jcc || !emu_alu_cond(&alu, &w->insn, &taken) ||
			    !emu_sym_value(w->rsp_end, rsp0, rbp0, rbp_known,
					   &rsp1))
				return;
			target = taken ? w->insn.target : w->stop + w->insn.len;
			rbp1_known = emu_sym_value(w->rbp_end, rsp0, rbp0,
						   rbp_known, &rbp1);
			link->taken = taken;
		} else {
			uint64_t slot;

			if (!emu->config.ret_shortcut ||
			    !emu_ret_ahead(emu, th, w, rsp0, rbp0, rbp_known,
					   &target) ||
			    !emu_sym_value(w->slot, rsp0, rbp0, rbp_known,
					   &slot) ||
			    !emu_chain_stores_clear(&stores, slot) ||
			    !emu_sym_value(w->rsp_after, rsp0, rbp0, rbp_known,
					   &rsp1))
				return;
			rbp1_known = emu_sym_value(w->rbp_after, rsp0, rbp0,
						   rbp_known, &rbp1);
		}
		if (!emu_maps_cacheable(&emu->maps, target) ||
		    !emu_pass_ret(emu, w->stop))
			return;
		next = emu_walk_get(emu, target);
		if (!next)
			return;
		/* The trap at the chain's end must mean the end: a stop the
		   chain passes through earlier cannot be it.  */
		for (uint8_t i = 0; i < th->nchain; i++)
			if (th->chain[i].walk.stop == next->stop)
				return;
		emu_chain_stores_add(&stores, w, rsp0, rbp0, rbp_known);
		link->ret_target = target;
		emu_link_set(&th->chain[th->nchain++], next, rsp1);
		rsp0 = rsp1;
		rbp0 = rbp1;
		rbp_known = rbp1_known;
	}
}

void emu_plan_chain(struct emu *emu, struct emu_thread *th,
		    const struct emu_walk *walk,
		    const struct user_regs_struct *regs)
{
	emu_plan_links(emu, th, walk, regs);
	/* The copies point into the cache, which may be flushed later.  */
	for (uint8_t i = 0; i < th->nchain; i++)
		th->chain[i].walk.recs = NULL;
}
