/* Helpers shared by the files of the native layer that take wait
   statuses from the kernel and resume threads.  Internal to nat/.  */
#ifndef NAT_WAIT_STATUS_H
#define NAT_WAIT_STATUS_H

#include "nat/target.h"

/* waitpid(PID, STATUS, __WALL | FLAGS), retried on EINTR; returns the
   pid, 0 for nothing (WNOHANG), -pse_noproc when there is no child.  */
pid_t nat_waitpid(pid_t pid, int *status, int flags);

/* Write back registers the client changed, and stale debug registers,
   before THREAD runs.  */
int nat_thread_flush_regs(struct nat_thread *thread);

/* Let THREAD run as its last resume request says.  */
int nat_thread_resume(struct nat_thread *thread, enum nat_resume_kind kind,
		      int sig);

#endif
