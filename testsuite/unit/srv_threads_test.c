/* server/srv_threads.c: H, T, qC and the thread list, on the "threads"
   program stopped at a breakpoint, compared with /proc/PID/task.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include <dirent.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

TestSuite(srv_threads, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* /proc/PID/task, as a sorted list.  */
static size_t task_list(pid_t pid, long *tids, size_t max)
{
	char path[64];
	struct dirent *d;
	size_t n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int) pid);
	dir = opendir(path);
	cr_assert_not_null(dir);
	while ((d = readdir(dir)) && n < max)
		if (d->d_name[0] != '.')
			tids[n++] = strtol(d->d_name, NULL, 10);
	closedir(dir);
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && tids[j - 1] > tids[j]; j--) {
			long t = tids[j];

			tids[j] = tids[j - 1];
			tids[j - 1] = t;
		}
	return n;
}

/* The threads of a qfThreadInfo/qsThreadInfo walk, sorted; each must
   be pPID.TID of process PID.  */
static size_t listed_threads(pid_t pid, long *tids, size_t max)
{
	size_t n = 0;
	const char *r = srv_fx_req("qfThreadInfo");

	for (;;) {
		const char *p;

		if (!strcmp(r, "l"))
			break;
		cr_assert_eq(r[0], 'm', "thread list reply %s", r);
		p = r + 1;
		while (*p) {
			char *end;
			long tpid, tid;

			cr_assert_eq(*p, 'p', "%s", r);
			tpid = strtol(p + 1, &end, 16);
			cr_assert_eq(*end, '.', "%s", r);
			tid = strtol(end + 1, &end, 16);
			cr_assert_eq(tpid, pid, "%s", r);
			cr_assert_lt(n, max);
			tids[n++] = tid;
			cr_assert(*end == ',' || !*end, "%s", r);
			p = *end ? end + 1 : end;
		}
		r = srv_fx_req("qsThreadInfo");
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && tids[j - 1] > tids[j]; j--) {
			long t = tids[j];

			tids[j] = tids[j - 1];
			tids[j - 1] = t;
		}
	return n;
}

/* The thread a stop reply names.  */
static long stop_thread(const char *r)
{
	char thread[64];

	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)), "%s", r);
	cr_assert_not_null(strchr(thread, '.'), "%s", r);
	return strtol(strchr(thread, '.') + 1, NULL, 16);
}

/* Run "threads" to the third marker() hit: all three threads have then
   been created (some may have exited).  Returns the stopped thread.  */
static long stop_in_threads(pid_t *pid)
{
	unsigned long long marker = srv_fx_sym("marker");
	const char *r;
	long tid, seen[3];

	srv_fx_supported("multiprocess+;swbreak+");
	*pid = srv_fx_start("threads", NULL);
	r = srv_fx_run_to("marker");
	seen[0] = tid = stop_thread(r);
	for (int hit = 1; hit < 3; hit++) {
		/* Off the breakpoint as GDB does it: out, step, back in.  */
		cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", marker), "OK");
		r = srv_fx_reqf("vCont;s:p%x.%lx", (unsigned) *pid, tid);
		cr_assert(!strncmp(r, "T05", 3), "step: %s", r);
		cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", marker), "OK");
		r = srv_fx_req("vCont;c");
		cr_assert(!strncmp(r, "T05swbreak", 10), "hit %d: %s", hit, r);
		seen[hit] = tid = stop_thread(r);
		/* Each thread calls marker() once.  */
		for (int i = 0; i < hit; i++)
			cr_assert_neq(seen[i], tid, "thread %lx hit twice", tid);
	}
	return tid;
}

Test(srv_threads, thread_list_matches_the_kernel)
{
	long listed[64], tasks[64], stopped;
	size_t nl, nt;
	pid_t pid;

	stopped = stop_in_threads(&pid);
	nl = listed_threads(pid, listed, 64);
	nt = task_list(pid, tasks, 64);
	cr_assert_geq(nl, 2, "main and the thread at marker");
	cr_assert_eq(nl, nt, "listed %zu threads, the kernel has %zu", nl, nt);
	for (size_t i = 0; i < nl; i++)
		cr_assert_eq(listed[i], tasks[i]);
	cr_assert_neq(stopped, pid, "marker is hit by the threads, not main");
}

Test(srv_threads, thread_list_of_one_thread)
{
	char want[64];
	pid_t pid = srv_fx_start("exit", "0");

	snprintf(want, sizeof(want), "m%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("qfThreadInfo"), want);
	cr_assert_str_eq(srv_fx_req("qsThreadInfo"), "l");
	srv_fx_supported("multiprocess+");
	snprintf(want, sizeof(want), "mp%x.%x", (unsigned) pid, (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("qfThreadInfo"), want);
}

Test(srv_threads, hg_selects_the_thread_registers_come_from)
{
	long listed[64], stopped;
	size_t n;
	pid_t pid;

	stopped = stop_in_threads(&pid);
	n = listed_threads(pid, listed, 64);
	for (size_t i = 0; i < n; i++) {
		uint64_t rip = (uint64_t) ptrace(PTRACE_PEEKUSER, (pid_t) listed[i],
			(void *) offsetof(struct user_regs_struct, rip), 0);

		cr_assert_str_eq(srv_fx_reqf("Hgp%x.%lx", (unsigned) pid, listed[i]),
				 "OK");
		uint64_t marker = srv_fx_sym("marker"), got = srv_fx_reg(0x10);

		if (listed[i] == stopped)
			cr_assert_eq(got, marker);
		else  /* another thread may have hit marker too, unreported */
			cr_assert(got == rip || (rip == marker + 1 && got == marker),
				  "thread %lx: rip %llx, p10 %llx", listed[i],
				  (unsigned long long) rip, (unsigned long long) got);
	}
}

Test(srv_threads, hg_to_a_missing_thread_is_an_error)
{
	char want[64];
	pid_t pid = srv_fx_start("exit", "0");

	cr_assert(srv_fx_is_error(srv_fx_req("Hg7ffffff0")));
	cr_assert(srv_fx_is_error(srv_fx_reqf("Hgp%x.7ffffff0", (unsigned) pid)));
	cr_assert(srv_fx_is_error(srv_fx_req("Hgp7ffffff0.1")));
	cr_assert(srv_fx_is_error(srv_fx_req("Hgp7ffffff0.-1")));
	cr_assert(srv_fx_is_error(srv_fx_req("Hc7ffffff0")));
	/* ...and leaves the selection alone.  */
	snprintf(want, sizeof(want), "QC%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("qC"), want);
}

Test(srv_threads, hg_any_and_all_are_fine)
{
	pid_t pid = srv_fx_start("exit", "0");

	cr_assert_str_eq(srv_fx_req("Hg0"), "OK");
	cr_assert_str_eq(srv_fx_req("Hg-1"), "OK");
	cr_assert_str_eq(srv_fx_req("Hc-1"), "OK");
	cr_assert_str_eq(srv_fx_req("Hc0"), "OK");
	cr_assert_str_eq(srv_fx_reqf("Hgp%x.0", (unsigned) pid), "OK");
	cr_assert_str_eq(srv_fx_reqf("Hgp%x.-1", (unsigned) pid), "OK");
	cr_assert_str_eq(srv_fx_req("Hgp-1.-1"), "OK");
}

Test(srv_threads, h_malformed_is_an_error)
{
	static const char *const bad[] = {
		"H", "Hg", "Hgzz", "Hg1x", "Hx0", "Hg-2", "Hgp-1.5", "Hg100000000",
		"Hgp1.",
	};

	srv_fx_start("exit", "0");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert(srv_fx_is_error(srv_fx_req(bad[i])), "%s gave %s",
			  bad[i], srv_fx_req(bad[i]));
}

Test(srv_threads, qc_names_the_current_thread)
{
	char want[64];
	pid_t pid;

	srv_fx_supported("multiprocess+");
	pid = srv_fx_start("exit", "0");
	snprintf(want, sizeof(want), "QCp%x.%x", (unsigned) pid, (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("qC"), want);
}

Test(srv_threads, t_says_whether_a_thread_is_alive)
{
	pid_t pid = srv_fx_start("exit", "0");

	cr_assert_str_eq(srv_fx_reqf("T%x", (unsigned) pid), "OK");
	cr_assert_str_eq(srv_fx_reqf("Tp%x.%x", (unsigned) pid, (unsigned) pid), "OK");
	cr_assert(srv_fx_is_error(srv_fx_req("T7ffffff0")));
	cr_assert(srv_fx_is_error(srv_fx_req("T0")));
	cr_assert(srv_fx_is_error(srv_fx_req("T-1")));
	cr_assert(srv_fx_is_error(srv_fx_req("Tzz")));
}
