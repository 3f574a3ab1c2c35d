#include "testsuite/unit/nat_fixture.h"
#include "testsuite/emu/emu_test_main.h"
#include "nat/wait_status.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(inferior, .init = nat_fixture_setup, .fini = nat_fixture_teardown);

Test(inferior, create_stops_at_the_first_instruction)
{
	pid_t pid = nat_fixture_start("exit", "0");
	struct nat_process *proc = nat_find_process(&target, pid);

	cr_assert_not_null(proc);
	cr_assert_not_null(proc->threads);
	cr_assert_eq(proc->threads->tid, pid);
	cr_assert_eq(proc->threads->state, nat_thread_stopped);
	cr_assert_eq(proc->attached, 0);
	/* The kernel's view: stopped under ptrace.  */
	cr_assert_eq(kill(pid, 0), 0);
	cr_assert_eq(nat_kill(&target, pid), 0);
	cr_assert_null(nat_find_process(&target, pid));
	cr_assert_eq(kill(pid, 0), -1);
}

Test(inferior, missing_program_fails_with_its_status)
{
	char *argv[] = { "/nonexistent/program", NULL };
	int status = 0;
	pid_t pid;

	cr_assert_eq(nat_create_inferior(&target, argv, &pid, &status),
		     -pse_noproc);
	cr_assert_eq(status, 127);
	cr_assert_null(nat_first_process(&target));
}

Test(inferior, shell_startup_reaches_the_program)
{
	struct nat_event ev;
	pid_t pid;

	target.start.startup_with_shell = 1;
	target.start.shell = "/bin/sh";
	pid = nat_fixture_start("exit", "4");
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.pid, pid);
	cr_assert_eq(ev.status, 4);
}

Test(inferior, attach_and_detach_leave_it_running)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		execl(prog, prog, "loop", (char *) NULL);
		_exit(1);
	}
	usleep(50000);
	cr_assert_eq(nat_attach(&target, pid), 0);
	cr_assert_eq(nat_attach(&target, pid), -pse_exists);
	struct nat_process *proc = nat_find_process(&target, pid);
	cr_assert_eq(proc->attached, 1);
	cr_assert_eq(proc->threads->state, nat_thread_stopped);
	cr_assert_eq(nat_detach(&target, pid), 0);
	/* Still alive and not stopped: it has not exited.  */
	usleep(20000);
	cr_assert_eq(waitpid(pid, &status, WNOHANG), 0);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

Test(inferior, attach_to_nothing_fails)
{
	cr_assert_lt(nat_attach(&target, 0x7ffffff0), 0);
	cr_assert_null(nat_first_process(&target));
}

/* The image the stopped process runs now.  */
static void expect_exe(pid_t pid, const char *want)
{
	char path[64], exe[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int) pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	cr_assert_gt(n, 0);
	exe[n] = '\0';
	cr_assert_str_eq(exe, want);
}

/* Through the shell, arguments reach the program as given: blanks,
   quotes, the shell's specials, an empty one and a newline (which a
   backslash would turn into a line continuation: it vanished with the
   argument around it, gdb.base/args.exp).  */
Test(inferior, shell_passes_arguments_verbatim)
{
	static const char *const args[] = {
		"a b", "'", "\"$HOME\"", "\n", "", "x\ny", "*;&|", NULL,
	};
	char *argv[16] = { prog };
	char path[64], buf[4096];
	size_t n, at;
	int status, k = 1;
	pid_t pid = 0;
	FILE *f;

	for (int i = 0; args[i]; i++)
		argv[k++] = (char *) args[i];
	argv[k] = NULL;
	target.start.startup_with_shell = 1;
	target.start.shell = "/bin/sh";
	cr_assert_eq(nat_create_inferior(&target, argv, &pid, &status), 0);
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int) pid);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	at = strlen(buf) + 1;           /* past the program's name */
	for (int i = 0; args[i]; i++) {
		cr_assert_lt(at, n, "argument %d missing", i);
		cr_expect_str_eq(buf + at, args[i], "argument %d", i);
		at += strlen(buf + at) + 1;
	}
	cr_expect_eq(at, n, "more arguments than given");
}

/* `set cwd ~/x`: the program starts in $HOME/x (gdb.base/set-cwd.exp).  */
Test(inferior, cwd_with_a_tilde_is_under_home)
{
	char path[64], cwd[4096], want[4096];
	ssize_t n;
	pid_t pid;

	cr_assert_not_null(realpath("/tmp", want));
	cr_assert_eq(setenv("HOME", "/", 1), 0);
	target.start.cwd = "~/tmp";
	pid = nat_fixture_start("exit", "0");
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int) pid);
	n = readlink(path, cwd, sizeof(cwd) - 1);
	cr_assert_gt(n, 0);
	cwd[n] = '\0';
	cr_expect_str_eq(cwd, want);
}

/* Whether NAME=VALUE is in the environment PID's image started with.  */
static int has_env(pid_t pid, const char *entry)
{
	char path[64], buf[65536];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int) pid);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
		if (!strcmp(buf + i, entry))
			return 1;
	return 0;
}

/* --wrapper: the wrapper's exec is counted, so the first stop is at the
   program's first instruction, with what the wrapper set up.  */
static void wrapper_case(int shell)
{
	struct nat_event ev;
	pid_t pid;

	target.start.startup_with_shell = shell;
	target.start.shell = "/bin/sh";
	target.start.wrapper = "env PS_WRAPPED=yes";
	char abs[4096];

	cr_assert_not_null(realpath(prog, abs));
	pid = nat_fixture_start("exit", "6");
	expect_exe(pid, abs);
	cr_assert(has_env(pid, "PS_WRAPPED=yes"));
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_exited);
	cr_assert_eq(ev.pid, pid);
	cr_assert_eq(ev.status, 6);
}

Test(inferior, wrapper_through_the_shell)
{
	wrapper_case(1);
}

Test(inferior, wrapper_without_a_shell)
{
	wrapper_case(0);
}

Test(inferior, missing_wrapper_fails)
{
	char *argv[] = { prog, "exit", "0", NULL };
	int status = 0;
	pid_t pid;

	target.start.startup_with_shell = 0;
	target.start.wrapper = "/nonexistent/wrapper";
	cr_assert_eq(nat_create_inferior(&target, argv, &pid, &status),
		     -pse_noproc);
	cr_assert_eq(status, 127);
	cr_assert_null(nat_first_process(&target));
}

/* Two processes, one started and one attached later: a Ctrl-C is the
   last one's (gdbserver's signal_pid), even while everything is
   stopped: its next resume reports SIGINT.  */
Test(inferior, interrupt_goes_to_the_last_process)
{
	pid_t started = nat_fixture_start("loop", NULL), attached = fork();
	struct nat_event ev;
	int status;

	if (attached == 0) {
		execl(prog, prog, "loop", (char *) NULL);
		_exit(1);
	}
	usleep(50000);
	cr_assert_eq(nat_attach(&target, attached), 0);
	cr_assert_eq(nat_interrupt(&target), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.kind, nat_ev_stopped);
	cr_assert_eq(ev.sig, SIGINT);
	cr_assert_eq(ev.pid, attached, "SIGINT went to %d, not the attached %d "
		     "(started %d)", (int) ev.pid, (int) attached, (int) started);
	cr_assert_eq(nat_kill(&target, attached), 0);
	waitpid(attached, &status, 0);
}

/* Collect statuses until the fork child of "fork" is known, its parent's
   event still pending (the client has not heard of it).  */
static struct nat_process *inferior_unreported_child(pid_t pid)
{
	for (int i = 0; i < 5000; i++) {
		nat_collect(&target);
		for (struct nat_process *p = nat_first_process(&target); p;
		     p = nat_process_next(p))
			if (nat_process_pid(p) != pid)
				return p;
		usleep(1000);
	}
	cr_assert_fail("no fork child collected");
	return NULL;
}

/* A fork child the client never heard of goes with its parent: let go
   at a detach (it runs on: here it exits), killed at a kill.  */
Test(inferior, unreported_fork_child_goes_with_its_parent)
{
	for (int kill_it = 0; kill_it < 2; kill_it++) {
		struct nat_process *child;
		pid_t pid, cpid;

		target.report_fork = 1;
		target.pass_signals[SIGCHLD] = 1;
		pid = nat_fixture_start("fork", NULL);
		nat_fixture_resume_all(nat_resume_cont);
		child = inferior_unreported_child(pid);
		cpid = nat_process_pid(child);
		nat_stop(&target);
		if (kill_it)
			cr_assert_eq(nat_kill(&target, pid), 0);
		else
			cr_assert_eq(nat_detach(&target, pid), 0);
		cr_assert_null(nat_find_process(&target, cpid));
		cr_assert_null(nat_first_process(&target));
		/* Not traced by us any more: not our child to wait for.  */
		cr_assert_eq(waitpid(cpid, NULL, __WALL | WNOHANG), -1);
	}
}

/* A kill takes the end of a thread not known yet (its clone event never
   taken) as it comes: the leader's end waits for it, so a blocking wait
   on the leader alone never ended.  */
Test(inferior, kill_reaps_a_thread_not_known_yet, .timeout = 20)
{
	pid_t pid = nat_fixture_start("threads", NULL);

	nat_fixture_resume_all(nat_resume_cont);
	/* Its first clone stops for us; nothing is collected.  */
	usleep(100 * 1000);
	cr_assert_eq(nat_kill(&target, pid), 0);
	cr_assert_null(nat_find_process(&target, pid));
	cr_assert_eq(waitpid(pid, NULL, __WALL | WNOHANG), -1);
}
