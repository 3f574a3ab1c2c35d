/* Do this machine's debug registers trap?  Some hypervisors accept DR0-DR7
   through ptrace but never raise the #DB, so hardware breakpoints and
   watchpoints cannot be tested there, with any stub.  A child under ptrace
   gets a write watchpoint in DR0/DR7 and writes the watched word.
   Prints one line; exits 0 if the write trapped, 77 (skip) if it did not,
   1 if the probe itself failed.  */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long watched;

#define DR_OFFSET(n) offsetof(struct user, u_debugreg[n])

int main(void)
{
	/* L0, RW0 = 01 (write), LEN0 = 11 (8 bytes).  */
	const long dr7 = 0x1 | (0x1l << 16) | (0x3l << 18);
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("debugregs_probe: fork");
		return 1;
	}
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		watched = 1;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		fprintf(stderr, "debugregs_probe: the child did not stop\n");
		return 1;
	}
	if (ptrace(PTRACE_POKEUSER, pid, DR_OFFSET(0), &watched) < 0 ||
	    ptrace(PTRACE_POKEUSER, pid, DR_OFFSET(7), dr7) < 0) {
		printf("refused: ptrace does not take DR0/DR7 here\n");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 77;
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	if (waitpid(pid, &status, 0) != pid) {
		perror("debugregs_probe: waitpid");
		return 1;
	}
	if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP) {
		printf("works: a write watchpoint traps\n");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 0;
	}
	if (WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	printf("ignored: DR0/DR7 are accepted but a watched write does not "
	       "trap (the hypervisor does not deliver debug exceptions)\n");
	return 77;
}
