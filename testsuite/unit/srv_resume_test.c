/* server/srv_resume.c: vCont?, vCont and c/C/s/S run the real program;
   the stop replies come back over the socketpair.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(srv_resume, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* Whether /proc/PID/stat says the process is in a ptrace stop.  */
static int traced_stop(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
	fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	cr_assert_gt(n, 0);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	cr_assert_not_null(p);
	return p[2] == 't';
}

/* Whether S is N hex digits.  */
static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ps_hex_digit(s[i]) < 0)
			return 0;
	return 1;
}

Test(srv_resume, vcont_query_lists_actions)
{
	cr_assert_str_eq(srv_fx_req("vCont?"), "vCont;c;C;s;S;t;r");
}

Test(srv_resume, vcont_c_to_a_breakpoint_gives_the_full_stop_reply)
{
	uint64_t marker = srv_fx_sym("marker");
	char want[128];
	const char *r, *p;
	pid_t pid;

	srv_fx_supported("multiprocess+;swbreak+");
	pid = srv_fx_start("marker", NULL);
	r = srv_fx_run_to("marker");
	/* T05swbreak:;06:<8 bytes>;07:<8 bytes>;10:<8 bytes>;thread:pP.T;core:C; */
	cr_assert(!strncmp(r, "T05swbreak:;06:", 15), "%s", r);
	p = r + 15;
	cr_assert(is_hex(p, 16) && !strncmp(p + 16, ";07:", 4), "%s", r);
	p += 20;
	cr_assert(is_hex(p, 16) && !strncmp(p + 16, ";10:", 4), "%s", r);
	p += 20;
	cr_assert(is_hex(p, 16), "%s", r);
	cr_assert_eq(srv_fx_le(p, 16), marker, "%s", r);
	p += 16;
	snprintf(want, sizeof(want), ";thread:p%x.%x;core:", (unsigned) pid,
		 (unsigned) pid);
	cr_assert(!strncmp(p, want, strlen(want)), "%s", r);
	p += strlen(want);
	cr_assert(ps_hex_digit(*p) >= 0, "%s", r);
	while (ps_hex_digit(*p) >= 0)
		p++;
	cr_assert_str_eq(p, ";", "%s", r);
	/* The thread really is at marker, its int3 behind it.  */
	cr_assert_eq(srv_fx_reg(0x10), marker);
	cr_assert(traced_stop(pid));
}

Test(srv_resume, vcont_s_steps_one_instruction)
{
	uint64_t marker = srv_fx_sym("marker"), rip;
	const char *r;
	pid_t pid;

	pid = srv_fx_start("marker", NULL);
	srv_fx_run_to("marker");
	/* GDB takes its breakpoint out before stepping off it.  */
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	r = srv_fx_reqf("vCont;s:%x;c", (unsigned) pid);
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert_null(strstr(r, "swbreak"), "%s", r);
	rip = srv_fx_stop_reg(r, "10");
	cr_assert_gt(rip, marker, "%s (marker %llx)", r, (unsigned long long) marker);
	cr_assert_leq(rip, marker + 15, "one x86 instruction at most: %s", r);
	cr_assert_eq(srv_fx_reg(0x10), rip);
	/* And again, with the plain form (it may be marker's ret).  */
	r = srv_fx_req("vCont;s");
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert_neq(srv_fx_stop_reg(r, "10"), rip, "%s", r);
	cr_assert_eq(srv_fx_reg(0x10), srv_fx_stop_reg(r, "10"));
}

Test(srv_resume, old_s_and_c)
{
	uint64_t rip0;
	const char *r;

	srv_fx_start("exit", "4");
	rip0 = srv_fx_reg(0x10);
	r = srv_fx_req("s");
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert_neq(srv_fx_stop_reg(r, "10"), rip0);
	cr_assert_str_eq(srv_fx_req("c"), "W04");
}

Test(srv_resume, C_delivers_sigusr1)
{
	srv_fx_start("marker", NULL);
	/* 0x1e is GDB's SIGUSR1; its default action kills the program.  */
	cr_assert_str_eq(srv_fx_req("C1e"), "X1e");
}

Test(srv_resume, vcont_C_delivers_sigusr1)
{
	char want[64];
	pid_t pid;

	srv_fx_supported("multiprocess+");
	pid = srv_fx_start("marker", NULL);
	snprintf(want, sizeof(want), "X1e;process:%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_reqf("vCont;C1e:p%x.%x", (unsigned) pid,
				     (unsigned) pid), want);
}

Test(srv_resume, signal_stop_then_pass_it_on)
{
	const char *r;

	srv_fx_start("signal", NULL);
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T1e", 3), "%s", r);
	/* The program ignores SIGUSR1: delivered, it carries on to exit 5. */
	cr_assert_str_eq(srv_fx_req("vCont;C1e"), "W05");
}

Test(srv_resume, signal_stop_then_suppress_it)
{
	const char *r;

	srv_fx_start("signal", NULL);
	r = srv_fx_req("c");
	cr_assert(!strncmp(r, "T1e", 3), "%s", r);
	cr_assert_str_eq(srv_fx_req("c"), "W05");
}

Test(srv_resume, malformed_resumes_nothing)
{
	static const char *const bad[] = {
		"vCont;", "vCont;x", "vCont;C", "vCont;Czz", "vCont;C1",
		"vCont;c:zz", "vCont;cx", "vCont;c;", "vCont;C99", "vCont;c:p1.",
		"vCont;S", "vContc", "C", "Czz", "S", "Sz", "c401000", "s401000",
		"C1e;401000", "C1ex",
	};
	pid_t pid = srv_fx_start("marker", NULL);
	uint64_t rip = srv_fx_reg(0x10);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *r = srv_fx_req(bad[i]);

		cr_assert_neq(fx.res, srv_resumed, "%s resumed", bad[i]);
		cr_assert(srv_fx_is_error(r), "%s gave %s", bad[i], r);
		cr_assert(traced_stop(pid), "%s let it run", bad[i]);
		cr_assert_not(srv_fx_pending(), "%s sent a stop reply", bad[i]);
	}
	cr_assert_eq(srv_fx_reg(0x10), rip);
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}

Test(srv_resume, without_process_is_an_error)
{
	cr_assert(srv_fx_is_error(srv_fx_req("vCont;c")));
	cr_assert(srv_fx_is_error(srv_fx_req("c")));
	cr_assert(srv_fx_is_error(srv_fx_req("s")));
}

Test(srv_resume, fork_event_when_asked_for)
{
	char want[64], hex[64];
	unsigned long child;
	const char *r, *p;
	pid_t pid;

	srv_fx_supported("multiprocess+;fork-events+");
	pid = srv_fx_start("fork", NULL);
	/* As GDB does by default: the child's exit is no stop.  */
	cr_assert_str_eq(srv_fx_req("QPassSignals:14"), "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05fork:p", 9), "%s", r);
	child = strtoul(r + 9, (char **) &p, 16);
	cr_assert_neq(child, (unsigned long) pid);
	snprintf(want, sizeof(want), ".%lx;", child);
	cr_assert(!strncmp(p, want, strlen(want)), "%s", r);
	/* The parent stopped at the fork: its thread is the event's.  */
	snprintf(want, sizeof(want), "p%x.%x", (unsigned) pid, (unsigned) pid);
	cr_assert(srv_fx_field(r, "thread", hex, sizeof(hex)), "%s", r);
	cr_assert_str_eq(hex, want);
	/* GDB lets the child go (follow-fork-mode parent).  */
	cr_assert_str_eq(srv_fx_reqf("D;%lx", child), "OK");
	snprintf(want, sizeof(want), "W%x;process:%x", 10, (unsigned) pid);
	r = srv_fx_req("vCont;c");
	cr_assert_str_eq(r, want, "child's 9, plus 1: %s", r);
}

Test(srv_resume, no_fork_event_unless_asked)
{
	const char *r;

	srv_fx_start("fork", NULL);
	/* The child's exit is the parent's SIGCHLD (GDB's 0x14).  */
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T14", 3), "%s", r);
	cr_assert_str_eq(srv_fx_req("vCont;C14"), "W0a");
}

Test(srv_resume, exec_event_when_asked_for)
{
	char want[8192];
	const char *r;

	srv_fx_supported("multiprocess+;exec-events+");
	srv_fx_start("exec", NULL);
	r = srv_fx_req("vCont;c");
	snprintf(want, sizeof(want), "T05exec:");
	srv_fx_hex(want + 8, fx.prog);
	strcat(want, ";");
	cr_assert(!strncmp(r, want, strlen(want)), "%s", r);
	cr_assert(!strncmp(srv_fx_req("vCont;c"), "W3;process:", 11));
}

/* As gdbserver: without exec-events the exec is a plain SIGTRAP stop
   at the new program's first instruction.  */
Test(srv_resume, no_exec_event_unless_asked)
{
	const char *r;

	srv_fx_start("exec", NULL);
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05", 3) && !strstr(r, "exec"), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), srv_fx_reg(0x10));
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W03");
}

/* vCont;r: steps on while in the range, reports the first PC out of it
   (marker's caller), or a breakpoint inside it.  */
Test(srv_resume, range_step_runs_to_the_end_of_the_range)
{
	uint64_t marker = srv_fx_sym("marker");
	uint64_t end = srv_fx_sym("thread_body"), main = srv_fx_sym("main");
	uint64_t rip;
	const char *r;
	pid_t pid;

	pid = srv_fx_start("marker", NULL);
	srv_fx_run_to("marker");
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	r = srv_fx_reqf("vCont;r%llx,%llx:%x;c", (unsigned long long) marker,
			(unsigned long long) end, (unsigned) pid);
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	rip = srv_fx_stop_reg(r, "10");
	cr_assert(rip > main && rip < main + 0x400, "%s", r);
}

Test(srv_resume, range_step_stops_at_a_breakpoint_inside)
{
	uint64_t marker = srv_fx_sym("marker");
	uint64_t end = srv_fx_sym("thread_body");
	const char *r;
	pid_t pid;

	pid = srv_fx_start("marker", NULL);
	srv_fx_run_to("marker");
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	/* push %rbp; mov %rsp,%rbp: the third instruction is 4 bytes on.  */
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker + 4),
			 "OK");
	r = srv_fx_reqf("vCont;r%llx,%llx:%x;c", (unsigned long long) marker,
			(unsigned long long) end, (unsigned) pid);
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), marker + 4, "%s", r);
}

/* QThreadEvents:1: each of the three threads' creation is a
   "T05create:;" stop of the new thread, and its exit a "w" reply naming
   it, before the process's W; without it, only the W.  */
Test(srv_resume, thread_events_report_thread_creations_and_exits)
{
	unsigned long created[8];
	char want[64], thr[64];
	const char *r;
	pid_t pid;
	int creates = 0, exits = 0;

	srv_fx_supported("multiprocess+");
	pid = srv_fx_start("threads", NULL);
	cr_assert_str_eq(srv_fx_req("QThreadEvents:1"), "OK");
	cr_assert(srv_fx_is_error(srv_fx_req("QThreadEvents:2")));
	snprintf(want, sizeof(want), ";p%x.", (unsigned) pid);
	snprintf(thr, sizeof(thr), "thread:p%x.", (unsigned) pid);
	for (r = srv_fx_req("vCont;c");; r = srv_fx_req("vCont;c")) {
		if (!strncmp(r, "T05create:;", 11)) {
			const char *t = strstr(r, thr);
			unsigned long tid;

			cr_assert(t, "%s", r);
			tid = strtoul(t + strlen(thr), NULL, 16);
			cr_assert_neq(tid, (unsigned long) pid, "%s", r);
			cr_assert_lt(creates, 8);
			created[creates++] = tid;
			continue;
		}
		if (r[0] != 'w')
			break;
		/* Its status is 0, or the process's exit code when main's
		   exit overtook a joined thread still on its way out.  */
		{
			char *p;
			unsigned long st = strtoul(r + 1, &p, 16);
			unsigned long tid;
			int seen = 0;

			cr_assert(st == 0 || st == 3, "%s", r);
			cr_assert(!strncmp(p, want, strlen(want)), "%s", r);
			tid = strtoul(p + strlen(want), NULL, 16);
			for (int i = 0; i < creates; i++)
				seen |= created[i] == tid;
			cr_assert(seen, "exit of %lx never created: %s", tid, r);
		}
		exits++;
	}
	cr_assert_eq(creates, 3, "%d thread creations, then %s", creates, r);
	cr_assert_eq(exits, 3, "%d thread exits, then %s", exits, r);
	snprintf(want, sizeof(want), "W3;process:%x", (unsigned) pid);
	cr_assert_str_eq(r, want);
}

Test(srv_resume, no_thread_events_by_default)
{
	char want[64];
	pid_t pid;

	srv_fx_supported("multiprocess+");
	pid = srv_fx_start("threads", NULL);
	snprintf(want, sizeof(want), "W3;process:%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("vCont;c"), want);
}
