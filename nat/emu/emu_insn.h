/* One x86-64 instruction as the trace emulator sees it: its length, its
   class in Intel PT terms (what packet it produces, as libipt's decoder
   classifies it) and, for branches, what the evaluator needs.  */
#ifndef NAT_EMU_EMU_INSN_H
#define NAT_EMU_EMU_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The packet semantics of an instruction.  */
enum emu_iclass {
	emu_ic_other,        /* no packet (faults are async events) */
	emu_ic_cond,         /* Jcc, JrCXZ, LOOPcc: one TNT bit */
	emu_ic_jmp,          /* direct near jump: no packet */
	emu_ic_call,         /* direct near call: no packet, pushes */
	emu_ic_jmp_ind,      /* indirect near jump: TIP */
	emu_ic_call_ind,     /* indirect near call: TIP, pushes */
	emu_ic_ret,          /* near return: TNT (compressed) or TIP */
	emu_ic_far_kernel,   /* SYSCALL, INT n, ...: TIP.PGD, TIP.PGE */
	emu_ic_far,          /* far jmp/call/ret, IRET in user mode: TIP */
	emu_ic_int3,         /* the program's own INT3 */
};

/* Conditions; the first sixteen are the Jcc encodings (opcode & 0xf).  */
enum emu_cond {
	emu_cc_o, emu_cc_no, emu_cc_b, emu_cc_ae, emu_cc_e, emu_cc_ne,
	emu_cc_be, emu_cc_a, emu_cc_s, emu_cc_ns, emu_cc_p, emu_cc_np,
	emu_cc_l, emu_cc_ge, emu_cc_le, emu_cc_g,
	emu_cc_rcxz, emu_cc_ecxz, emu_cc_loop, emu_cc_loope, emu_cc_loopne,
};

/* General registers by hardware number (rax = 0 ... r15 = 15).  */
enum { emu_reg_none = -1, emu_reg_rip = 16 };

enum emu_seg { emu_seg_none, emu_seg_fs, emu_seg_gs };

/* The operand of an indirect branch: a register, or [seg: base + index *
   scale + disp] (base may be emu_reg_rip, meaning the next IP).  */
struct emu_operand {
	bool is_mem;
	int8_t reg;          /* register operand */
	int8_t base, index;  /* memory operand */
	uint8_t scale;
	uint8_t seg;         /* enum emu_seg */
	int64_t disp;
};

/* What a non-branch instruction does to RSP, RBP and memory, as far as
   proving a return's slot untouched needs (emu_fx_unknown: anything
   not modelled, which rules the shortcut out).  */
enum emu_fx {
	emu_fx_none,       /* no store; RSP and RBP unchanged */
	emu_fx_unknown,
	emu_fx_push,       /* RSP -= 8, then a store at [RSP] */
	emu_fx_pop,        /* RSP += 8; fx_reg is the destination */
	emu_fx_rsp_add,    /* RSP += fx_disp */
	emu_fx_rbp_rsp,    /* RBP = RSP */
	emu_fx_leave,      /* RSP = RBP + 8; RBP = [RBP] */
	emu_fx_store,      /* FX_SIZE bytes at [fx_reg + fx_disp] */
};

/* Integer instructions the Jcc shortcut evaluates exactly, register to
   register or with an immediate (emu_alu_other: anything else; its
   register and flag writes make those unknown).  */
enum emu_alu_op {
	emu_alu_other,
	emu_alu_mov, emu_alu_add, emu_alu_sub, emu_alu_cmp, emu_alu_and,
	emu_alu_or, emu_alu_xor, emu_alu_test, emu_alu_inc, emu_alu_dec,
};

struct emu_insn {
	uint64_t ip;
	uint8_t len;
	uint8_t iclass;      /* enum emu_iclass */
	uint8_t cond;        /* enum emu_cond, for emu_ic_cond */
	bool emulable;       /* the evaluator computes it exactly */
	bool rep;            /* rep-prefixed string instruction */
	uint16_t ret_imm;    /* RET imm16: bytes popped after the address */
	uint64_t target;     /* direct branches and conditionals */
	struct emu_operand op;
	uint8_t fx;          /* enum emu_fx, for emu_ic_other */
	bool fx_rbp;         /* also writes RBP some other way */
	int8_t fx_reg;
	uint16_t fx_size;
	int32_t fx_disp;
	uint8_t alu;         /* enum emu_alu_op */
	uint8_t alu_width;   /* 32 or 64 */
	int8_t alu_dst;
	int8_t alu_src;      /* emu_reg_none: ALU_IMM */
	int64_t alu_imm;
	uint16_t reg_writes; /* general registers written, by number */
	bool flag_writes;    /* writes CF, PF, ZF, SF or OF */
};

struct emu_decoder;

int emu_decoder_alloc(struct emu_decoder **decoder);
void emu_decoder_free(struct emu_decoder *decoder);

/* Decode the instruction in the LEN bytes at BUF, located at IP.
   -pse_invalid if the bytes are not a valid instruction.  */
int emu_insn_decode(const struct emu_decoder *decoder, uint64_t ip,
		    const uint8_t *buf, size_t len, struct emu_insn *insn);
struct ZydisDecodedInstruction_;
struct ZydisDecodedOperand_;
/* The same for an instruction Zydis decoded already (ZI, OPS, at IP):
   the code cache's translator decodes each instruction once.  */
void emu_insn_classify(uint64_t ip, const struct ZydisDecodedInstruction_ *zi,
		       const struct ZydisDecodedOperand_ *ops,
		       struct emu_insn *insn);


/* Whether the trace emulator must stop at INSN (a branch it evaluates or
   an instruction it steps) rather than let the thread run through it.  */
bool emu_insn_is_stop(const struct emu_insn *insn);

#endif
