#include "nat/emu/emu_branch.h"
#include "common/ps_error.h"

#include <stddef.h>

enum {
	emu_cf = 1u << 0, emu_pf = 1u << 2, emu_zf = 1u << 6,
	emu_sf = 1u << 7, emu_of = 1u << 11,
};

/* Offsets in user_regs_struct by hardware register number.  */
static const size_t emu_reg_offset[17] = {
	offsetof(struct user_regs_struct, rax),
	offsetof(struct user_regs_struct, rcx),
	offsetof(struct user_regs_struct, rdx),
	offsetof(struct user_regs_struct, rbx),
	offsetof(struct user_regs_struct, rsp),
	offsetof(struct user_regs_struct, rbp),
	offsetof(struct user_regs_struct, rsi),
	offsetof(struct user_regs_struct, rdi),
	offsetof(struct user_regs_struct, r8),
	offsetof(struct user_regs_struct, r9),
	offsetof(struct user_regs_struct, r10),
	offsetof(struct user_regs_struct, r11),
	offsetof(struct user_regs_struct, r12),
	offsetof(struct user_regs_struct, r13),
	offsetof(struct user_regs_struct, r14),
	offsetof(struct user_regs_struct, r15),
	offsetof(struct user_regs_struct, rip),
};

uint64_t emu_reg_get(const struct user_regs_struct *regs, int reg)
{
	if (reg < 0 || reg > emu_reg_rip)
		return 0;
	return *(const unsigned long long *)
		((const char *) regs + emu_reg_offset[reg]);
}

void emu_reg_set(struct user_regs_struct *regs, int reg, uint64_t value)
{
	if (reg < 0 || reg > emu_reg_rip)
		return;
	*(unsigned long long *) ((char *) regs + emu_reg_offset[reg]) = value;
}

bool emu_cond_taken(enum emu_cond cond, uint64_t rflags, uint64_t rcx)
{
	bool cf = rflags & emu_cf, pf = rflags & emu_pf, zf = rflags & emu_zf;
	bool sf = rflags & emu_sf, of = rflags & emu_of;

	switch (cond) {
	case emu_cc_o: return of;
	case emu_cc_no: return !of;
	case emu_cc_b: return cf;
	case emu_cc_ae: return !cf;
	case emu_cc_e: return zf;
	case emu_cc_ne: return !zf;
	case emu_cc_be: return cf || zf;
	case emu_cc_a: return !cf && !zf;
	case emu_cc_s: return sf;
	case emu_cc_ns: return !sf;
	case emu_cc_p: return pf;
	case emu_cc_np: return !pf;
	case emu_cc_l: return sf != of;
	case emu_cc_ge: return sf == of;
	case emu_cc_le: return zf || sf != of;
	case emu_cc_g: return !zf && sf == of;
	case emu_cc_rcxz: return rcx == 0;
	case emu_cc_ecxz: return (uint32_t) rcx == 0;
	case emu_cc_loop: return rcx - 1 != 0;
	case emu_cc_loope: return rcx - 1 != 0 && zf;
	case emu_cc_loopne: return rcx - 1 != 0 && !zf;
	}
	return false;
}

uint64_t emu_operand_addr(const struct emu_operand *op,
			  const struct user_regs_struct *regs,
			  uint64_t next_ip)
{
	uint64_t addr = (uint64_t) op->disp;

	if (op->base == emu_reg_rip)
		addr += next_ip;
	else if (op->base != emu_reg_none)
		addr += emu_reg_get(regs, op->base);
	if (op->index != emu_reg_none)
		addr += emu_reg_get(regs, op->index) * op->scale;
	if (op->seg == emu_seg_fs)
		addr += regs->fs_base;
	else if (op->seg == emu_seg_gs)
		addr += regs->gs_base;
	return addr;
}

int emu_branch_eval(const struct emu_insn *insn,
		    struct user_regs_struct *regs, emu_read_fn read,
		    void *ctx, struct emu_branch *out)
{
	uint64_t next = insn->ip + insn->len, target = 0;
	int err;

	if (!insn->emulable)
		return -pse_unsupported;
	out->taken = true;
	out->push = false;

	switch (insn->iclass) {
	case emu_ic_cond:
		out->taken = emu_cond_taken(insn->cond, regs->eflags,
					    regs->rcx);
		if (insn->cond >= emu_cc_loop)
			regs->rcx -= 1;
		target = out->taken ? insn->target : next;
		break;

	case emu_ic_ret:
		err = read(ctx, regs->rsp, &target, sizeof(target));
		if (err < 0)
			return err;
		regs->rsp += 8 + insn->ret_imm;
		break;

	case emu_ic_jmp:
	case emu_ic_call:
		target = insn->target;
		break;

	case emu_ic_jmp_ind:
	case emu_ic_call_ind:
		if (!insn->op.is_mem) {
			target = emu_reg_get(regs, insn->op.reg);
			break;
		}
		err = read(ctx, emu_operand_addr(&insn->op, regs, next),
			   &target, sizeof(target));
		if (err < 0)
			return err;
		break;

	default:
		return -pse_unsupported;
	}

	if (insn->iclass == emu_ic_call || insn->iclass == emu_ic_call_ind) {
		out->push = true;
		out->push_addr = regs->rsp - 8;
		out->push_value = next;
		regs->rsp -= 8;
	}
	out->target = target;
	regs->rip = target;
	return 0;
}
