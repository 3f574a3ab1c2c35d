/* The x86 debug registers as one process wants them: up to four
   aligned regions, each an instruction breakpoint or a data watchpoint,
   written to every thread.  Larger or unaligned watch regions take
   several registers, as on hardware there is no other way.  */
#ifndef NAT_DEBUGREGS_H
#define NAT_DEBUGREGS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum nat_dr_kind {
	nat_dr_exec,       /* Z1 */
	nat_dr_write,      /* Z2 */
	nat_dr_read,       /* Z3: x86 cannot; always -pse_unsupported */
	nat_dr_access,     /* Z4 */
};

struct nat_dr_slot {
	uint64_t addr;
	unsigned len;          /* 1, 2, 4 or 8 */
	enum nat_dr_kind kind;
	unsigned refs;         /* 0: free */
};

struct nat_debugregs {
	struct nat_dr_slot slot[4];
};

void nat_debugregs_init(struct nat_debugregs *dr);

/* Claim the registers for [ADDR, ADDR+LEN) of KIND; all or nothing.  */
int nat_debugregs_insert(struct nat_debugregs *dr, enum nat_dr_kind kind,
			 uint64_t addr, size_t len);
int nat_debugregs_remove(struct nat_debugregs *dr, enum nat_dr_kind kind,
			 uint64_t addr, size_t len);

/* The DR7 value for the current slots.  */
uint64_t nat_debugregs_dr7(const struct nat_debugregs *dr);

/* Write the slots into thread TID's debug registers.  */
int nat_debugregs_apply(const struct nat_debugregs *dr, pid_t tid);

/* Clear every debug register of TID (before detaching).  */
int nat_debugregs_clear(pid_t tid);

/* After a SIGTRAP: which slot fired, from DR6 (which is then reset).
   Returns the slot index, or -pse_notfound when none did.  */
int nat_debugregs_hit(const struct nat_debugregs *dr, pid_t tid);

#endif
