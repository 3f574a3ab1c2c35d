/* Which system calls a process's client catches (QCatchSyscalls), and
   what one syscall stop means: threads of a catching process run under
   PTRACE_SYSCALL, and an entry or return of a caught call is reported
   as gdbserver does ("syscall_entry:NR" / "syscall_return:NR").  */
#ifndef NAT_CATCH_SYSCALL_H
#define NAT_CATCH_SYSCALL_H

#include <stddef.h>
#include <stdint.h>

/* Syscall numbers above this are never caught by number.  */
#define NAT_CATCH_SYSCALL_MAX 1024

struct nat_catch_syscall {
	int enabled;          /* QCatchSyscalls:1 */
	int any;              /* with no list: every call */
	uint8_t nr[NAT_CATCH_SYSCALL_MAX / 8];
};

/* Turn catching off (ON 0), on for every call (N 0), or on for the N
   numbers in NRS; -pse_invalid (and nothing changed) for a number at
   or above NAT_CATCH_SYSCALL_MAX.  */
int nat_catch_syscall_set(struct nat_catch_syscall *c, int on,
			  const uint64_t *nrs, size_t n);

/* Whether a stop at syscall NR is to be reported.  */
int nat_catch_syscall_wants(const struct nat_catch_syscall *c, uint64_t nr);

/* Read what the syscall stop of thread TID is: *NR the call's number,
   *ENTRY 1 at entry, 0 at return.  -pse_nothread when it is gone.  */
int nat_syscall_stop_info(int tid, uint64_t *nr, int *entry);

#endif
