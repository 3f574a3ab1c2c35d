/* Checks the differential oracle (exact_diff) makes besides comparing
   instruction sequences: IP compression in a PT trace through libipt's
   query decoder, and where an address lies in the traced process.  */
#ifndef TESTSUITE_EXACT_EXACT_CHECK_H
#define TESTSUITE_EXACT_EXACT_CHECK_H

#include "testsuite/emu/emu_driver.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct xc_ip_check {
	unsigned long ips;          /* IPs the query decoder gave */
	unsigned long unmapped;     /* of which not mapped in the process */
	uint64_t first_unmapped;
	int error;                  /* a libipt error other than the end */
};

/* Run libipt's query decoder over PT (branches and events asked for in
   whatever order the packets come) and check every IP it reconstructs
   against PROC's memory.  */
void xc_check_ips(struct drv_proc *proc, const struct ps_buf *pt,
		  struct xc_ip_check *check);

/* "file+0xoff" (or "?") for IP in PID's mappings.  */
void xc_where(pid_t pid, uint64_t ip, char *out, size_t len);

/* Hide the vDSO from PROC, a whole run stopped at its first
   instruction: the auxv's AT_SYSINFO_EHDR becomes AT_IGNORE, so libc
   asks the kernel for the time.  A single-stepped and an emulated run
   read different clocks, and the vDSO's clock code branches on what it
   reads; the kernel's does not show in a user-space trace.  0, or
   -pse_notfound when the auxv has no vDSO, -pse_invalid when PROC is
   not a whole run.  */
int xc_hide_vdso(struct drv_proc *proc);

/* Whether NAME is one of the comma-separated LIST.  */
bool xc_listed(const char *list, const char *name);

/* Whether this process may trace a child; WHY gets the reason if not. */
bool xc_ptrace_works(char *why, size_t len);

#endif
