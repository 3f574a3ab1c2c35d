#define _GNU_SOURCE
#include "nat/osdata.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct ps_buf text;

static void setup(void)
{
	ps_buf_init(&text);
}

static void teardown(void)
{
	ps_buf_fini(&text);
}

TestSuite(osdata, .init = setup, .fini = teardown, .timeout = 20);

/* A child that waits for its pipe to close, with known arguments.  */
static pid_t spawn_sleeper(int *wfd, char *const argv[])
{
	int fds[2];
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char c;

		close(fds[1]);
		if (argv) {
			dup2(fds[0], 0);
			execv(argv[0], argv);
			_exit(127);
		}
		if (read(fds[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[0]);
	*wfd = fds[1];
	return pid;
}

static void reap(pid_t pid, int wfd)
{
	int status;

	close(wfd);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

Test(osdata, pids_are_sorted_and_include_us)
{
	struct osdata_pids list;
	int found = 0;

	osdata_pids_init(&list);
	cr_assert_eq(osdata_pids_read(&list, NULL), 0);
	cr_assert_gt(list.count, 0);
	for (size_t i = 0; i < list.count; i++) {
		if (i)
			cr_assert_lt(list.pids[i - 1], list.pids[i]);
		if (list.pids[i] == getpid())
			found = 1;
	}
	cr_assert(found, "our pid %d is not listed", (int) getpid());
	osdata_pids_fini(&list);
	cr_assert_null(list.pids);
}

/* Only numeric entries are processes: a fake /proc shows it.  */
Test(osdata, pids_skip_other_entries)
{
	char dir[] = "/tmp/osdata_test.XXXXXX", path[128];
	static const char *names[] = { "42", "7", "self", "1x", "100000", "0" };
	struct osdata_pids list;

	cr_assert_not_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		cr_assert_eq(mkdir(path, 0700), 0);
	}
	osdata_pids_init(&list);
	cr_assert_eq(osdata_pids_read(&list, dir), 0);
	cr_assert_eq(list.count, 3);
	cr_assert_eq(list.pids[0], 7);
	cr_assert_eq(list.pids[1], 42);
	cr_assert_eq(list.pids[2], 100000);
	snprintf(path, sizeof(path), "%s/nonexistent", dir);
	cr_assert_eq(osdata_pids_read(&list, path), -pse_noproc);
	cr_assert_eq(list.count, 0);
	osdata_pids_fini(&list);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rmdir(path);
	}
	rmdir(dir);
}

Test(osdata, command_line_of_a_program)
{
	char *argv[] = { "/bin/cat", "-", "two words", NULL };
	int wfd;
	pid_t pid = spawn_sleeper(&wfd, argv);

	/* Until it has exec'd, it is a copy of us.  */
	for (int i = 0; i < 1000; i++) {
		ps_buf_reset(&text);
		cr_assert_eq(osdata_command_line(pid, &text), 0);
		if (!strncmp(text.data, "/bin/cat", 8))
			break;
		usleep(2000);
	}
	/* Each argument ends in a blank, as gdbserver lists it.  */
	cr_assert_str_eq(text.data, "/bin/cat - two words ");
	ps_buf_reset(&text);
	cr_assert_eq(osdata_command(pid, &text), 0);
	cr_assert_str_eq(text.data, "cat");
	reap(pid, wfd);
}

/* A zombie has no command line: its name in brackets.  */
Test(osdata, command_line_of_a_zombie)
{
	pid_t pid = fork();
	siginfo_t info;

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_NAME, "odd (name) x");
		_exit(0);
	}
	cr_assert_eq(waitid(P_PID, (id_t) pid, &info, WEXITED | WNOWAIT), 0);
	cr_assert_eq(osdata_command_line(pid, &text), 0);
	cr_assert_str_eq(text.data, "[odd (name) x]");
	waitpid(pid, NULL, 0);
	ps_buf_reset(&text);
	cr_assert_eq(osdata_command_line(pid, &text), -pse_noproc);
	cr_assert_eq(osdata_command(pid, &text), -pse_noproc);
}

Test(osdata, user_and_group)
{
	struct passwd *pw = getpwuid(getuid());
	pid_t pgid = 0;

	cr_assert_eq(osdata_user(getpid(), &text), 0);
	cr_assert_str_eq(text.data, pw ? pw->pw_name : "");
	cr_assert_eq(osdata_pgid(getpid(), &pgid), 0);
	cr_assert_eq(pgid, getpgrp());
	/* Gone: the owner cannot be told.  */
	ps_buf_reset(&text);
	cr_assert_eq(osdata_user(0x7ffffff0, &text), 0);
	cr_assert_str_eq(text.data, "?");
	cr_assert_eq(osdata_pgid(0x7ffffff0, &pgid), -pse_noproc);
}

Test(osdata, cores_are_sorted_without_repeats)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int last = -1;
	char *p;

	cr_assert_eq(osdata_cores(getpid(), &text), 0);
	cr_assert_gt(text.len, 0);
	for (p = text.data; *p;) {
		long core = strtol(p, &p, 10);

		cr_assert_gt(core, last, "'%s'", text.data);
		cr_assert_lt(core, ncpu > 0 ? ncpu : 4096);
		last = (int) core;
		if (*p)
			cr_assert_eq(*p++, ',', "'%s'", text.data);
	}
	ps_buf_reset(&text);
	cr_assert_eq(osdata_cores(0x7ffffff0, &text), -pse_noproc);
}
