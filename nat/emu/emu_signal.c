#include "nat/emu/emu_signal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's internal restart codes (include/linux/errno.h).  */
enum {
	emu_erestartsys = 512, emu_erestartnointr = 513,
	emu_erestartnohand = 514, emu_erestart_restartblock = 516,
};

uint64_t emu_signal_mask(const char *status, const char *name)
{
	const char *at = strstr(status, name);

	if (!at)
		return 0;
	return strtoull(at + strlen(name), NULL, 16);
}

bool emu_signal_caught(pid_t tid, int sig)
{
	char path[64], text[4096];
	uint64_t bit;
	size_t n;
	FILE *file;

	if (sig <= 0 || sig > 64)
		return false;
	bit = 1ull << (sig - 1);
	snprintf(path, sizeof(path), "/proc/%d/status", (int) tid);
	file = fopen(path, "re");
	if (!file)
		return false;
	n = fread(text, 1, sizeof(text) - 1, file);
	fclose(file);
	text[n] = 0;
	return (emu_signal_mask(text, "SigCgt:") & bit) &&
		!(emu_signal_mask(text, "SigBlk:") & bit);
}

uint64_t emu_syscall_restart_ip(const struct user_regs_struct *regs)
{
	long ret = (long) regs->rax;

	if ((long) regs->orig_rax < 0)
		return 0;
	switch (-ret) {
	case emu_erestartsys:
	case emu_erestartnointr:
	case emu_erestartnohand:
	case emu_erestart_restartblock:
		return regs->rip - 2;
	default:
		return 0;
	}
}
