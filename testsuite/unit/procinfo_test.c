#define _GNU_SOURCE
#include "nat/procinfo.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "testsuite/emu/emu_test_main.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
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

TestSuite(procinfo, .init = setup, .fini = teardown);

static pid_t spawn_at_exec(const char *prog)
{
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execl(prog, prog, (char *) NULL);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP,
		  "status %#x", status);
	return pid;
}

static void kill_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A pid that was just in use and is no more.  */
static pid_t reaped_pid(void)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

Test(procinfo, exe_path)
{
	char self[PATH_MAX], *real;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;

	cr_assert_gt(n, 0);
	self[n] = '\0';
	cr_assert_eq(procinfo_exe_path(getpid(), &text), 0);
	cr_assert_str_eq(text.data, self);

	/* The kernel's view: symlinks in the name are resolved.  */
	pid = spawn_at_exec("/bin/true");
	real = realpath("/bin/true", NULL);
	ps_buf_reset(&text);
	cr_assert_eq(procinfo_exe_path(pid, &text), 0);
	cr_assert_str_eq(text.data, real);
	free(real);
	kill_child(pid);

	ps_buf_reset(&text);
	cr_assert_eq(procinfo_exe_path(reaped_pid(), &text), -pse_noproc);
	cr_assert_eq(text.len, 0);
}

Test(procinfo, exe_path_of_a_deleted_file)
{
	char path[] = "/tmp/procinfo_exe.XXXXXX", buf[4096];
	int in = open("/bin/true", O_RDONLY), out = mkstemp(path);
	ssize_t n;
	pid_t pid;

	cr_assert_geq(in, 0);
	cr_assert_geq(out, 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		cr_assert_eq(write(out, buf, (size_t) n), n);
	fchmod(out, 0755);
	close(in);
	close(out);
	pid = spawn_at_exec(path);
	cr_assert_eq(unlink(path), 0);

	cr_assert_eq(procinfo_exe_path(pid, &text), 0);
	cr_assert(strncmp(text.data, path, strlen(path)) == 0, "%s", text.data);
	cr_assert_str_eq(text.data + strlen(path), " (deleted)");
	kill_child(pid);
}

struct worker {
	pthread_t thread;
	const char *name;
	int cpu;                 /* -1: any */
	atomic_int tid;
	atomic_int quit;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		/* Run on it for a moment, so stat's processor is that CPU.  */
		sched_yield();
	}
	prctl(PR_SET_NAME, w->name);
	atomic_store(&w->tid, gettid());
	while (!atomic_load(&w->quit))
		usleep(1000);
	return NULL;
}

static void start(struct worker *w, const char *name, int cpu)
{
	w->name = name;
	w->cpu = cpu;
	atomic_store(&w->tid, 0);
	atomic_store(&w->quit, 0);
	cr_assert_eq(pthread_create(&w->thread, NULL, work, w), 0);
	while (!atomic_load(&w->tid))
		usleep(1000);
}

static void stop(struct worker *w)
{
	atomic_store(&w->quit, 1);
	pthread_join(w->thread, NULL);
}

Test(procinfo, thread_names)
{
	struct worker a, b;

	/* Parentheses and spaces are what make stat hard to parse.  */
	start(&a, "hio worker", -1);
	start(&b, "x) (y", -1);
	cr_assert_eq(procinfo_thread_name(getpid(), a.tid, &text), 0);
	cr_assert_str_eq(text.data, "hio worker");
	ps_buf_reset(&text);
	cr_assert_eq(procinfo_thread_name(getpid(), b.tid, &text), 0);
	cr_assert_str_eq(text.data, "x) (y");
	cr_assert_geq(procinfo_thread_core(getpid(), b.tid), 0);
	ps_buf_reset(&text);
	cr_assert_eq(procinfo_thread_name(getpid(), getpid(), &text), 0);
	{
		char own[16] = "";

		cr_assert_eq(prctl(PR_GET_NAME, own), 0);
		cr_assert_str_eq(text.data, own);
	}

	/* A thread that exited, in a process that did not.  */
	stop(&b);
	ps_buf_reset(&text);
	cr_assert_eq(procinfo_thread_name(getpid(), b.tid, &text),
		     -pse_nothread);
	cr_assert_eq(procinfo_thread_core(getpid(), b.tid), -pse_nothread);
	cr_assert_eq(text.len, 0);
	stop(&a);
	cr_assert_eq(procinfo_thread_name(reaped_pid(), 1, &text), -pse_noproc);
}

Test(procinfo, thread_core_is_where_it_ran)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t allowed;

	cr_assert_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	for (int cpu = 0; cpu < cpus && cpu < CPU_SETSIZE; cpu++) {
		struct worker w;

		if (!CPU_ISSET(cpu, &allowed))
			continue;
		start(&w, "pinned", cpu);
		cr_assert_eq(procinfo_thread_core(getpid(), w.tid), cpu);
		stop(&w);
	}
	cr_assert_eq(procinfo_thread_core(reaped_pid(), 1), -pse_noproc);
}

Test(procinfo, thread_lists)
{
	struct procinfo_tids list;
	struct worker w[3];
	pid_t pid;

	procinfo_tids_init(&list);
	for (int i = 0; i < 3; i++)
		start(&w[i], "listed", -1);
	cr_assert_eq(procinfo_threads(getpid(), &list), 0);
	cr_assert_geq(list.count, 4);
	for (size_t i = 1; i < list.count; i++)
		cr_assert_lt(list.tids[i - 1], list.tids[i]);
	for (int i = 0; i < 4; i++) {
		pid_t want = i < 3 ? w[i].tid : getpid();
		int seen = 0;

		for (size_t j = 0; j < list.count; j++)
			seen |= list.tids[j] == want;
		cr_assert(seen, "thread %d not listed", want);
	}
	for (int i = 0; i < 3; i++)
		stop(&w[i]);

	/* A single-threaded process lists itself; the list is replaced.  */
	pid = spawn_at_exec("/bin/true");
	cr_assert_eq(procinfo_threads(pid, &list), 0);
	cr_assert_eq(list.count, 1);
	cr_assert_eq(list.tids[0], pid);
	kill_child(pid);
	cr_assert_eq(procinfo_threads(reaped_pid(), &list), -pse_noproc);
	procinfo_tids_fini(&list);
}

Test(procinfo, ids_of_this_process)
{
	struct procinfo_ids ids;

	cr_assert_eq(procinfo_ids(getpid(), &ids), 0);
	cr_assert_eq(ids.ppid, (long) getppid());
	cr_assert_eq(ids.uid, (long) getuid());
	cr_assert_eq(ids.euid, (long) geteuid());
	cr_assert_eq(ids.gid, (long) getgid());
	cr_assert_eq(ids.egid, (long) getegid());
	cr_assert_eq(procinfo_ids(0x7ffffff0, &ids), -pse_noproc);
}
