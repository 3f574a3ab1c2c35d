/* qRcmd: the `monitor` commands.  Output goes to GDB's console as O
   packets before the final OK.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "nat/btrace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char srv_monitor_help[] =
	"The following monitor commands are supported:\n"
	"  set debug <0|1>\n"
	"    Enable or disable the stub's debug log.\n"
	"  set remote-debug <0|1>\n"
	"    Enable or disable the log of every packet.\n"
	"  set debug-file [FILE]\n"
	"    Write the logs to FILE; without FILE, where they went at start.\n"
	"  set debug-format option1[,option2,...]\n"
	"    Add information to the logs.  Options: all, none (ptstub has no\n"
	"    extra information to add yet).\n"
	"  set libthread-db-search-path [PATH]\n"
	"    Accepted as gdbserver does; ptstub never loads libthread_db, so\n"
	"    thread-local variables cannot be found through it (qGetTLSAddr\n"
	"    fails).\n"
	"  set progress <on|off>\n"
	"    A console line every 5 s once a recorded run has lasted 5 s:\n"
	"    trace recorded so far and the engine (on by default).\n"
	"  btrace status\n"
	"    Each traced thread's trace source, buffer size, bytes recorded\n"
	"    and wraps.\n"
	"  btrace save FILE\n"
	"    Write the selected thread's trace bundle to FILE, for ptbtrace.\n"
	"  exit\n"
	"    Quit ptstub (the program is killed, or detached if attached).\n"
	"  help\n"
	"    This list.\n";

/* Send TEXT to GDB's console.  */
int srv_console(struct srv *srv, const char *text)
{
	struct ps_buf out;
	int err;

	ps_buf_init(&out);
	err = ps_buf_putc(&out, 'O');
	if (!err)
		err = ps_buf_put_hex(&out, text, strlen(text));
	if (!err)
		err = rsp_send_packet(srv->conn, out.data, out.len);
	ps_buf_fini(&out);
	return err;
}

/* Where the logs go: `set debug-file`'s, --debug-file's, or stderr.  */
static FILE *srv_log(const struct srv *srv)
{
	if (srv->log_file)
		return srv->log_file;
	return srv->opts->debug_file ? srv->opts->debug_file : stderr;
}

void srv_monitor_fini(struct srv *srv)
{
	if (!srv->log_file)
		return;
	if (nat_target_debug(srv->target) == srv->log_file)
		nat_target_set_debug(srv->target, NULL);
	if (srv->conn && srv->conn->debug == srv->log_file)
		rsp_conn_set_debug(srv->conn, NULL);
	fclose(srv->log_file);
	srv->log_file = NULL;
}

/* "set debug-file [FILE]": the logs that are on move to FILE, or back
   to where they started without one.  As with gdbserver, a FILE that
   cannot be opened is said in the log, which goes back where it
   started.  */
static int srv_set_debug_file(struct srv *srv, const char *path)
{
	int debug_on = nat_target_debug(srv->target) != NULL;
	int remote_on = srv->conn && srv->conn->debug != NULL;
	FILE *log;

	while (*path == ' ' || *path == '\t')
		path++;
	srv_monitor_fini(srv);
	if (*path) {
		srv->log_file = fopen(path, "w");
		if (srv->log_file)
			setvbuf(srv->log_file, NULL, _IOLBF, 0);
		else
			fprintf(srv_log(srv), "Cannot open %s for writing: %s.\n",
				path, strerror(errno));
	}
	log = srv_log(srv);
	if (debug_on)
		nat_target_set_debug(srv->target, log);
	if (remote_on)
		rsp_conn_set_debug(srv->conn, log);
	return 0;
}

/* "set debug" and "set remote-debug": 1 if ARG was understood.  */
static int srv_set_log(struct srv *srv, const char *arg, int remote, int *err)
{
	FILE *log = srv_log(srv);
	int on;

	if (!strcmp(arg, "1") || !strcmp(arg, "on"))
		on = 1;
	else if (!strcmp(arg, "0") || !strcmp(arg, "off"))
		on = 0;
	else {
		*err = srv_console(srv, "Expected 0 or 1.\n");
		return 0;
	}
	if (remote)
		rsp_conn_set_debug(srv->conn, on ? log : NULL);
	else
		nat_target_set_debug(srv->target, on ? log : NULL);
	/* gdbserver's texts, word for word: GDB's server-mon.exp reads
	   them.  */
	if (remote)
		*err = srv_console(srv, on ? "Protocol debug output enabled.\n"
					   : "Protocol debug output disabled.\n");
	else
		*err = srv_console(srv, on ? "Debug output enabled.\n"
					   : "Debug output disabled.\n");
	return 1;
}

/* "set debug-format OPT[,OPT...]": gdbserver's options "all" and "none"
   (its only extra, timestamps, ptstub's logs do not have).  1 if every
   option was understood.  */
static int srv_set_debug_format(struct srv *srv, const char *arg, int *err)
{
	struct ps_buf msg;
	int ok = 1;

	ps_buf_init(&msg);
	while (*arg == ' ' || *arg == '\t')
		arg++;
	while (*arg && ok) {
		size_t n = strcspn(arg, ",");

		if (n == 3 && !strncmp(arg, "all", 3))
			ps_buf_puts(&msg, "All extra debug format options enabled.\n");
		else if (n == 4 && !strncmp(arg, "none", 4))
			ps_buf_puts(&msg, "All extra debug format options disabled.\n");
		else if (n) {
			ps_buf_printf(&msg, "Unknown debug-format argument: "
				      "\"%.*s\"\n", (int) n, arg);
			ok = 0;
		}
		arg += n;
		if (*arg == ',')
			arg++;
	}
	*err = msg.len ? srv_console(srv, msg.data) : 0;
	ps_buf_fini(&msg);
	return ok;
}

/* gdbserver's answer, word for word (GDB's no-thread-db.exp reads it);
   no PATH means its default.  */
static int srv_thread_db_path(struct srv *srv, const char *path)
{
	struct ps_buf msg;
	int err;

	while (*path == ' ' || *path == '\t')
		path++;
	ps_buf_init(&msg);
	ps_buf_printf(&msg, "libthread-db-search-path set to `%s'\n",
		      *path ? path : "$sdir:$pdir");
	err = srv_console(srv, msg.data);
	ps_buf_fini(&msg);
	return err;
}

/* "set progress on|off": 1 if ARG was understood.  */
static int srv_set_progress(struct srv *srv, const char *arg, int *err)
{
	if (!strcmp(arg, "on") || !strcmp(arg, "1"))
		srv->progress.off = 0;
	else if (!strcmp(arg, "off") || !strcmp(arg, "0"))
		srv->progress.off = 1;
	else {
		*err = srv_console(srv, "Expected on or off.\n");
		return 0;
	}
	*err = srv_console(srv, srv->progress.off ?
			   "Progress lines disabled.\n" :
			   "Progress lines enabled.\n");
	return 1;
}

static int srv_btrace_status(struct srv *srv)
{
	struct ps_buf out;
	int traced = 0, err;

	ps_buf_init(&out);
	for (struct nat_process *p = nat_first_process(srv->target); p;
	     p = nat_process_next(p))
		for (struct nat_thread *t = nat_process_first_thread(p);
		     t; t = nat_thread_next(t)) {
			struct nat_btrace_status st;

			if (nat_btrace_status(t, &st) < 0)
				continue;
			traced++;
			ps_buf_printf(&out, "Thread %d.%d: %s %s, buffer %zu bytes, "
				      "%llu %s recorded, %llu held, %llu wraps\n",
				      (int) nat_process_pid(p), (int) nat_thread_tid(t),
				      nat_btrace_source_name(st.emulated),
				      st.format == trace_format_pt ? "PT" : "BTS",
				      st.size, (unsigned long long) st.recorded,
				      st.format == trace_format_pt ? "bytes" : "blocks",
				      (unsigned long long) st.held,
				      (unsigned long long) st.wraps);
		}
	if (!traced)
		ps_buf_puts(&out, "No thread is traced.\n");
	/* What the emulator's engines did, thread by thread.  */
	for (struct nat_process *p = nat_first_process(srv->target); p;
	     p = nat_process_next(p))
		for (struct nat_thread *t = nat_process_first_thread(p);
		     t; t = nat_thread_next(t)) {
			struct nat_btrace_status st;

			if (nat_btrace_status(t, &st) < 0 || !st.emulated)
				continue;
			ps_buf_printf(&out, "Thread %d.%d: %llu instructions "
				      "run traced under ptrace, %llu stops, "
				      "%llu branches followed without a "
				      "stop.\n", (int) nat_process_pid(p), (int) nat_thread_tid(t),
				      (unsigned long long) st.insns,
				      (unsigned long long) st.stops,
				      (unsigned long long) st.followed);
			nat_btrace_engine_line(&out, (int) nat_process_pid(p),
						(int) nat_thread_tid(t), &st);
		}
	ps_buf_printf(&out, "Trace source: %s.\n",
		      nat_target_btrace_policy(srv->target) == nat_btrace_hardware ? "hardware" :
		      nat_target_btrace_policy(srv->target) == nat_btrace_emulated ?
		      "emulated" : "auto (hardware when present, else emulated)");
	ps_buf_printf(&out, "Emulation engine: %s.\n",
		      nat_target_btrace_engine(srv->target) == nat_btrace_engine_cache ?
		      "code cache (falls back to ptrace)" :
		      nat_target_btrace_engine(srv->target) == nat_btrace_engine_ptrace ?
		      "ptrace" : "auto (code cache, falls back to ptrace)");
	err = srv_console(srv, out.data);
	ps_buf_fini(&out);
	return err;
}

int srv_handle_monitor(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qRcmd,"), *end = pkt + len;
	const char *cmd;
	int err = 0, ok = 1;

	ps_buf_reset(&srv->scratch);
	if (rsp_parse_hex_string(&p, end, &srv->scratch) < 0 || p != end)
		return -pse_invalid;
	cmd = srv->scratch.data ? srv->scratch.data : "";

	if (!strcmp(cmd, "help"))
		err = srv_console(srv, srv_monitor_help);
	else if (!strcmp(cmd, "btrace status"))
		err = srv_btrace_status(srv);
	else if (!strcmp(cmd, "btrace save") || !strncmp(cmd, "btrace save ", 12)) {
		const char *file = cmd + 11 + strspn(cmd + 11, " \t");
		struct ps_buf msg;

		/* A usage line rather than E01, which GDB would only call a
		   protocol error.  */
		if (!*file)
			err = srv_console(srv, "Usage: monitor btrace save FILE\n");
		else {
			ps_buf_init(&msg);
			srv_btrace_save(srv, file, &msg);
			err = srv_console(srv, msg.data);
			ps_buf_fini(&msg);
		}
	} else if (!strcmp(cmd, "exit"))
		err = 0, srv->exit_server = 1;
	else if (!strncmp(cmd, "set progress ", 13))
		ok = srv_set_progress(srv, cmd + 13, &err);
	else if (!strncmp(cmd, "set debug ", 10))
		ok = srv_set_log(srv, cmd + 10, 0, &err);
	else if (!strncmp(cmd, "set remote-debug ", 17))
		ok = srv_set_log(srv, cmd + 17, 1, &err);
	else if (!strcmp(cmd, "set debug-file") ||
		 !strncmp(cmd, "set debug-file ", 15))
		err = srv_set_debug_file(srv, cmd + 14);
	else if (!strncmp(cmd, "set libthread-db-search-path", 28) &&
		 (!cmd[28] || cmd[28] == ' '))
		err = srv_thread_db_path(srv, cmd + 28);
	else if (!strncmp(cmd, "set debug-format ", 17)) {
		ok = srv_set_debug_format(srv, cmd + 17, &err);
		if (!ok && err >= 0)
			err = srv_console(srv, srv_monitor_help);
	} else {
		/* As gdbserver: the list, and an error GDB reports.  */
		err = srv_console(srv, "Unknown monitor command.\n\n");
		if (err >= 0)
			err = srv_console(srv, srv_monitor_help);
		ok = 0;
	}
	if (err < 0)
		return err;
	ps_buf_puts(&srv->reply, ok ? "OK" : "E01");
	return srv_reply;
}
