/* Signal dispositions from /proc and the syscall restart rule.  */
#include "nat/emu/emu_signal.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void handler(int sig) { (void) sig; }

Test(signal, mask_parsing)
{
	const char *text = "Name:\tx\nSigBlk:\t0000000000010000\n"
		"SigIgn:\t0000000000000004\nSigCgt:\t0000000180004002\n";

	cr_expect_eq(emu_signal_mask(text, "SigBlk:"), 0x10000);
	cr_expect_eq(emu_signal_mask(text, "SigCgt:"), 0x180004002ull);
	cr_expect_eq(emu_signal_mask(text, "SigPnd:"), 0);
}

Test(signal, caught_ignored_blocked)
{
	struct sigaction sa;
	sigset_t set;
	pid_t tid = (pid_t) syscall(SYS_gettid);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
	cr_expect(emu_signal_caught(tid, SIGUSR1));
	cr_expect(!emu_signal_caught(tid, SIGUSR2));
	cr_expect(!emu_signal_caught(tid, SIGWINCH), "default action");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	cr_expect(!emu_signal_caught(tid, SIGUSR1), "blocked: stays pending");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	cr_expect(!emu_signal_caught(tid, 0));
}

Test(signal, syscall_restart)
{
	struct user_regs_struct regs = { .rip = 0x1002, .orig_rax = 0 };

	regs.rax = (unsigned long long) -512;   /* ERESTARTSYS */
	cr_expect_eq(emu_syscall_restart_ip(&regs), 0x1000);
	regs.rax = (unsigned long long) -516;   /* ERESTART_RESTARTBLOCK */
	cr_expect_eq(emu_syscall_restart_ip(&regs), 0x1000);
	regs.rax = (unsigned long long) -4;     /* EINTR: returns */
	cr_expect_eq(emu_syscall_restart_ip(&regs), 0);
	regs.rax = (unsigned long long) -512;
	regs.orig_rax = (unsigned long long) -1;   /* not in a syscall */
	cr_expect_eq(emu_syscall_restart_ip(&regs), 0);
}
