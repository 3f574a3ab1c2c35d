/* The branch evaluator: where a conditional, indirect or return branch
   goes, computed from the thread's registers and memory exactly as the
   processor would, without running it.  */
#ifndef NAT_EMU_EMU_BRANCH_H
#define NAT_EMU_EMU_BRANCH_H

#include "nat/emu/emu_insn.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/user.h>

/* Read LEN bytes of the thread's memory at ADDR as the thread itself
   would see them; 0 or -pse_fault.  */
typedef int (*emu_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

struct emu_branch {
	bool taken;           /* conditionals; true for the others */
	uint64_t target;      /* the IP the thread continues at */
	bool push;            /* a call: store push_value at push_addr */
	uint64_t push_addr;
	uint64_t push_value;
};

/* Register REG (hardware number, or emu_reg_rip) of REGS.  */
uint64_t emu_reg_get(const struct user_regs_struct *regs, int reg);
void emu_reg_set(struct user_regs_struct *regs, int reg, uint64_t value);

/* Whether COND holds for RFLAGS and RCX, RCX being the value before the
   instruction (LOOPcc tests it after its decrement).  */
bool emu_cond_taken(enum emu_cond cond, uint64_t rflags, uint64_t rcx);

/* The linear address of memory operand OP (fs/gs bases included);
   NEXT_IP is the IP after the instruction, for RIP-relative forms.  */
uint64_t emu_operand_addr(const struct emu_operand *op,
			  const struct user_regs_struct *regs,
			  uint64_t next_ip);

/* Evaluate INSN (an emulable cond, ret, or indirect branch, REGS->rip
   being anywhere) and update REGS as executing it would: RIP, and RSP
   for calls and returns, RCX for LOOP.  The call's store is left to the
   caller (OUT->push).  -pse_fault if memory could not be read, then REGS
   is unchanged; -pse_unsupported for an instruction it does not handle. */
int emu_branch_eval(const struct emu_insn *insn,
		    struct user_regs_struct *regs, emu_read_fn read,
		    void *ctx, struct emu_branch *out);

#endif
