/* server/srv_settings.c: QPassSignals, the environment and working
   directory vRun uses, and the startup flags.  Each setting is checked
   by its effect on a program started afterwards.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include <limits.h>

TestSuite(srv_settings, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* vRun the test program in MODE; returns the new process's pid.  */
static pid_t vrun(const char *mode)
{
	char prog[8192], arg[64];
	const char *r;

	r = srv_fx_reqf("vRun;%s;%s", srv_fx_hex(prog, fx.prog),
			srv_fx_hex(arg, mode));
	cr_assert(!strncmp(r, "T05", 3), "vRun gave %s", r);
	return (pid_t) fx.srv.general.pid;
}

/* Whether /proc/PID/environ has exactly ENTRY ("NAME=value").  */
static int environ_has(pid_t pid, const char *entry)
{
	static char buf[1 << 16];
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int) pid);
	fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	cr_assert_gt(n, 0);
	buf[n] = '\0';
	for (char *p = buf; p < buf + n; p += strlen(p) + 1)
		if (!strcmp(p, entry))
			return 1;
	return 0;
}

static const char *set_env(const char *entry)
{
	char hex[1024];

	return srv_fx_reqf("QEnvironmentHexEncoded:%s", srv_fx_hex(hex, entry));
}

Test(srv_settings, pass_signals_sets_the_host_table)
{
	cr_assert_str_eq(srv_fx_req("QPassSignals:e;1e"), "OK");
	cr_assert(fx.target.pass_signals[SIGUSR1]);
	cr_assert(fx.target.pass_signals[SIGALRM]);
	cr_assert_not(fx.target.pass_signals[SIGUSR2]);
	/* Each packet replaces the whole list.  */
	cr_assert_str_eq(srv_fx_req("QPassSignals:"), "OK");
	cr_assert_not(fx.target.pass_signals[SIGUSR1]);
	cr_assert_not(fx.target.pass_signals[SIGALRM]);
}

Test(srv_settings, pass_signals_sigpoll_is_not_sigio)
{
	/* Linux's SIGIO reports as GDB's SIGIO (0x17), never as SIGPOLL
	   (0x21): only the first passes it, as in gdbserver.  */
	cr_assert_str_eq(srv_fx_req("QPassSignals:21"), "OK");
	cr_assert_not(fx.target.pass_signals[SIGIO]);
	cr_assert_str_eq(srv_fx_req("QPassSignals:17"), "OK");
	cr_assert(fx.target.pass_signals[SIGIO]);
}

Test(srv_settings, pass_signals_rejects_garbage_and_keeps_the_list)
{
	static const char *const bad[] = {
		"QPassSignals:1e;zz", "QPassSignals:1e;-1", "QPassSignals:1e,2",
		"QPassSignals:10000", "QPassSignals:1e;e ",
	};

	cr_assert_str_eq(srv_fx_req("QPassSignals:e"), "OK");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert(srv_fx_is_error(srv_fx_req(bad[i])), "%s", bad[i]);
		cr_assert(fx.target.pass_signals[SIGALRM], "%s", bad[i]);
		cr_assert_not(fx.target.pass_signals[SIGUSR1], "%s", bad[i]);
	}
}

Test(srv_settings, passed_signal_does_not_stop)
{
	/* "signal" raises SIGUSR1 (ignored) and exits 5: passed, GDB never
	   hears of it.  */
	srv_fx_start("signal", NULL);
	cr_assert_str_eq(srv_fx_req("QPassSignals:1e"), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W05");
}

Test(srv_settings, unpassed_signal_stops)
{
	const char *r;

	srv_fx_start("signal", NULL);
	cr_assert_str_eq(srv_fx_req("QPassSignals:e"), "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T1e", 3), "%s", r);
}

Test(srv_settings, environment_reaches_vrun)
{
	pid_t pid;

	cr_assert_str_eq(set_env("SRVTEST_VAR=hello world"), "OK");
	cr_assert_str_eq(set_env("SRVTEST_EMPTY="), "OK");
	pid = vrun("exit");
	cr_assert(environ_has(pid, "SRVTEST_VAR=hello world"));
	cr_assert(environ_has(pid, "SRVTEST_EMPTY="));
}

Test(srv_settings, environment_set_twice_keeps_the_last)
{
	pid_t pid;

	cr_assert_str_eq(set_env("SRVTEST_VAR=one"), "OK");
	cr_assert_str_eq(set_env("SRVTEST_VAR=two"), "OK");
	pid = vrun("exit");
	cr_assert(environ_has(pid, "SRVTEST_VAR=two"));
	cr_assert_not(environ_has(pid, "SRVTEST_VAR=one"));
}

Test(srv_settings, environment_unset_and_reset)
{
	char hex[256];
	pid_t pid;

	setenv("SRVTEST_INHERITED", "yes", 1);
	cr_assert_str_eq(srv_fx_reqf("QEnvironmentUnset:%s",
				     srv_fx_hex(hex, "SRVTEST_INHERITED")), "OK");
	cr_assert_str_eq(set_env("SRVTEST_VAR=1"), "OK");
	pid = vrun("exit");
	cr_assert_not(environ_has(pid, "SRVTEST_INHERITED=yes"));
	cr_assert(environ_has(pid, "SRVTEST_VAR=1"));
	cr_assert_str_eq(srv_fx_reqf("vKill;%x", (unsigned) pid), "OK");

	cr_assert_str_eq(srv_fx_req("QEnvironmentReset"), "OK");
	pid = vrun("exit");
	cr_assert(environ_has(pid, "SRVTEST_INHERITED=yes"));
	cr_assert_not(environ_has(pid, "SRVTEST_VAR=1"));
}

Test(srv_settings, environment_rejects_garbage)
{
	static const char *const bad[] = {
		"QEnvironmentHexEncoded:zz", "QEnvironmentHexEncoded:414243",
		"QEnvironmentHexEncoded:413", "QEnvironmentHexEncoded:413d31zz",
		"QEnvironmentUnset:zz", "QEnvironmentUnset:4",
	};
	pid_t pid;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert(srv_fx_is_error(srv_fx_req(bad[i])), "%s", bad[i]);
	/* "413d31zz" must not have set A=1 on its way to the error.  */
	pid = vrun("exit");
	cr_assert_not(environ_has(pid, "A=1"));
}

Test(srv_settings, working_dir_reaches_vrun)
{
	char hex[64], cwd[PATH_MAX], path[64];
	ssize_t n;
	pid_t pid;

	cr_assert_str_eq(srv_fx_reqf("QSetWorkingDir:%s", srv_fx_hex(hex, "/tmp")),
			 "OK");
	pid = vrun("exit");
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int) pid);
	n = readlink(path, cwd, sizeof(cwd) - 1);
	cr_assert_gt(n, 0);
	cwd[n] = '\0';
	cr_assert_str_eq(cwd, "/tmp");
	cr_assert_str_eq(srv_fx_req("QSetWorkingDir:"), "OK");
	cr_assert_null(fx.target.start.cwd);
	cr_assert(srv_fx_is_error(srv_fx_req("QSetWorkingDir:2f7")));
}

Test(srv_settings, startup_flags)
{
	cr_assert_str_eq(srv_fx_req("QDisableRandomization:0"), "OK");
	cr_assert_eq(fx.target.start.disable_randomization, 0);
	cr_assert_str_eq(srv_fx_req("QDisableRandomization:1"), "OK");
	cr_assert_eq(fx.target.start.disable_randomization, 1);
	cr_assert_str_eq(srv_fx_req("QStartupWithShell:1"), "OK");
	cr_assert_eq(fx.target.start.startup_with_shell, 1);
	cr_assert_str_eq(srv_fx_req("QStartupWithShell:0"), "OK");
	cr_assert_eq(fx.target.start.startup_with_shell, 0);
	cr_assert(srv_fx_is_error(srv_fx_req("QStartupWithShell:x")));
	cr_assert(srv_fx_is_error(srv_fx_req("QStartupWithShell:")));
	cr_assert(srv_fx_is_error(srv_fx_req("QDisableRandomization:11")));
	cr_assert_eq(fx.target.start.startup_with_shell, 0);
	cr_assert_eq(fx.target.start.disable_randomization, 1);
}

Test(srv_settings, program_signals_is_accepted)
{
	cr_assert_str_eq(srv_fx_req("QProgramSignals:e;1e"), "OK");
}

Test(srv_settings, catch_syscalls_needs_a_process_and_good_syntax)
{
	cr_assert(srv_fx_is_error(srv_fx_req("QCatchSyscalls:1")));
	srv_fx_start("exit", "4");
	cr_assert(srv_fx_is_error(srv_fx_req("QCatchSyscalls:2")));
	cr_assert(srv_fx_is_error(srv_fx_req("QCatchSyscalls:1;zz")));
	cr_assert(srv_fx_is_error(srv_fx_req("QCatchSyscalls:1;1000000")));
	cr_assert_str_eq(srv_fx_req("QCatchSyscalls:0"), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W04");
}

Test(srv_settings, catch_syscalls_reports_entry_and_return)
{
	const char *r;

	/* exit_group is 0xe7: the program's last call.  */
	srv_fx_start("exit", "4");
	cr_assert_str_eq(srv_fx_req("QCatchSyscalls:1;e7"), "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05syscall_entry:e7;", 20), "%s", r);
	/* exit_group has no return: the exit comes next.  */
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W04");
}

Test(srv_settings, catch_any_syscall_sees_a_return)
{
	const char *r;

	srv_fx_start("exit", "4");
	cr_assert_str_eq(srv_fx_req("QCatchSyscalls:1"), "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05syscall_entry:", 17), "%s", r);
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05syscall_return:", 18), "%s", r);
	cr_assert_str_eq(srv_fx_req("QCatchSyscalls:0"), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W04");
}
