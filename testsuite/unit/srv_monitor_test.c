/* server/srv_monitor.c: qRcmd sends its output as O packets on the
   connection, then the final reply.  */
#include "testsuite/unit/srv_fixture.h"

TestSuite(srv_monitor, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* Send "monitor CMD"; collect the console text of the O packets sent
   meanwhile into OUT and return the final reply.  */
static const char *monitor(const char *cmd, char *out, size_t size)
{
	char hex[512];
	const char *r = srv_fx_reqf("qRcmd,%s", srv_fx_hex(hex, cmd));
	size_t len = 0;

	out[0] = '\0';
	while (srv_fx_pending()) {
		const char *o = srv_fx_recv();
		size_t n = strlen(o + 1) / 2;

		cr_assert_eq(o[0], 'O', "console packet %s", o);
		cr_assert_neq(strcmp(o, "OK"), 0, "an OK packet on the side");
		cr_assert_eq(strlen(o + 1) % 2, 0, "odd hex in %s", o);
		cr_assert_lt(len + n, size);
		cr_assert_eq(ps_hex_decode(out + len, o + 1, n), 0, "%s", o);
		len += n;
		out[len] = '\0';
	}
	return r;
}

static int starts_with(const char *text, const char *prefix)
{
	return !strncmp(text, prefix, strlen(prefix));
}

Test(srv_monitor, help_lists_the_commands)
{
	char text[8192];
	const char *r;

	r = monitor("help", text, sizeof(text));
	cr_assert_str_eq(r, "OK");
	cr_assert_gt(strlen(text), 0);
	cr_assert_not_null(strstr(text, "help"), "%s", text);
	cr_assert_not_null(strstr(text, "exit"), "%s", text);
	cr_assert_not_null(strstr(text, "set debug"), "%s", text);
	cr_assert_eq(text[strlen(text) - 1], '\n');
	cr_assert_not(fx.srv.exit_server);
}

Test(srv_monitor, unknown_command_says_so)
{
	char text[8192];
	const char *r;

	/* gdbserver's answer: the text, the list, and E01 (GDB then says
	   "Protocol error", which server-mon.exp expects).  */
	r = monitor("frobnicate", text, sizeof(text));
	cr_assert_str_eq(r, "E01");
	cr_assert(starts_with(text, "Unknown monitor command.\n\nThe following "
			      "monitor commands are supported:\n"), "%s", text);
	r = monitor("", text, sizeof(text));
	cr_assert_str_eq(r, "E01");
	cr_assert_not_null(strstr(text, "Unknown monitor command"), "%s", text);
}

Test(srv_monitor, bad_hex_is_an_error_without_output)
{
	cr_assert(srv_fx_is_error(srv_fx_req("qRcmd,zz")));
	cr_assert(srv_fx_is_error(srv_fx_req("qRcmd,686")));
	cr_assert(srv_fx_is_error(srv_fx_req("qRcmd,68656c70zz")));
	cr_assert_not(srv_fx_pending());
}

Test(srv_monitor, set_debug_switches_the_log)
{
	char text[1024];
	FILE *log = tmpfile();

	cr_assert_not_null(log);
	fx.opts.debug_file = log;
	cr_assert_str_eq(monitor("set debug 1", text, sizeof(text)), "OK");
	cr_assert_eq(fx.target.debug, log);
	cr_assert_str_eq(text, "Debug output enabled.\n");
	cr_assert_str_eq(monitor("set debug 0", text, sizeof(text)), "OK");
	cr_assert_null(fx.target.debug);
	cr_assert_str_eq(text, "Debug output disabled.\n");
	cr_assert_str_eq(monitor("set debug maybe", text, sizeof(text)), "E01");
	cr_assert_null(fx.target.debug);
	cr_assert_not_null(strstr(text, "0 or 1"), "%s", text);
	fclose(log);
}

Test(srv_monitor, set_remote_debug_logs_packets)
{
	char text[1024];
	FILE *log = tmpfile();

	cr_assert_not_null(log);
	fx.opts.debug_file = log;
	cr_assert_str_eq(monitor("set remote-debug 1", text, sizeof(text)), "OK");
	cr_assert_eq(fx.conn.debug, log);
	cr_assert_str_eq(text, "Protocol debug output enabled.\n");
	cr_assert_str_eq(monitor("set remote-debug 0", text, sizeof(text)), "OK");
	cr_assert_null(fx.conn.debug);
	cr_assert_str_eq(text, "Protocol debug output disabled.\n");
	/* What went out while it was on is in the log.  */
	cr_assert_gt(ftell(log), 0);
	fclose(log);
}

Test(srv_monitor, exit_ends_the_server)
{
	char text[256];

	cr_assert_str_eq(monitor("exit", text, sizeof(text)), "OK");
	cr_assert(fx.srv.exit_server);
}

Test(srv_monitor, set_debug_format)
{
	char text[8192];

	cr_assert_str_eq(monitor("set debug-format all", text, sizeof(text)),
			 "OK");
	cr_assert_str_eq(text, "All extra debug format options enabled.\n");
	cr_assert_str_eq(monitor("set debug-format none", text, sizeof(text)),
			 "OK");
	cr_assert_str_eq(text, "All extra debug format options disabled.\n");
	cr_assert_str_eq(monitor("set debug-format  all,,none", text,
				 sizeof(text)), "OK");
	cr_assert_str_eq(text, "All extra debug format options enabled.\n"
			 "All extra debug format options disabled.\n");
	/* An unknown option: gdbserver's text, the list and an error.  */
	cr_assert_str_eq(monitor("set debug-format none,colour", text,
				 sizeof(text)), "E01");
	cr_assert(starts_with(text, "All extra debug format options disabled.\n"
			      "Unknown debug-format argument: \"colour\"\n"
			      "The following monitor commands"), "%s", text);
}

/* The logs that are on follow the file; without one they go back.  */
Test(srv_monitor, set_debug_file_moves_the_logs)
{
	char text[1024], path[] = "/tmp/srv_monitor_log.XXXXXX";
	FILE *start = tmpfile(), *f;
	long size;
	int fd = mkstemp(path);

	cr_assert_not_null(start);
	cr_assert_geq(fd, 0);
	close(fd);
	fx.opts.debug_file = start;
	cr_assert_str_eq(monitor("set remote-debug 1", text, sizeof(text)), "OK");
	cr_assert_eq(fx.conn.debug, start);
	cr_assert_null(fx.target.debug);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "set debug-file %s", path);
		cr_assert_str_eq(monitor(cmd, text, sizeof(text)), "OK");
	}
	cr_assert_not_null(fx.srv.log_file);
	cr_assert_eq(fx.conn.debug, fx.srv.log_file);
	/* debug was off: it stays off, but turned on it goes there.  */
	cr_assert_null(fx.target.debug);
	cr_assert_str_eq(monitor("set debug 1", text, sizeof(text)), "OK");
	cr_assert_eq(fx.target.debug, fx.srv.log_file);
	cr_assert_str_eq(monitor("set debug-file", text, sizeof(text)), "OK");
	cr_assert_str_empty(text);
	cr_assert_null(fx.srv.log_file);
	cr_assert_eq(fx.conn.debug, start);
	cr_assert_eq(fx.target.debug, start);
	/* The packets logged meanwhile are in the file.  */
	f = fopen(path, "r");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	cr_assert_gt(size, 0);
	unlink(path);
	/* A file that cannot be opened: the logs stay where they were.  */
	cr_assert_str_eq(monitor("set debug-file /nonexistent/dir/log", text,
				 sizeof(text)), "OK");
	cr_assert_null(fx.srv.log_file);
	cr_assert_eq(fx.conn.debug, start);
	cr_assert_str_eq(monitor("set remote-debug 0", text, sizeof(text)), "OK");
	cr_assert_str_eq(monitor("set debug 0", text, sizeof(text)), "OK");
	fclose(start);
	fx.opts.debug_file = NULL;
}
