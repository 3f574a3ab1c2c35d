/* Integer registers and flags followed along a path from a stop, for the
   Jcc shortcut: only instructions modelled exactly (emu_alu_op) keep a
   register or the flags known; anything else makes what it writes
   unknown.  */
#ifndef NAT_EMU_EMU_ALU_H
#define NAT_EMU_EMU_ALU_H

#include "nat/emu/emu_insn.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/user.h>

/* What emu_alu_step needs of an instruction, kept with a walk so that
   following it again needs no decoding.  */
struct emu_alu_rec {
	uint8_t alu;           /* enum emu_alu_op */
	uint8_t width;
	int8_t dst, src;
	uint16_t reg_writes;
	bool flag_writes;
	bool call;             /* a direct call: RSP -= 8 */
	int64_t imm;
};

struct emu_alu {
	uint64_t r[16];
	uint16_t known;      /* bit N: r[N] is exact */
	uint64_t flags;      /* CF PF ZF SF OF at their RFLAGS bits */
	bool flags_known;
};

/* Everything known, from REGS.  */
void emu_alu_init(struct emu_alu *alu, const struct user_regs_struct *regs);

/* The effect of INSN (not a branch) on ALU.  */
void emu_alu_step(struct emu_alu *alu, const struct emu_insn *insn);

/* INSN as a record: a direct call or jump, or an instruction of
   emu_ic_other (false, and a record that changes nothing, for anything
   else).  */
bool emu_alu_record(const struct emu_insn *insn, struct emu_alu_rec *rec);

/* The effect of a recorded instruction.  */
void emu_alu_apply(struct emu_alu *alu, const struct emu_alu_rec *rec);

/* The effect of a direct call (the push) or a followed return.  */
void emu_alu_rsp(struct emu_alu *alu, int64_t delta);

/* Whether conditional INSN's outcome is known; *TAKEN gets it, and a
   LOOP's RCX decrement is applied.  */
bool emu_alu_cond(struct emu_alu *alu, const struct emu_insn *insn,
		  bool *taken);

#endif
