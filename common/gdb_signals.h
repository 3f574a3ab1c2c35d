/* GDB's signal numbers, the ones the remote protocol carries in stop
   replies (T05, X09), vCont;C and QPassSignals.  They differ from
   Linux's above 9 (SIGUSR1 is 30 on the wire, 10 on Linux), so every
   signal crossing the wire goes through these functions.  */
#ifndef GDB_SIGNALS_H
#define GDB_SIGNALS_H

/* The numbers fixed by GDB's protocol that ptstub names in code; the
   rest are reached through gdb_signal_from_host.  */
enum gdb_sig {
	gdb_sig_0 = 0,          /* no signal */
	gdb_sig_hup = 1,
	gdb_sig_int = 2,
	gdb_sig_quit = 3,
	gdb_sig_ill = 4,
	gdb_sig_trap = 5,
	gdb_sig_abrt = 6,
	gdb_sig_fpe = 8,
	gdb_sig_kill = 9,
	gdb_sig_bus = 10,
	gdb_sig_segv = 11,
	gdb_sig_sys = 12,
	gdb_sig_pipe = 13,
	gdb_sig_alrm = 14,
	gdb_sig_term = 15,
	gdb_sig_stop = 17,
	gdb_sig_chld = 20,
	gdb_sig_usr1 = 30,
	gdb_sig_usr2 = 31,
	gdb_sig_unknown = 143,  /* a host signal GDB has no number for */
	gdb_sig_last = 152,     /* one past the last defined number */
};

/* GDB's number for Linux signal LINUX_SIG: 0 for 0, gdb_sig_unknown for
   a number Linux does not define or GDB cannot name (SIGSTKFLT, which
   gdbserver reports the same way).  Real-time signals follow the
   kernel's numbering, 32..64, not glibc's shifted SIGRTMIN.  */
int gdb_signal_from_host(int linux_sig);

/* The Linux signal for GDB number GDB_SIG: 0 for gdb_sig_0, -1 for a
   number with no Linux equivalent (SIGEMT, SIGLOST, SIG65 and up, ...).
   SIGIO and SIGPOLL both map to Linux's SIGIO, as they are one signal
   there.  */
int gdb_signal_to_host(int gdb_sig);

/* GDB's name for GDB_SIG ("SIGUSR1", "SIG34", "0" for gdb_sig_0), or
   "?" for a number that has none; never NULL.  */
const char *gdb_signal_name(int gdb_sig);

#endif
