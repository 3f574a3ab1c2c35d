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

/* The effect of a direct call (the push) or a followed return.  */
void emu_alu_rsp(struct emu_alu *alu, int64_t delta);

/* Whether conditional INSN's outcome is known; *TAKEN gets it, and a
   LOOP's RCX decrement is applied.  */
bool emu_alu_cond(struct emu_alu *alu, const struct emu_insn *insn,
		  bool *taken);

#endif
