#include "nat/emu/emu_insn.h"
#include "common/ps_error.h"

#include <Zydis/Zydis.h>
#include <stdlib.h>
#include <string.h>

struct emu_decoder {
	ZydisDecoder zydis;
};

int emu_decoder_alloc(struct emu_decoder **decoder)
{
	struct emu_decoder *dec = calloc(1, sizeof(*dec));

	if (!dec)
		return -pse_nomem;
	if (!ZYAN_SUCCESS(ZydisDecoderInit(&dec->zydis,
					   ZYDIS_MACHINE_MODE_LONG_64,
					   ZYDIS_STACK_WIDTH_64))) {
		free(dec);
		return -pse_internal;
	}
	*decoder = dec;
	return 0;
}

void emu_decoder_free(struct emu_decoder *decoder)
{
	free(decoder);
}

/* A 64-bit general register's hardware number, RIP, none, or -2 for
   anything the evaluator does not handle (32-bit forms, segments).  */
static int emu_reg_number(ZydisRegister reg)
{
	if (reg == ZYDIS_REGISTER_NONE)
		return emu_reg_none;
	if (reg == ZYDIS_REGISTER_RIP)
		return emu_reg_rip;
	if (ZydisRegisterGetClass(reg) == ZYDIS_REGCLASS_GPR64)
		return ZydisRegisterGetId(reg);
	return -2;
}

static int emu_cond_of(ZydisMnemonic m)
{
	switch (m) {
	case ZYDIS_MNEMONIC_JO: return emu_cc_o;
	case ZYDIS_MNEMONIC_JNO: return emu_cc_no;
	case ZYDIS_MNEMONIC_JB: return emu_cc_b;
	case ZYDIS_MNEMONIC_JNB: return emu_cc_ae;
	case ZYDIS_MNEMONIC_JZ: return emu_cc_e;
	case ZYDIS_MNEMONIC_JNZ: return emu_cc_ne;
	case ZYDIS_MNEMONIC_JBE: return emu_cc_be;
	case ZYDIS_MNEMONIC_JNBE: return emu_cc_a;
	case ZYDIS_MNEMONIC_JS: return emu_cc_s;
	case ZYDIS_MNEMONIC_JNS: return emu_cc_ns;
	case ZYDIS_MNEMONIC_JP: return emu_cc_p;
	case ZYDIS_MNEMONIC_JNP: return emu_cc_np;
	case ZYDIS_MNEMONIC_JL: return emu_cc_l;
	case ZYDIS_MNEMONIC_JNL: return emu_cc_ge;
	case ZYDIS_MNEMONIC_JLE: return emu_cc_le;
	case ZYDIS_MNEMONIC_JNLE: return emu_cc_g;
	case ZYDIS_MNEMONIC_JRCXZ: return emu_cc_rcxz;
	case ZYDIS_MNEMONIC_JECXZ: return emu_cc_ecxz;
	case ZYDIS_MNEMONIC_LOOP: return emu_cc_loop;
	case ZYDIS_MNEMONIC_LOOPE: return emu_cc_loope;
	case ZYDIS_MNEMONIC_LOOPNE: return emu_cc_loopne;
	default: return -1;
	}
}

/* Fill the operand of an indirect near branch; false if the evaluator
   cannot compute it exactly (odd sizes, segments other than fs/gs).  */
static bool emu_operand_of(const ZydisDecodedInstruction *zi,
			   const ZydisDecodedOperand *zo,
			   struct emu_operand *op)
{
	memset(op, 0, sizeof(*op));
	op->reg = op->base = op->index = emu_reg_none;
	if (zo->size != 64)
		return false;
	if (zo->type == ZYDIS_OPERAND_TYPE_REGISTER) {
		int r = emu_reg_number(zo->reg.value);

		if (r < 0 || r == emu_reg_rip)
			return false;
		op->reg = (int8_t) r;
		return true;
	}
	if (zo->type != ZYDIS_OPERAND_TYPE_MEMORY ||
	    zo->mem.type != ZYDIS_MEMOP_TYPE_MEM || zi->address_width != 64)
		return false;
	int base = emu_reg_number(zo->mem.base);
	int index = emu_reg_number(zo->mem.index);

	if (base == -2 || index == -2 || index == emu_reg_rip)
		return false;
	op->is_mem = true;
	op->base = (int8_t) base;
	op->index = (int8_t) index;
	op->scale = index == emu_reg_none ? 0 : zo->mem.scale;
	op->disp = zo->mem.disp.has_displacement ? zo->mem.disp.value : 0;
	switch (zo->mem.segment) {
	case ZYDIS_REGISTER_FS: op->seg = emu_seg_fs; break;
	case ZYDIS_REGISTER_GS: op->seg = emu_seg_gs; break;
	case ZYDIS_REGISTER_CS: case ZYDIS_REGISTER_DS:
	case ZYDIS_REGISTER_ES: case ZYDIS_REGISTER_SS:
	case ZYDIS_REGISTER_NONE:
		op->seg = emu_seg_none; break;
	default:
		return false;
	}
	return true;
}

static bool emu_is_reg(ZydisRegister reg, int number)
{
	return emu_reg_number(reg) == number;
}

/* Whether REG is RSP or RBP in any width (writes to part of them are not
   modelled).  */
static int emu_stack_reg(ZydisRegister reg)
{
	ZydisRegister full = ZydisRegisterGetLargestEnclosing(
		ZYDIS_MACHINE_MODE_LONG_64, reg);

	return full == ZYDIS_REGISTER_RSP ? 4 : full == ZYDIS_REGISTER_RBP ? 5
		: -1;
}

/* Whether the bytes a memory operand names are all the instruction can
   write there: XSAVE's area grows with the features enabled, and BT*
   with a register offset reach anywhere from their operand.  */
static bool emu_store_bounded(const ZydisDecodedInstruction *zi,
			      const ZydisDecodedOperand *ops,
			      const ZydisDecodedOperand *op)
{
	if (op->size == 0 || op->size % 8 ||
	    zi->meta.category == ZYDIS_CATEGORY_XSAVE ||
	    zi->meta.category == ZYDIS_CATEGORY_XSAVEOPT)
		return false;
	if (zi->meta.category == ZYDIS_CATEGORY_BITBYTE &&
	    zi->operand_count_visible > 1 &&
	    ops[1].type == ZYDIS_OPERAND_TYPE_REGISTER)
		return false;
	return true;
}

/* Every operand Zydis lists, hidden ones included, that writes memory
   is a store: one it can place exactly (stack- or frame-relative,
   bounded) is emu_fx_store, any other makes the effects unknown.  */
static void emu_effects(const ZydisDecodedInstruction *zi,
			const ZydisDecodedOperand *ops, struct emu_insn *insn)
{
	bool opsize = (zi->attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE) != 0;
	bool store = false, rsp = false;

	insn->fx = emu_fx_none;
	for (unsigned i = 0; i < zi->operand_count; i++) {
		const ZydisDecodedOperand *op = &ops[i];

		if (!(op->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
			continue;
		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY) {
			if (store || op->mem.type != ZYDIS_MEMOP_TYPE_MEM ||
			    !emu_store_bounded(zi, ops, op) ||
			    op->mem.index != ZYDIS_REGISTER_NONE ||
			    (op->mem.segment != ZYDIS_REGISTER_SS &&
			     op->mem.segment != ZYDIS_REGISTER_DS) ||
			    (!emu_is_reg(op->mem.base, 4) &&
			     !emu_is_reg(op->mem.base, 5)) ||
			    (op->mem.disp.value != (int32_t) op->mem.disp.value))
				insn->fx = emu_fx_unknown;
			store = true;
			insn->fx_reg = (int8_t) emu_reg_number(op->mem.base);
			insn->fx_disp = (int32_t) op->mem.disp.value;
			insn->fx_size = (uint16_t) (op->size / 8);
		} else if (op->type == ZYDIS_OPERAND_TYPE_REGISTER) {
			int r = emu_stack_reg(op->reg.value);

			if (r == 4)
				rsp = true;
			else if (r == 5)
				insn->fx_rbp = true;
		}
	}

	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_PUSH:
		insn->fx = opsize ? emu_fx_unknown : emu_fx_push;
		insn->fx_rbp = false;
		return;
	case ZYDIS_MNEMONIC_POP:
		insn->fx = opsize || ops[0].type != ZYDIS_OPERAND_TYPE_REGISTER ||
			emu_is_reg(ops[0].reg.value, 4) ? emu_fx_unknown
			: emu_fx_pop;
		insn->fx_reg = (int8_t) emu_reg_number(ops[0].reg.value);
		return;
	case ZYDIS_MNEMONIC_LEAVE:
		insn->fx = opsize ? emu_fx_unknown : emu_fx_leave;
		return;
	case ZYDIS_MNEMONIC_ADD:
	case ZYDIS_MNEMONIC_SUB:
		if (emu_is_reg(ops[0].reg.value, 4) &&
		    ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    ops[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
			int64_t imm = ops[1].imm.value.s;

			insn->fx = emu_fx_rsp_add;
			insn->fx_disp = (int32_t) (zi->mnemonic ==
						   ZYDIS_MNEMONIC_ADD ? imm : -imm);
			return;
		}
		break;
	case ZYDIS_MNEMONIC_LEA:
		if (emu_is_reg(ops[0].reg.value, 4) &&
		    emu_is_reg(ops[1].mem.base, 4) &&
		    ops[1].mem.index == ZYDIS_REGISTER_NONE) {
			insn->fx = emu_fx_rsp_add;
			insn->fx_disp = (int32_t) ops[1].mem.disp.value;
			return;
		}
		break;
	case ZYDIS_MNEMONIC_MOV:
		if (emu_is_reg(ops[0].reg.value, 5) &&
		    ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    ops[1].type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    emu_is_reg(ops[1].reg.value, 4)) {
			insn->fx = emu_fx_rbp_rsp;
			insn->fx_rbp = false;
			return;
		}
		break;
	default:
		break;
	}
	if (rsp || (store && insn->fx_rbp))
		insn->fx = emu_fx_unknown;
	else if (store && insn->fx != emu_fx_unknown)
		insn->fx = emu_fx_store;
}

static void emu_alu_of(const ZydisDecodedInstruction *zi,
		       const ZydisDecodedOperand *ops, struct emu_insn *insn)
{
	const ZydisAccessedFlags *f = zi->cpu_flags;
	const unsigned arith = ZYDIS_CPUFLAG_CF | ZYDIS_CPUFLAG_PF |
		ZYDIS_CPUFLAG_ZF | ZYDIS_CPUFLAG_SF | ZYDIS_CPUFLAG_OF;
	int dst, src = emu_reg_none;

	for (unsigned i = 0; i < zi->operand_count; i++) {
		int r;

		if (ops[i].type != ZYDIS_OPERAND_TYPE_REGISTER ||
		    !(ops[i].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
			continue;
		r = emu_reg_number(ZydisRegisterGetLargestEnclosing(
			ZYDIS_MACHINE_MODE_LONG_64, ops[i].reg.value));
		if (r >= 0 && r < 16)
			insn->reg_writes |= (uint16_t) (1u << r);
	}
	/* No flag information: assume the worst.  */
	if (!f || ((f->modified | f->set_0 | f->set_1 | f->undefined) & arith))
		insn->flag_writes = true;

	insn->alu = emu_alu_other;
	if (zi->operand_count_visible < 1 ||
	    ops[0].type != ZYDIS_OPERAND_TYPE_REGISTER ||
	    (ops[0].size != 32 && ops[0].size != 64))
		return;
	dst = emu_reg_number(ZydisRegisterGetLargestEnclosing(
		ZYDIS_MACHINE_MODE_LONG_64, ops[0].reg.value));
	if (dst < 0 || dst > 15)
		return;
	if (zi->operand_count_visible >= 2) {
		const ZydisDecodedOperand *o = &ops[1];

		if (o->type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
			insn->alu_imm = o->imm.value.s;
		} else if (o->type == ZYDIS_OPERAND_TYPE_REGISTER &&
			   o->size == ops[0].size) {
			src = emu_reg_number(ZydisRegisterGetLargestEnclosing(
				ZYDIS_MACHINE_MODE_LONG_64, o->reg.value));
			if (src < 0 || src > 15)
				return;
		} else {
			return;
		}
	}
	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_MOV: insn->alu = emu_alu_mov; break;
	case ZYDIS_MNEMONIC_ADD: insn->alu = emu_alu_add; break;
	case ZYDIS_MNEMONIC_SUB: insn->alu = emu_alu_sub; break;
	case ZYDIS_MNEMONIC_CMP: insn->alu = emu_alu_cmp; break;
	case ZYDIS_MNEMONIC_AND: insn->alu = emu_alu_and; break;
	case ZYDIS_MNEMONIC_OR: insn->alu = emu_alu_or; break;
	case ZYDIS_MNEMONIC_XOR: insn->alu = emu_alu_xor; break;
	case ZYDIS_MNEMONIC_TEST: insn->alu = emu_alu_test; break;
	case ZYDIS_MNEMONIC_INC: insn->alu = emu_alu_inc; break;
	case ZYDIS_MNEMONIC_DEC: insn->alu = emu_alu_dec; break;
	default: return;
	}
	if ((insn->alu == emu_alu_inc || insn->alu == emu_alu_dec) ?
	    zi->operand_count_visible != 1 : zi->operand_count_visible != 2) {
		insn->alu = emu_alu_other;
		return;
	}
	insn->alu_width = (uint8_t) ops[0].size;
	insn->alu_dst = (int8_t) dst;
	insn->alu_src = (int8_t) src;
}

static void emu_classify(const ZydisDecodedInstruction *zi,
			 const ZydisDecodedOperand *ops, struct emu_insn *insn)
{
	/* AMD honours 66h on near branches (16-bit IP); the hardware must
	   decide those, so they are stepped.  */
	bool opsize = (zi->attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE) != 0;
	bool far = zi->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR;
	int cond = emu_cond_of(zi->mnemonic);

	if (cond >= 0) {
		insn->iclass = emu_ic_cond;
		insn->cond = (uint8_t) cond;
		insn->target = insn->ip + insn->len + ops[0].imm.value.s;
		/* LOOP with 67h works on ECX; leave that to the hardware.  */
		insn->emulable = !opsize && ops[0].type ==
			ZYDIS_OPERAND_TYPE_IMMEDIATE &&
			(cond < emu_cc_loop || zi->address_width == 64);
		return;
	}

	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_JMP:
	case ZYDIS_MNEMONIC_CALL: {
		bool call = zi->mnemonic == ZYDIS_MNEMONIC_CALL;

		if (far) {
			insn->iclass = emu_ic_far;
			return;
		}
		if (ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE) {
			insn->iclass = call ? emu_ic_call : emu_ic_jmp;
			insn->target = insn->ip + insn->len +
				ops[0].imm.value.s;
			insn->emulable = !opsize;
			return;
		}
		insn->iclass = call ? emu_ic_call_ind : emu_ic_jmp_ind;
		insn->emulable = !opsize && emu_operand_of(zi, &ops[0],
							   &insn->op);
		return;
	}
	case ZYDIS_MNEMONIC_RET:
		if (far) {
			insn->iclass = emu_ic_far;
			return;
		}
		insn->iclass = emu_ic_ret;
		insn->emulable = !opsize;
		if (zi->operand_count_visible > 0 &&
		    ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE)
			insn->ret_imm = (uint16_t) ops[0].imm.value.u;
		return;
	case ZYDIS_MNEMONIC_INT3:
		insn->iclass = emu_ic_int3;
		return;
	case ZYDIS_MNEMONIC_SYSCALL:
	case ZYDIS_MNEMONIC_SYSENTER:
	case ZYDIS_MNEMONIC_INT:
	case ZYDIS_MNEMONIC_INT1:
	case ZYDIS_MNEMONIC_INTO:
		insn->iclass = emu_ic_far_kernel;
		return;
	case ZYDIS_MNEMONIC_IRET:
	case ZYDIS_MNEMONIC_IRETD:
	case ZYDIS_MNEMONIC_IRETQ:
	case ZYDIS_MNEMONIC_SYSRET:
	case ZYDIS_MNEMONIC_SYSEXIT:
		insn->iclass = emu_ic_far;
		return;
	default:
		break;
	}

	/* Everything else runs natively; what can branch without being a
	   branch (transactions) is stepped.  */
	insn->iclass = emu_ic_other;
	insn->emulable = zi->mnemonic != ZYDIS_MNEMONIC_XBEGIN &&
		zi->mnemonic != ZYDIS_MNEMONIC_XABORT &&
		zi->mnemonic != ZYDIS_MNEMONIC_XEND;
	emu_effects(zi, ops, insn);
	emu_alu_of(zi, ops, insn);
	insn->rep = (zi->attributes & (ZYDIS_ATTRIB_HAS_REP |
				       ZYDIS_ATTRIB_HAS_REPE |
				       ZYDIS_ATTRIB_HAS_REPNE)) != 0 &&
		(zi->meta.category == ZYDIS_CATEGORY_STRINGOP ||
		 zi->meta.category == ZYDIS_CATEGORY_IOSTRINGOP);
}

int emu_insn_decode(const struct emu_decoder *decoder, uint64_t ip,
		    const uint8_t *buf, size_t len, struct emu_insn *insn)
{
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder->zydis, buf, len,
						 &zi, ops)))
		return -pse_invalid;
	emu_insn_classify(ip, &zi, ops, insn);
	return 0;
}

void emu_insn_classify(uint64_t ip, const ZydisDecodedInstruction *zi,
		       const ZydisDecodedOperand *ops, struct emu_insn *insn)
{
	memset(insn, 0, sizeof(*insn));
	insn->op.reg = insn->op.base = insn->op.index = emu_reg_none;
	insn->ip = ip;
	insn->len = zi->length;
	emu_classify(zi, ops, insn);
}

bool emu_insn_is_stop(const struct emu_insn *insn)
{
	switch (insn->iclass) {
	case emu_ic_other:
		return !insn->emulable;
	case emu_ic_jmp:
	case emu_ic_call:
		return !insn->emulable;
	default:
		return true;
	}
}
