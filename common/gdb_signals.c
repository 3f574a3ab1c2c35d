#include "common/gdb_signals.h"

#include <signal.h>
#include <stddef.h>

/* GDB's numbering puts real-time signals in three runs: 33..63 at 45,
   then 32 alone at 77 (added later), then 64..127 from 78.  */
enum {
	gdb_sig_rt33 = 45,
	gdb_sig_rt63 = 75,
	gdb_sig_rt32 = 77,
	gdb_sig_rt64 = 78,
	gdb_sig_rt127 = 141,
	gdb_sig_io = 23,
	gdb_sig_poll = 33,
};

/* The kernel's real-time range on x86-64; glibc's SIGRTMIN is higher
   because it keeps two for itself, but those are real signals too.  */
enum { host_rt_lo = 32, host_rt_hi = 64 };

struct sig_pair {
	int host;
	int gdb;
};

/* Linux's classic signals.  SIGIO comes before SIGPOLL (the same number
   on Linux), so a host SIGIO is reported as GDB's SIGIO.  */
static const struct sig_pair classic[] = {
	{ SIGHUP, 1 }, { SIGINT, 2 }, { SIGQUIT, 3 }, { SIGILL, 4 },
	{ SIGTRAP, 5 }, { SIGABRT, 6 }, { SIGFPE, 8 }, { SIGKILL, 9 },
	{ SIGBUS, 10 }, { SIGSEGV, 11 }, { SIGSYS, 12 }, { SIGPIPE, 13 },
	{ SIGALRM, 14 }, { SIGTERM, 15 }, { SIGURG, 16 }, { SIGSTOP, 17 },
	{ SIGTSTP, 18 }, { SIGCONT, 19 }, { SIGCHLD, 20 }, { SIGTTIN, 21 },
	{ SIGTTOU, 22 }, { SIGIO, gdb_sig_io }, { SIGXCPU, 24 },
	{ SIGXFSZ, 25 }, { SIGVTALRM, 26 }, { SIGPROF, 27 },
	{ SIGWINCH, 28 }, { SIGUSR1, 30 }, { SIGUSR2, 31 }, { SIGPWR, 32 },
	{ SIGPOLL, gdb_sig_poll },
};

static const char *const names[gdb_sig_last] = {
	"0", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGEMT", "SIGFPE", "SIGKILL", "SIGBUS", "SIGSEGV", "SIGSYS",
	"SIGPIPE", "SIGALRM", "SIGTERM", "SIGURG", "SIGSTOP", "SIGTSTP",
	"SIGCONT", "SIGCHLD", "SIGTTIN", "SIGTTOU", "SIGIO", "SIGXCPU",
	"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGLOST", "SIGUSR1",
	"SIGUSR2", "SIGPWR", "SIGPOLL", "SIGWIND", "SIGPHONE", "SIGWAITING",
	"SIGLWP", "SIGDANGER", "SIGGRANT", "SIGRETRACT", "SIGMSG", "SIGSOUND",
	"SIGSAK", "SIGPRIO", "SIG33", "SIG34", "SIG35", "SIG36", "SIG37",
	"SIG38", "SIG39", "SIG40", "SIG41", "SIG42", "SIG43", "SIG44",
	"SIG45", "SIG46", "SIG47", "SIG48", "SIG49", "SIG50", "SIG51",
	"SIG52", "SIG53", "SIG54", "SIG55", "SIG56", "SIG57", "SIG58",
	"SIG59", "SIG60", "SIG61", "SIG62", "SIG63", "SIGCANCEL", "SIG32",
	"SIG64", "SIG65", "SIG66", "SIG67", "SIG68", "SIG69", "SIG70",
	"SIG71", "SIG72", "SIG73", "SIG74", "SIG75", "SIG76", "SIG77",
	"SIG78", "SIG79", "SIG80", "SIG81", "SIG82", "SIG83", "SIG84",
	"SIG85", "SIG86", "SIG87", "SIG88", "SIG89", "SIG90", "SIG91",
	"SIG92", "SIG93", "SIG94", "SIG95", "SIG96", "SIG97", "SIG98",
	"SIG99", "SIG100", "SIG101", "SIG102", "SIG103", "SIG104", "SIG105",
	"SIG106", "SIG107", "SIG108", "SIG109", "SIG110", "SIG111", "SIG112",
	"SIG113", "SIG114", "SIG115", "SIG116", "SIG117", "SIG118", "SIG119",
	"SIG120", "SIG121", "SIG122", "SIG123", "SIG124", "SIG125", "SIG126",
	"SIG127", "SIGINFO", NULL, NULL, "EXC_BAD_ACCESS",
	"EXC_BAD_INSTRUCTION", "EXC_ARITHMETIC", "EXC_EMULATION",
	"EXC_SOFTWARE", "EXC_BREAKPOINT", "SIGLIBRT",
};

int gdb_signal_from_host(int linux_sig)
{
	if (linux_sig == 0)
		return gdb_sig_0;
	for (size_t i = 0; i < sizeof(classic) / sizeof(classic[0]); i++)
		if (classic[i].host == linux_sig)
			return classic[i].gdb;
	if (linux_sig == 32)
		return gdb_sig_rt32;
	if (linux_sig >= 33 && linux_sig <= 63)
		return gdb_sig_rt33 + (linux_sig - 33);
	if (linux_sig == 64)
		return gdb_sig_rt64;
	return gdb_sig_unknown;
}

int gdb_signal_to_host(int gdb_sig)
{
	int host = -1;

	if (gdb_sig == gdb_sig_0)
		return 0;
	for (size_t i = 0; i < sizeof(classic) / sizeof(classic[0]); i++)
		if (classic[i].gdb == gdb_sig)
			return classic[i].host;
	if (gdb_sig >= gdb_sig_rt33 && gdb_sig <= gdb_sig_rt63)
		host = 33 + (gdb_sig - gdb_sig_rt33);
	else if (gdb_sig == gdb_sig_rt32)
		host = 32;
	else if (gdb_sig >= gdb_sig_rt64 && gdb_sig <= gdb_sig_rt127)
		host = 64 + (gdb_sig - gdb_sig_rt64);
	if (host < host_rt_lo || host > host_rt_hi)
		return -1;
	return host;
}

const char *gdb_signal_name(int gdb_sig)
{
	if (gdb_sig < 0 || gdb_sig >= gdb_sig_last || !names[gdb_sig])
		return "?";
	return names[gdb_sig];
}
