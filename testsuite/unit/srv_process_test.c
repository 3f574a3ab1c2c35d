/* server/srv_process.c: !, vRun, vAttach, vKill, k and D on real
   processes.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include <sys/prctl.h>

TestSuite(srv_process, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

static const char *vrun(const char *mode, const char *arg)
{
	char prog[8192], m[64], a[64];

	if (arg)
		return srv_fx_reqf("vRun;%s;%s;%s", srv_fx_hex(prog, fx.prog),
				   srv_fx_hex(m, mode), srv_fx_hex(a, arg));
	return srv_fx_reqf("vRun;%s;%s", srv_fx_hex(prog, fx.prog),
			   srv_fx_hex(m, mode));
}

/* A child of ours, not traced, spinning until killed.  */
static pid_t spawn_loop(void)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl(fx.prog, fx.prog, "loop", (char *) NULL);
		_exit(127);
	}
	/* Let it get past exec before anyone attaches.  */
	for (int i = 0; i < 200; i++) {
		char path[64], exe[4096];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/exe", (int) pid);
		n = readlink(path, exe, sizeof(exe) - 1);
		if (n > 0 && (exe[n] = '\0', !strcmp(exe, fx.prog)))
			break;
		usleep(10000);
	}
	srv_fx_stray(pid);
	return pid;
}

Test(srv_process, extended_mode)
{
	cr_assert_not(fx.srv.extended);
	cr_assert_str_eq(srv_fx_req("!"), "OK");
	cr_assert(fx.srv.extended);
}

Test(srv_process, vrun_starts_with_arguments)
{
	char thread[64], want[64];
	const char *r;
	pid_t pid;

	srv_fx_supported("multiprocess+");
	r = vrun("exit", "2a");
	cr_assert(!strncmp(r, "T05", 3), "vRun gave %s", r);
	pid = (pid_t) fx.srv.general.pid;
	cr_assert_not_null(nat_find_process(&fx.target, pid));
	cr_assert_eq(srv_fx_status_field(pid, "TracerPid:"), getpid());
	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)));
	snprintf(want, sizeof(want), "p%x.%x", (unsigned) pid, (unsigned) pid);
	cr_assert_str_eq(thread, want);
	/* atoi("2a") is 2.  */
	snprintf(want, sizeof(want), "W2;process:%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("vCont;c"), want);
}

Test(srv_process, vrun_empty_name_means_the_command_line_program)
{
	char *argv[] = { fx.prog, NULL };
	char m[64];
	const char *r;

	fx.srv.program_argv = argv;
	r = srv_fx_reqf("vRun;;%s;%s", srv_fx_hex(m, "exit"),
			srv_fx_hex(m + 32, "9"));
	cr_assert(!strncmp(r, "T05", 3), "vRun gave %s", r);
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W09");
}

/* GDB's second inferior without a remote exec-file sends "vRun;": no
   name and no arguments, which also means the last program.  */
Test(srv_process, vrun_alone_runs_the_last_program)
{
	char *argv[] = { fx.prog, NULL };
	const char *r;

	fx.srv.program_argv = argv;
	r = srv_fx_req("vRun;");
	cr_assert(!strncmp(r, "T05", 3), "vRun gave %s", r);
	cr_assert_not_null(nat_first_process(&fx.target));
}

Test(srv_process, vrun_failures_are_errors)
{
	char hex[256];

	cr_assert(srv_fx_is_error(srv_fx_reqf("vRun;%s",
		srv_fx_hex(hex, "/nonexistent/program"))));
	/* No program given and none on the command line.  */
	cr_assert(srv_fx_is_error(srv_fx_req("vRun;")));
	cr_assert(srv_fx_is_error(srv_fx_req("vRun;;")));
	cr_assert(srv_fx_is_error(srv_fx_req("vRun;zz")));
	cr_assert(srv_fx_is_error(srv_fx_req("vRun;2f6")));
	cr_assert_null(nat_first_process(&fx.target));
}

/* gdbserver refuses a second program unless in extended mode with
   multiprocess: "Already debugging a process", E01.  */
Test(srv_process, vrun_while_debugging_is_refused)
{
	pid_t pid = srv_fx_start("exit", "0");

	cr_assert(srv_fx_is_error(vrun("exit", "1")));
	cr_assert_eq(nat_first_process(&fx.target)->pid, pid);
	cr_assert_null(nat_first_process(&fx.target)->next);
}

Test(srv_process, vkill_kills)
{
	pid_t pid = srv_fx_start("loop", NULL);

	cr_assert_str_eq(srv_fx_reqf("vKill;%x", (unsigned) pid), "OK");
	cr_assert_null(nat_find_process(&fx.target, pid));
	cr_assert_not(srv_fx_alive(pid), "killed and reaped");
	cr_assert_str_eq(srv_fx_req("?"), "W00");
}

Test(srv_process, vkill_of_others_is_an_error)
{
	pid_t pid = srv_fx_start("loop", NULL);
	pid_t other = spawn_loop();

	cr_assert(srv_fx_is_error(srv_fx_reqf("vKill;%x", (unsigned) other)));
	cr_assert(srv_fx_is_error(srv_fx_req("vKill;zz")));
	cr_assert(srv_fx_is_error(srv_fx_req("vKill;0")));
	cr_assert(srv_fx_is_error(srv_fx_req("vKill;")));
	cr_assert(srv_fx_alive(other));
	cr_assert(srv_fx_alive(pid));
}

/* GDB sends k without waiting for a reply (remote_kill_k), and
   gdbserver sends none, in either mode: a reply would be taken as the
   answer to GDB's next packet.  */
Test(srv_process, k_in_extended_mode_sends_no_reply)
{
	pid_t pid = srv_fx_start("loop", NULL);

	cr_assert_str_eq(srv_fx_req("!"), "OK");
	cr_assert_null(srv_fx_req("k"));
	cr_assert_eq(fx.res, srv_no_reply);
	cr_assert_not(srv_fx_alive(pid));
	cr_assert_not(fx.srv.exit_server);
	cr_assert_null(nat_first_process(&fx.target));
}

Test(srv_process, k_in_plain_remote_ends_the_session)
{
	pid_t pid = srv_fx_start("loop", NULL);

	cr_assert_null(srv_fx_req("k"));
	cr_assert_eq(fx.res, srv_no_reply);
	cr_assert(fx.srv.exit_server);
	cr_assert_not(srv_fx_alive(pid));
}

Test(srv_process, detach_lets_the_program_run)
{
	pid_t pid = srv_fx_start("loop", NULL);
	char state[8];

	srv_fx_stray(pid);
	cr_assert_str_eq(srv_fx_req("D"), "OK");
	cr_assert_null(nat_find_process(&fx.target, pid));
	cr_assert(srv_fx_alive(pid));
	cr_assert_eq(srv_fx_status_field(pid, "TracerPid:"), 0);
	/* Running, not stopped: its counter moves.  */
	usleep(50000);
	{
		char path[64], line[256];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/status", (int) pid);
		f = fopen(path, "r");
		cr_assert_not_null(f);
		state[0] = '\0';
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "State:", 6))
				sscanf(line + 6, " %7s", state);
		fclose(f);
	}
	cr_assert(!strcmp(state, "R") || !strcmp(state, "S"), "state %s", state);
	/* Nothing left to debug in plain remote: the server is done.  */
	cr_assert(fx.srv.exit_server);
}

Test(srv_process, detach_with_pid)
{
	pid_t pid;

	srv_fx_supported("multiprocess+");
	pid = srv_fx_start("loop", NULL);
	srv_fx_stray(pid);
	cr_assert_str_eq(srv_fx_req("!"), "OK");
	cr_assert(srv_fx_is_error(srv_fx_req("D;zz")));
	cr_assert(srv_fx_is_error(srv_fx_req("D;7ffffff0")));
	cr_assert(srv_fx_is_error(srv_fx_req("Dx")));
	cr_assert_not_null(nat_find_process(&fx.target, pid));
	cr_assert_str_eq(srv_fx_reqf("D;%x", (unsigned) pid), "OK");
	cr_assert(srv_fx_alive(pid));
	cr_assert_eq(srv_fx_status_field(pid, "TracerPid:"), 0);
	/* Extended mode stays for the next program.  */
	cr_assert_not(fx.srv.exit_server);
}

Test(srv_process, detach_removes_breakpoints)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("loop", NULL);
	uint8_t orig = srv_fx_raw_byte(pid, marker);

	srv_fx_stray(pid);
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_str_eq(srv_fx_req("D"), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), orig);
}

Test(srv_process, detach_without_process_is_an_error)
{
	cr_assert(srv_fx_is_error(srv_fx_req("D")));
}

Test(srv_process, vattach_stops_it_with_sigtrap)
{
	pid_t pid = spawn_loop();
	char thread[64], want[64];
	const char *r;

	srv_fx_supported("multiprocess+");
	cr_assert_str_eq(srv_fx_req("!"), "OK");
	r = srv_fx_reqf("vAttach;%x", (unsigned) pid);
	cr_assert(!strncmp(r, "T05", 3), "vAttach gave %s", r);
	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)));
	snprintf(want, sizeof(want), "p%x.%x", (unsigned) pid, (unsigned) pid);
	cr_assert_str_eq(thread, want);
	cr_assert_str_eq(srv_fx_reqf("qAttached:%x", (unsigned) pid), "1");
	cr_assert_eq(srv_fx_status_field(pid, "TracerPid:"), getpid());
	/* Detached, it runs on.  */
	cr_assert_str_eq(srv_fx_req("D"), "OK");
	cr_assert(srv_fx_alive(pid));
	cr_assert_eq(srv_fx_status_field(pid, "TracerPid:"), 0);
}

Test(srv_process, vattach_failures_are_errors)
{
	cr_assert(srv_fx_is_error(srv_fx_req("vAttach;7ffffff0")));
	cr_assert(srv_fx_is_error(srv_fx_req("vAttach;zz")));
	cr_assert(srv_fx_is_error(srv_fx_req("vAttach;0")));
	cr_assert_null(nat_first_process(&fx.target));
}

/* R in extended mode: the last program again (same arguments), with
   no reply; '?' then reports the new process.  */
Test(srv_process, r_restarts_the_last_program)
{
	const char *r;
	pid_t first, second;

	cr_assert_str_eq(srv_fx_req("!"), "OK");
	r = vrun("exit", "3");
	cr_assert(!strncmp(r, "T05", 3), "vRun gave %s", r);
	first = nat_first_process(&fx.target)->pid;
	cr_assert_eq(srv_dispatch(&fx.srv, "R00", 3), srv_no_reply);
	cr_assert_not(srv_fx_pending());
	cr_assert_not_null(nat_first_process(&fx.target));
	second = nat_first_process(&fx.target)->pid;
	cr_assert_neq(first, second);
	cr_assert_null(nat_find_process(&fx.target, first));
	cr_assert_not(srv_fx_alive(first));
	r = srv_fx_req("?");
	cr_assert(!strncmp(r, "T05", 3), "? gave %s", r);
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W03");

	/* Nothing running: R starts it again all the same.  */
	cr_assert_eq(srv_dispatch(&fx.srv, "R00", 3), srv_no_reply);
	cr_assert_not_null(nat_first_process(&fx.target));
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W03");
}

Test(srv_process, r_outside_extended_mode_is_unknown)
{
	cr_assert_str_eq(srv_fx_req("R00"), "");
}

Test(srv_process, r_without_any_program_only_kills)
{
	cr_assert_str_eq(srv_fx_req("!"), "OK");
	cr_assert_eq(srv_dispatch(&fx.srv, "R00", 3), srv_no_reply);
	cr_assert_null(nat_first_process(&fx.target));
	cr_assert_str_eq(srv_fx_req("?"), "W00");
}

/* gdbserver's rule: a bare name of a file in the working folder runs by
   its absolute path.  */
Test(srv_process, bare_name_in_cwd_runs_by_absolute_path)
{
	char dir[4096], hex[256], cmdline[4096], path[64], abs[4096];
	char *slash;
	const char *r;
	FILE *f;
	size_t n;

	cr_assert_not_null(realpath(fx.prog, abs));
	snprintf(dir, sizeof(dir), "%s", abs);
	slash = strrchr(dir, '/');
	cr_assert_not_null(slash);
	*slash = '\0';
	cr_assert_eq(chdir(dir), 0);
	r = srv_fx_reqf("vRun;%s", srv_fx_hex(hex, "nat_prog"));
	cr_assert(!strncmp(r, "T05", 3), "vRun gave %s", r);
	snprintf(path, sizeof(path), "/proc/%d/cmdline",
		 (int) nat_first_process(&fx.target)->pid);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(cmdline, 1, sizeof(cmdline) - 1, f);
	fclose(f);
	cmdline[n] = '\0';
	cr_assert_str_eq(cmdline, abs);
	cr_assert_str_eq(fx.srv.last_argv[0], abs);
}

/* GDB's detach-step-over: a second process attached, then "Hgp0.0"
   (any thread) and qC: the selected thread stays the second process's,
   as with gdbserver, not the first process's.  */
Test(srv_process, hg_any_after_second_vattach_keeps_the_attached_thread)
{
	pid_t first, second = spawn_loop();
	char want[64];
	const char *r;

	srv_fx_supported("multiprocess+");
	cr_assert_str_eq(srv_fx_req("!"), "OK");
	first = srv_fx_start("loop", NULL);
	srv_fx_stray(first);
	r = srv_fx_reqf("vAttach;%x", (unsigned) second);
	cr_assert(!strncmp(r, "T05", 3), "vAttach gave %s", r);
	cr_assert_str_eq(srv_fx_req("Hgp0.0"), "OK");
	snprintf(want, sizeof(want), "QCp%x.%x", (unsigned) second,
		 (unsigned) second);
	cr_assert_str_eq(srv_fx_req("qC"), want);
	cr_assert_str_eq(srv_fx_reqf("Hgp%x.0", (unsigned) first), "OK");
	snprintf(want, sizeof(want), "QCp%x.%x", (unsigned) first,
		 (unsigned) first);
	cr_assert_str_eq(srv_fx_req("qC"), want);
}

/* A signal the client was told of and did not resume with goes back to
   the program at detach (gdbserver's rule; attach-into-signal.exp's
   program aborts if its SIGALRM is lost): here SIGUSR1, which kills.
   Left out of QProgramSignals, it is dropped and the program runs on.  */
Test(srv_process, detach_gives_back_the_signal_the_client_saw)
{
	pid_t pid = srv_fx_start("loop", NULL);
	int status;

	srv_fx_stray(pid);
	kill(pid, SIGUSR1);
	cr_assert(!strncmp(srv_fx_req("vCont;c"), "T1e", 3));
	cr_assert_str_eq(srv_fx_req("D"), "OK");
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1,
		  "status %#x", status);
}

Test(srv_process, detach_drops_a_signal_not_for_the_program)
{
	pid_t pid = srv_fx_start("loop", NULL);

	srv_fx_stray(pid);
	cr_assert_str_eq(srv_fx_req("QProgramSignals:e"), "OK");
	kill(pid, SIGUSR1);
	cr_assert(!strncmp(srv_fx_req("vCont;c"), "T1e", 3));
	cr_assert_str_eq(srv_fx_req("D"), "OK");
	usleep(100000);
	cr_assert(srv_fx_alive(pid));
}
