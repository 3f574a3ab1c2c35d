/* What the kernel will do with a thread when it is resumed: run a signal
   handler, or move the IP back to restart an interrupted syscall.  The
   trace must resume (TIP.PGE) exactly there, unless it already holds
   that syscall (it closed inside it): then it resumes where the syscall
   returns (emu_rec_far_kernel).  */
#ifndef NAT_EMU_EMU_SIGNAL_H
#define NAT_EMU_EMU_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

/* Whether delivering SIG to TID now runs a handler (caught and not
   blocked), from /proc/TID/status.  */
bool emu_signal_caught(pid_t tid, int sig);

/* Parse the hex signal mask after NAME ("SigCgt:") in a status text;
   0 if absent.  */
uint64_t emu_signal_mask(const char *status, const char *name);

/* The IP the kernel resumes REGS at if it restarts the syscall they
   stopped in (no handler runs), or 0.  */
uint64_t emu_syscall_restart_ip(const struct user_regs_struct *regs);

#endif
