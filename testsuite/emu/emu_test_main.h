/* main() for the tests that need ptrace (the emulator's, and the unit
   tests of nat/ and server/ that drive an inferior): where the kernel
   refuses it (containers, seccomp, a package build's chroot), they print
   SKIP with the reason and exit 77 so that automake reports a skip, not
   a pass or a hang.  Include once, in the test file.  */
#ifndef TESTSUITE_EMU_EMU_TEST_MAIN_H
#define TESTSUITE_EMU_EMU_TEST_MAIN_H

#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

/* Whether this process may trace a child; WHY gets the reason if not. */
static inline int emu_test_ptrace_works(char *why, size_t len)
{
	int status, fds[2], err = 0;
	pid_t pid;

	if (pipe(fds) < 0) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return 0;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return 0;
	}
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
			err = errno;
		if (write(fds[1], &err, sizeof(err)) < 0)
			_exit(2);
		if (!err)
			raise(SIGSTOP);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &err, sizeof(err)) != sizeof(err))
		err = EIO;
	close(fds[0]);
	if (err) {
		snprintf(why, len, "PTRACE_TRACEME: %s", strerror(err));
		waitpid(pid, &status, 0);
		return 0;
	}
	waitpid(pid, &status, 0);
	if (!WIFSTOPPED(status)) {
		snprintf(why, len, "traced child did not stop (%#x)", status);
		return 0;
	}
	if (ptrace(PTRACE_SINGLESTEP, pid, 0, 0) < 0) {
		snprintf(why, len, "PTRACE_SINGLESTEP: %s", strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 0;
	}
	waitpid(pid, &status, 0);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 1;
}

int main(int argc, char *argv[])
{
	struct criterion_test_set *tests;
	char why[256];
	int result = 0;

	if (!emu_test_ptrace_works(why, sizeof(why))) {
		printf("SKIP: ptrace does not work here: %s\n", why);
		return 77;
	}
	tests = criterion_initialize();
	if (criterion_handle_args(argc, argv, true))
		result = !criterion_run_all_tests(tests);
	criterion_finalize(tests);
	return result;
}

#endif
