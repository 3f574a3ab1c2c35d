/* A traced child for native-layer unit tests: forked, stopped with
   SIGSTOP under PTRACE_TRACEME, running BODY when continued.  */
#ifndef TESTSUITE_UNIT_TRACEE_H
#define TESTSUITE_UNIT_TRACEE_H

#include <signal.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static inline pid_t tracee_start(void (*body)(void))
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		if (body)
			body();
		_exit(0);
	}
	if (pid > 0 && (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)))
		return -1;
	return pid;
}

static inline void tracee_kill(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

#endif
