/* qRcmd: the `monitor` commands.  Output goes to GDB's console as O
   packets before the final OK.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "nat/btrace.h"

#include <string.h>

static const char srv_monitor_help[] =
	"The following monitor commands are supported:\n"
	"  set debug <0|1>\n"
	"    Enable or disable the stub's debug log.\n"
	"  set remote-debug <0|1>\n"
	"    Enable or disable the log of every packet.\n"
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

static int srv_set_log(struct srv *srv, const char *arg, int remote)
{
	FILE *log = srv->opts->debug_file ? srv->opts->debug_file : stderr;
	int on;

	if (!strcmp(arg, "1") || !strcmp(arg, "on"))
		on = 1;
	else if (!strcmp(arg, "0") || !strcmp(arg, "off"))
		on = 0;
	else
		return srv_console(srv, "Expected 0 or 1.\n");
	if (remote)
		rsp_conn_set_debug(srv->conn, on ? log : NULL);
	else
		srv->target->debug = on ? log : NULL;
	return srv_console(srv, on ? "Debug output enabled.\n"
				   : "Debug output disabled.\n");
}

static int srv_btrace_status(struct srv *srv)
{
	struct ps_buf out;
	int traced = 0, err;

	ps_buf_init(&out);
	for (struct nat_process *p = nat_first_process(srv->target); p;
	     p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			struct nat_btrace_status st;

			if (nat_btrace_status(t, &st) < 0)
				continue;
			traced++;
			ps_buf_printf(&out, "Thread %d.%d: %s %s, buffer %zu bytes, "
				      "%llu %s recorded, %llu held, %llu wraps\n",
				      (int) p->pid, (int) t->tid,
				      nat_btrace_kind_name(st.kind),
				      st.format == btrace_format_pt ? "PT" : "BTS",
				      st.size, (unsigned long long) st.recorded,
				      st.format == btrace_format_pt ? "bytes" : "blocks",
				      (unsigned long long) st.held,
				      (unsigned long long) st.wraps);
		}
	if (!traced)
		ps_buf_puts(&out, "No thread is traced.\n");
	ps_buf_printf(&out, "Trace source: %s.\n",
		      srv->target->btrace_policy == nat_btrace_hardware ? "hardware" :
		      srv->target->btrace_policy == nat_btrace_emulated ?
		      "emulated" : "auto (hardware when present, else emulated)");
	err = srv_console(srv, out.data);
	ps_buf_fini(&out);
	return err;
}

int srv_handle_monitor(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qRcmd,"), *end = pkt + len;
	const char *cmd;
	int err;

	ps_buf_reset(&srv->scratch);
	if (rsp_parse_hex_string(&p, end, &srv->scratch) < 0 || p != end)
		return -pse_invalid;
	cmd = srv->scratch.data ? srv->scratch.data : "";

	if (!strcmp(cmd, "help"))
		err = srv_console(srv, srv_monitor_help);
	else if (!strcmp(cmd, "btrace status"))
		err = srv_btrace_status(srv);
	else if (!strncmp(cmd, "btrace save ", 12) && cmd[12]) {
		struct ps_buf msg;

		ps_buf_init(&msg);
		srv_btrace_save(srv, cmd + 12, &msg);
		err = srv_console(srv, msg.data);
		ps_buf_fini(&msg);
	} else if (!strcmp(cmd, "exit"))
		err = 0, srv->exit_server = 1;
	else if (!strncmp(cmd, "set debug ", 10))
		err = srv_set_log(srv, cmd + 10, 0);
	else if (!strncmp(cmd, "set remote-debug ", 17))
		err = srv_set_log(srv, cmd + 17, 1);
	else
		err = srv_console(srv, "Unknown monitor command.\n\n");
	if (err < 0)
		return err;
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}
