/* Files as a process sees them: its root and mount namespace, reached
   through /proc/PID when they are not ptstub's own (a program in a
   container).  GDB's vFile:setfs names the process; the server's host
   I/O then opens, reads links and unlinks here.  These return as the
   system calls they stand for, -1 with errno set, since the client is
   told the errno.  */
#ifndef NAT_PROC_ROOT_H
#define NAT_PROC_ROOT_H

#include <stddef.h>
#include <sys/types.h>

/* open(2) of PATH as PID resolves it (0: ptstub's own filesystem),
   close-on-exec so it never leaks into an inferior.  */
int proc_root_open(pid_t pid, const char *path, int flags, mode_t mode);

/* readlink(2) of PATH as PID resolves it.  */
long proc_root_readlink(pid_t pid, const char *path, char *out,
			size_t size);

/* unlink(2) of PATH as PID resolves it.  */
int proc_root_unlink(pid_t pid, const char *path);

#endif
