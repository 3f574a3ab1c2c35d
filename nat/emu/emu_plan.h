/* nat/emu/emu_plan.h: the resume planner (emu_plan.c): the path a
   traced thread takes from its IP before the next trap.  Internal to
   nat/emu/.  */
#ifndef NAT_EMU_EMU_PLAN_H
#define NAT_EMU_EMU_PLAN_H

#include "nat/emu/emu_thread.h"
#include "nat/emu/emu_walk.h"

#include <sys/user.h>

struct emu;

/* Lay out TH's path from WALK (starting at REGS->rip) in TH->chain:
   with the shortcuts, returns and conditionals are followed from here
   while their outcome is proven, so the trap goes further on.  Only one
   traced thread may take shortcuts (another could plant a trap on this
   one's way); the chain's copies keep no pointer into the cache.  */
void emu_plan_chain(struct emu *emu, struct emu_thread *th,
		    const struct emu_walk *walk,
		    const struct user_regs_struct *regs);

#endif
