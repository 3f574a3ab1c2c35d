#define _GNU_SOURCE
#include <criterion/criterion.h>

#include "nat/proc_root.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/proc_root_test.XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(proc_root, .init = setup, .fini = teardown);

static void path_in(char *out, size_t size, const char *name)
{
	snprintf(out, size, "%s/%s", dir, name);
}

/* Pid 0 and ptstub's own pid both mean its own filesystem.  */
Test(proc_root, own_filesystem_opens_reads_links_and_unlinks)
{
	pid_t pids[] = { 0, getpid() };

	for (size_t i = 0; i < 2; i++) {
		char file[PATH_MAX], link[PATH_MAX], got[PATH_MAX];
		long n;
		int fd;

		path_in(file, sizeof(file), "f");
		path_in(link, sizeof(link), "l");
		fd = proc_root_open(pids[i], file, O_CREAT | O_WRONLY, 0600);
		cr_assert_geq(fd, 0);
		cr_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		close(fd);
		cr_assert_eq(symlink(file, link), 0);
		n = proc_root_readlink(pids[i], link, got, sizeof(got));
		cr_assert_eq(n, (long) strlen(file));
		cr_assert_eq(memcmp(got, file, (size_t) n), 0);
		cr_assert_eq(proc_root_unlink(pids[i], link), 0);
		cr_assert_eq(proc_root_unlink(pids[i], file), 0);
		cr_assert_eq(access(file, F_OK), -1);
	}
}

Test(proc_root, a_missing_file_says_enoent)
{
	char file[PATH_MAX];

	path_in(file, sizeof(file), "none");
	errno = 0;
	cr_assert_eq(proc_root_open(0, file, O_RDONLY, 0), -1);
	cr_assert_eq(errno, ENOENT);
	cr_assert_eq(proc_root_unlink(0, file), -1);
	cr_assert_eq(errno, ENOENT);
}

/* A process gone has no filesystem to name.  */
Test(proc_root, a_gone_process_fails)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(0);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
	cr_assert_eq(proc_root_open(pid, "/", O_RDONLY, 0), -1);
}

/* A child in its own mount namespace, rooted in DIR: its "/" is our
   DIR, and its absolute links stay inside it.  */
Test(proc_root, another_namespace_resolves_in_its_root)
{
	char file[PATH_MAX], got[PATH_MAX];
	int ready[2], fd;
	pid_t pid;
	char c;
	long n;

	path_in(file, sizeof(file), "inside");
	cr_assert_eq(pipe(ready), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		c = (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 &&
		     chroot(dir) == 0) ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	cr_assert_eq(read(ready[0], &c, 1), 1);
	if (c != 'y') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		cr_skip_test("no user namespaces here");
	}
	fd = proc_root_open(pid, "/inside", O_CREAT | O_WRONLY, 0600);
	cr_assert_geq(fd, 0, "errno %d", errno);
	close(fd);
	cr_assert_eq(access(file, F_OK), 0);
	/* An absolute link in its root points inside its root.  */
	path_in(file, sizeof(file), "abs");
	cr_assert_eq(symlink("/inside", file), 0);
	n = proc_root_readlink(pid, "/abs", got, sizeof(got));
	cr_assert_eq(n, 7);
	fd = proc_root_open(pid, "/abs", O_RDONLY, 0);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(proc_root_unlink(pid, "/inside"), 0);
	path_in(file, sizeof(file), "inside");
	cr_assert_eq(access(file, F_OK), -1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
