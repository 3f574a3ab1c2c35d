/* server/srv_nonstop.c: QNonStop, vCont answered OK while the program
   runs, stops as %Stop notifications with the rest queued for vStopped,
   vCont;t reported as signal 0, '?' listing every stopped thread.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(srv_nonstop, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* Read one "%Stop:...#xx" notification the server sent, checksum
   checked, without acking (GDB acks none).  */
static const char *ns_read_notification(void)
{
	char buf[8192];
	size_t n = 0;

	for (;;) {
		struct pollfd pfd = { .fd = fx.fds[1], .events = POLLIN };
		char c;

		cr_assert_eq(poll(&pfd, 1, 10000), 1, "no notification");
		cr_assert_eq(read(fx.fds[1], &c, 1), 1);
		if (!n && c != '%')
			continue;
		cr_assert_lt(n, sizeof(buf) - 3);
		buf[n++] = c;
		if (n > 3 && buf[n - 3] == '#')
			break;
	}
	buf[n] = '\0';
	{
		unsigned want = (unsigned) strtoul(buf + n - 2, NULL, 16);

		cr_assert_eq(ps_checksum(buf + 1, n - 4), want, "%s", buf);
	}
	cr_assert(!strncmp(buf, "%Stop:", 6), "%s", buf);
	return srv_fx_keep(buf + 6, n - 9);
}

/* Let the server report what the program did until a notification is
   on the wire, and return it.  */
static const char *ns_next_notification(void)
{
	for (int i = 0; i < 10000; i++) {
		struct pollfd pfd[2] = {
			{ .fd = fx.fds[1], .events = POLLIN },
			{ .fd = nat_event_fd(&fx.target), .events = POLLIN },
		};

		cr_assert_eq(srv_nonstop_report(&fx.srv), 0);
		if (poll(pfd, 1, 0) == 1)
			return ns_read_notification();
		poll(pfd + 1, 1, 100);
	}
	cr_assert_fail("no event from the program");
	return NULL;
}

static void ns_on(void)
{
	srv_fx_supported("multiprocess+;swbreak+");
	cr_assert_str_eq(srv_fx_req("QNonStop:1"), "OK");
	cr_assert(fx.srv.non_stop);
	cr_assert(fx.target.non_stop);
}

/* A resume packet: in non-stop the serve loop answers OK at once.  */
static void ns_resume(const char *pkt)
{
	ps_buf_reset(&fx.srv.reply);
	fx.res = srv_dispatch(&fx.srv, pkt, strlen(pkt));
	cr_assert_eq(fx.res, srv_resumed, "%s gave %d", pkt, fx.res);
}

static pid_t ns_thread_of(const char *stop)
{
	const char *t = strstr(stop, "thread:p");
	const char *dot = t ? strchr(t, '.') : NULL;

	cr_assert_not_null(dot, "%s", stop);
	return (pid_t) strtol(dot + 1, NULL, 16);
}

Test(srv_nonstop, qnonstop_switches_modes_and_rejects_others)
{
	srv_fx_start("exit", "0");
	ns_on();
	cr_assert_str_eq(srv_fx_req("QNonStop:0"), "OK");
	cr_assert(!fx.srv.non_stop);
	cr_assert(!fx.target.non_stop);
	cr_assert_str_eq(srv_fx_req("QNonStop:2"),
			 "E.Unknown non-stop mode requested: 2\n");
	cr_assert_str_eq(srv_fx_req("QNonStop:11"),
			 "E.Unknown non-stop mode requested: 11\n");
	cr_assert(!fx.srv.non_stop);
}

Test(srv_nonstop, qsupported_offers_qnonstop)
{
	cr_assert(strstr(srv_fx_req("qSupported"), ";QNonStop+"));
}

Test(srv_nonstop, vstopped_with_nothing_queued_is_ok)
{
	srv_fx_start("exit", "0");
	ns_on();
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
}

Test(srv_nonstop, process_exit_is_a_notification)
{
	char want[64];
	pid_t pid = srv_fx_start("exit", "7");

	ns_on();
	ns_resume("vCont;c");
	snprintf(want, sizeof(want), "W7;process:%x", (unsigned) pid);
	cr_assert_str_eq(ns_next_notification(), want);
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
	cr_assert_null(nat_first_process(&fx.target));
}

Test(srv_nonstop, vcont_t_stops_a_running_thread_with_signal_0)
{
	char pkt[64];
	const char *r;
	pid_t pid = srv_fx_start("loop", NULL);

	ns_on();
	ns_resume("vCont;c");
	cr_assert(!srv_fx_pending(), "a reply while it runs");
	/* The stub serves packets while it runs.  */
	cr_assert_str_eq(srv_fx_req("qAttached"), "0");
	snprintf(pkt, sizeof(pkt), "vCont;t:p%x.%x", (unsigned) pid,
		 (unsigned) pid);
	ns_resume(pkt);
	r = ns_next_notification();
	cr_assert(!strncmp(r, "T00", 3), "%s", r);
	cr_assert_eq(ns_thread_of(r), pid);
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
	/* Stopped, and its registers can be read again.  */
	cr_assert(!srv_fx_is_error(srv_fx_req("g")));
	/* Stopping a stopped thread reports nothing more.  */
	ns_resume(pkt);
	cr_assert_eq(srv_nonstop_report(&fx.srv), 0);
	cr_assert(!srv_fx_pending());
}

/* A wildcard vCont;c leaves alone a thread whose stop is on the wire
   and not yet taken with vStopped: the client still has it running (it
   had GDB's `next` run on to the program's end), as in gdbserver.  Named,
   or once taken, it runs.  */
Test(srv_nonstop, wildcard_resume_leaves_a_queued_stop_alone)
{
	char stop[64], cont[64];
	const char *r;
	pid_t pid = srv_fx_start("loop", NULL);

	ns_on();
	ns_resume("vCont;c");
	snprintf(stop, sizeof(stop), "vCont;t:p%x.%x", (unsigned) pid,
		 (unsigned) pid);
	ns_resume(stop);
	r = ns_next_notification();
	cr_assert(!strncmp(r, "T00", 3), "%s", r);
	ns_resume("vCont;c");
	cr_assert_eq(nat_find_thread(&fx.target, pid, pid)->state,
		     nat_thread_stopped, "the wildcard resumed a queued stop");
	snprintf(cont, sizeof(cont), "vCont;c:p%x.-1", (unsigned) pid);
	ns_resume(cont);
	cr_assert_eq(nat_find_thread(&fx.target, pid, pid)->state,
		     nat_thread_stopped, "the process's wildcard resumed it");
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
	ns_resume("vCont;c");
	cr_assert_eq(nat_find_thread(&fx.target, pid, pid)->state,
		     nat_thread_running);
	ns_resume(stop);
	r = ns_next_notification();
	cr_assert(!strncmp(r, "T00", 3), "%s", r);
	snprintf(cont, sizeof(cont), "vCont;c:p%x.%x", (unsigned) pid,
		 (unsigned) pid);
	ns_resume(cont);
	cr_assert_eq(nat_find_thread(&fx.target, pid, pid)->state,
		     nat_thread_running, "named, it runs");
}

/* A wildcard vCont while a fork event is queued does not run the child
   it names: the client is about to detach it, and GDB's detach of a
   child that had run to its end said "Can't detach process.".  */
Test(srv_nonstop, wildcard_resume_leaves_a_queued_fork_child_alone)
{
	char detach[64];
	const char *r, *f;
	struct nat_process *child;
	pid_t cpid;

	fx.target.pass_signals[SIGCHLD] = 1;
	srv_fx_start("fork", NULL);
	srv_fx_supported("multiprocess+;swbreak+;fork-events+");
	cr_assert_str_eq(srv_fx_req("QNonStop:1"), "OK");
	ns_resume("vCont;c");
	r = ns_next_notification();
	f = strstr(r, "fork:p");
	cr_assert_not_null(f, "%s", r);
	cpid = (pid_t) strtol(f + 6, NULL, 16);
	child = nat_find_process(&fx.target, cpid);
	cr_assert_not_null(child);
	ns_resume("vCont;c");
	cr_assert_eq(child->threads->state, nat_thread_stopped,
		     "the wildcard ran the fork child");
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
	snprintf(detach, sizeof(detach), "D;%x", (unsigned) cpid);
	cr_assert_str_eq(srv_fx_req(detach), "OK");
}

Test(srv_nonstop, vctrlc_interrupts_and_the_stop_is_notified)
{
	const char *r;

	srv_fx_start("loop", NULL);
	ns_on();
	ns_resume("vCont;c");
	cr_assert_str_eq(srv_fx_req("vCtrlC"), "OK");
	r = ns_next_notification();
	cr_assert(!strncmp(r, "T02", 3), "%s", r);  /* SIGINT */
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
}

/* Three threads hit a breakpoint each on their own: one notification,
   the other stops through vStopped; the main thread keeps running; '?'
   then lists every stopped thread the same way.  */
Test(srv_nonstop, threads_stop_independently_and_question_lists_them)
{
	pid_t pid = srv_fx_start("threads", NULL), seen[3] = { 0 };
	uint64_t marker = srv_fx_sym("marker");
	unsigned nseen = 0;
	const char *r;

	ns_on();
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker),
			 "OK");
	ns_resume("vCont;c");
	while (nseen < 3) {
		for (r = ns_next_notification(); strcmp(r, "OK");
		     r = srv_fx_req("vStopped")) {
			cr_assert(!strncmp(r, "T05swbreak:;", 12), "%s", r);
			cr_assert_lt(nseen, 3);
			seen[nseen] = ns_thread_of(r);
			cr_assert_neq(seen[nseen], pid, "the main thread hit it");
			for (unsigned i = 0; i < nseen; i++)
				cr_assert_neq(seen[i], seen[nseen]);
			nseen++;
		}
	}
	/* The main thread waits in pthread_join, still running.  */
	cr_assert_eq(nat_find_thread(&fx.target, pid, pid)->state,
		     nat_thread_running);

	r = srv_fx_req("?");
	for (unsigned n = 0; n < 3; n++) {
		pid_t tid;
		unsigned i;

		cr_assert(!strncmp(r, "T05", 3), "%s", r);
		tid = ns_thread_of(r);
		for (i = 0; i < 3 && seen[i] != tid; i++)
			;
		cr_assert_lt(i, 3, "'?' named thread %x", (unsigned) tid);
		r = srv_fx_req("vStopped");
	}
	cr_assert_str_eq(r, "OK");
	/* Non-stop never moves the client's selected thread.  */
	cr_assert_eq(fx.srv.general.tid, pid);
}

Test(srv_nonstop, question_in_all_stop_is_the_last_stop)
{
	srv_fx_start("exit", "0");
	cr_assert(!strncmp(srv_fx_req("?"), "T05", 3));
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
}

Test(srv_nonstop, back_to_all_stop_stops_every_thread)
{
	pid_t pid = srv_fx_start("loop", NULL);

	ns_on();
	ns_resume("vCont;c");
	cr_assert_str_eq(srv_fx_req("QNonStop:0"), "OK");
	cr_assert_eq(nat_find_thread(&fx.target, pid, pid)->state,
		     nat_thread_stopped);
	cr_assert(!srv_fx_pending());
}

/* State letter of PID in /proc/PID/stat: 't' while ptrace holds it.  */
static char ns_proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	cr_assert_not_null(p);
	return p[2];
}

Test(srv_nonstop, detach_while_it_runs_lets_it_go_running)
{
	char pkt[64];
	pid_t pid = srv_fx_start("loop", NULL);

	srv_fx_stray(pid);
	ns_on();
	ns_resume("vCont;c");
	snprintf(pkt, sizeof(pkt), "D;%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req(pkt), "OK");
	cr_assert_null(nat_first_process(&fx.target));
	cr_assert_eq(srv_nonstop_report(&fx.srv), 0);
	cr_assert(!srv_fx_pending(), "an event of a detached process");
	/* Not left stopped by our SIGSTOP: it runs (or is runnable).  */
	for (int i = 0; i < 100 && ns_proc_state(pid) != 'R'; i++)
		usleep(10000);
	cr_assert_eq(ns_proc_state(pid), 'R');
}

Test(srv_nonstop, kill_while_it_runs)
{
	char pkt[64];
	pid_t pid = srv_fx_start("loop", NULL);

	ns_on();
	ns_resume("vCont;c");
	snprintf(pkt, sizeof(pkt), "vKill;%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req(pkt), "OK");
	cr_assert_null(nat_first_process(&fx.target));
	cr_assert_eq(kill(pid, 0), -1, "the process is still there");
	cr_assert_eq(srv_nonstop_report(&fx.srv), 0);
	cr_assert(!srv_fx_pending());
}

/* '?' reports the thread the client was told of (after vRun, the
   leader) and leaves it stopped for the client: a vCont;t is then
   nothing new, a vCont;c runs it.  */
Test(srv_nonstop, question_leaves_reported_threads_stopped)
{
	char pkt[64];
	pid_t pid = srv_fx_start("exit", "4");
	const char *r;

	ns_on();
	r = srv_fx_req("?");
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert_eq(ns_thread_of(r), pid);
	cr_assert_str_eq(srv_fx_req("vStopped"), "OK");
	cr_assert(!nat_find_thread(&fx.target, pid, pid)->resumed);
	snprintf(pkt, sizeof(pkt), "vCont;t:p%x.%x", (unsigned) pid,
		 (unsigned) pid);
	ns_resume(pkt);
	cr_assert_eq(srv_nonstop_report(&fx.srv), 0);
	cr_assert(!srv_fx_pending(), "a stop for a thread already stopped");
	ns_resume("vCont;c");
	r = ns_next_notification();
	cr_assert(!strncmp(r, "W4;process:", 11), "%s", r);
}
