#include "nat/emu/emu_alu.h"
#include "nat/emu/emu_branch.h"

#include <string.h>

enum {
	emu_f_cf = 1u << 0, emu_f_pf = 1u << 2, emu_f_zf = 1u << 6,
	emu_f_sf = 1u << 7, emu_f_of = 1u << 11,
};

void emu_alu_init(struct emu_alu *alu, const struct user_regs_struct *regs)
{
	for (int i = 0; i < 16; i++)
		alu->r[i] = emu_reg_get(regs, i);
	alu->known = 0xffff;
	alu->flags = regs->eflags & (emu_f_cf | emu_f_pf | emu_f_zf |
				     emu_f_sf | emu_f_of);
	alu->flags_known = true;
}

void emu_alu_rsp(struct emu_alu *alu, int64_t delta)
{
	alu->r[4] += (uint64_t) delta;
}

/* ZF, SF and PF of RESULT at WIDTH bits.  */
static uint64_t emu_zsp(uint64_t result, unsigned width)
{
	uint64_t flags = 0;

	if (!result)
		flags |= emu_f_zf;
	if (result >> (width - 1) & 1)
		flags |= emu_f_sf;
	if (!__builtin_parity((unsigned) (result & 0xff)))
		flags |= emu_f_pf;
	return flags;
}

bool emu_alu_record(const struct emu_insn *insn, struct emu_alu_rec *rec)
{
	if (insn->iclass != emu_ic_other && insn->iclass != emu_ic_call) {
		/* A direct jump changes nothing the evaluator follows.  */
		*rec = (struct emu_alu_rec) { .alu = emu_alu_other };
		return insn->iclass == emu_ic_jmp;
	}
	*rec = (struct emu_alu_rec) {
		.alu = insn->alu, .width = insn->alu_width,
		.dst = insn->alu_dst, .src = insn->alu_src,
		.reg_writes = insn->reg_writes,
		.flag_writes = insn->flag_writes,
		.call = insn->iclass == emu_ic_call, .imm = insn->alu_imm,
	};
	if (rec->call)
		rec->alu = emu_alu_other;
	return true;
}

void emu_alu_apply(struct emu_alu *alu, const struct emu_alu_rec *rec)
{
	struct emu_insn insn;

	if (rec->call) {
		emu_alu_rsp(alu, -8);
		return;
	}
	memset(&insn, 0, sizeof(insn));
	insn.iclass = emu_ic_other;
	insn.alu = rec->alu;
	insn.alu_width = rec->width;
	insn.alu_dst = rec->dst;
	insn.alu_src = rec->src;
	insn.alu_imm = rec->imm;
	insn.reg_writes = rec->reg_writes;
	insn.flag_writes = rec->flag_writes;
	emu_alu_step(alu, &insn);
}

void emu_alu_step(struct emu_alu *alu, const struct emu_insn *insn)
{
	unsigned width = insn->alu_width == 64 ? 64 : 32;
	uint64_t mask = width == 64 ? ~0ull : 0xffffffffull;
	uint64_t a, b, res = 0, flags = 0, sign = 1ull << (width - 1);
	int d = insn->alu_dst, s = insn->alu_src;
	bool write = true;

	if (insn->alu == emu_alu_other) {
		alu->known &= (uint16_t) ~insn->reg_writes;
		if (insn->flag_writes)
			alu->flags_known = false;
		return;
	}
	bool need_dst = insn->alu != emu_alu_mov;
	bool src_known = s == emu_reg_none || (alu->known >> s & 1);
	bool dst_known = !need_dst || (alu->known >> d & 1);

	/* xor r, r and sub r, r do not depend on r.  */
	if ((insn->alu == emu_alu_xor || insn->alu == emu_alu_sub) && s == d)
		src_known = dst_known = true, alu->r[d] = 0;
	if (!src_known || !dst_known) {
		alu->known &= (uint16_t) ~insn->reg_writes;
		if (insn->flag_writes)
			alu->flags_known = false;
		return;
	}
	a = alu->r[d] & mask;
	b = (s == emu_reg_none ? (uint64_t) insn->alu_imm : alu->r[s]) & mask;

	switch (insn->alu) {
	case emu_alu_mov:
		res = b;
		break;
	case emu_alu_add:
		res = (a + b) & mask;
		flags = emu_zsp(res, width);
		if (res < a)
			flags |= emu_f_cf;
		if (~(a ^ b) & (a ^ res) & sign)
			flags |= emu_f_of;
		break;
	case emu_alu_sub:
	case emu_alu_cmp:
		res = (a - b) & mask;
		flags = emu_zsp(res, width);
		if (a < b)
			flags |= emu_f_cf;
		if ((a ^ b) & (a ^ res) & sign)
			flags |= emu_f_of;
		write = insn->alu == emu_alu_sub;
		break;
	case emu_alu_and:
	case emu_alu_test:
		res = a & b;
		flags = emu_zsp(res, width);
		write = insn->alu == emu_alu_and;
		break;
	case emu_alu_or:
		res = a | b;
		flags = emu_zsp(res, width);
		break;
	case emu_alu_xor:
		res = a ^ b;
		flags = emu_zsp(res, width);
		break;
	case emu_alu_inc:
	case emu_alu_dec:
		/* CF is kept: it must have been known.  */
		res = (insn->alu == emu_alu_inc ? a + 1 : a - 1) & mask;
		flags = emu_zsp(res, width) | (alu->flags & emu_f_cf);
		if (insn->alu == emu_alu_inc ? res == sign : a == sign)
			flags |= emu_f_of;
		if (!alu->flags_known) {
			if (write) {
				alu->r[d] = res;
				alu->known |= (uint16_t) (1u << d);
			}
			return;
		}
		break;
	default:
		break;
	}
	if (write) {
		/* 32-bit results zero the upper half.  */
		alu->r[d] = res;
		alu->known |= (uint16_t) (1u << d);
	}
	if (insn->alu != emu_alu_mov) {
		alu->flags = flags;
		alu->flags_known = true;
	}
}

bool emu_alu_cond(struct emu_alu *alu, const struct emu_insn *insn,
		  bool *taken)
{
	bool rcx_known = alu->known >> 1 & 1;

	if (insn->iclass != emu_ic_cond || !insn->emulable)
		return false;
	if (insn->cond >= emu_cc_rcxz) {
		if (!rcx_known ||
		    ((insn->cond == emu_cc_loope || insn->cond == emu_cc_loopne)
		     && !alu->flags_known))
			return false;
	} else if (!alu->flags_known) {
		return false;
	}
	*taken = emu_cond_taken(insn->cond, alu->flags, alu->r[1]);
	if (insn->cond >= emu_cc_loop)
		alu->r[1] -= 1;
	return true;
}
