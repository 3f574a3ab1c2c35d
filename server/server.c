/* A client connection: the packet loop, errors, and the selected
   thread.  */
#include "server/server.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

int srv_init(struct srv *srv, struct nat_target *target,
	     const struct srv_options *opts)
{
	memset(srv, 0, sizeof(*srv));
	srv->target = target;
	srv->opts = opts;
	srv->extended = opts->multi;
	/* GDB's own defaults, until Qbtrace-conf says otherwise.  */
	srv->btrace_bts_size = 64 * 1024;
	srv->btrace_pt_size = 16 * 1024;
	srv->general.pid = 0;
	srv->general.tid = 0;
	hostio_init(&srv->hostio);
	ps_buf_init(&srv->xfer);
	ps_buf_init(&srv->reply);
	ps_buf_init(&srv->scratch);
	return 0;
}

void srv_fini(struct srv *srv)
{
	srv_settings_fini(srv);
	hostio_fini(&srv->hostio);
	ps_buf_fini(&srv->xfer);
	ps_buf_fini(&srv->reply);
	ps_buf_fini(&srv->scratch);
}

int srv_prefix(const char *pkt, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(pkt, prefix, n) == 0;
}

int srv_error_text(struct srv *srv, const char *text)
{
	ps_buf_reset(&srv->reply);
	ps_buf_puts(&srv->reply, "E.");
	ps_buf_puts(&srv->reply, text);
	return srv_reply;
}

int srv_error(struct srv *srv, int err)
{
	const char *text = ps_errstr(err);

	ps_buf_reset(&srv->reply);
	ps_buf_puts(&srv->reply, "E.");
	/* Capitalised and closed like gdbserver's own texts.  */
	ps_buf_putc(&srv->reply, (char) (text[0] & ~0x20));
	ps_buf_puts(&srv->reply, text + 1);
	ps_buf_putc(&srv->reply, '.');
	return srv_reply;
}

struct nat_process *srv_general_process(struct srv *srv)
{
	if (srv->general.pid > 0)
		return nat_find_process(srv->target, (pid_t) srv->general.pid);
	return nat_first_process(srv->target);
}

struct nat_thread *srv_general_thread(struct srv *srv)
{
	struct nat_process *proc = srv_general_process(srv);

	if (!proc)
		return NULL;
	if (srv->general.tid > 0)
		return nat_find_thread(srv->target, proc->pid,
				       (pid_t) srv->general.tid);
	return proc->threads;
}

static int srv_on_readable(void *ctx)
{
	struct srv *srv = ctx;

	return rsp_conn_check_interrupt(srv->conn);
}

int srv_wait_and_reply(struct srv *srv)
{
	struct nat_wait_hook hook = {
		.fd = rsp_conn_poll_fd(srv->conn),
		.readable = srv_on_readable,
		.ctx = srv,
	};
	struct nat_event ev;
	int err;

	srv->running = 1;
	/* Bytes already buffered do not wake poll: look at them first.  */
	err = rsp_conn_check_interrupt(srv->conn);
	if (err < 0)
		return err;
	if (err == 1)
		nat_interrupt(srv->target);

	err = nat_wait(srv->target, &ev, &hook);
	srv->running = 0;
	if (err < 0) {
		/* The client left while the program ran: hold it stopped for
		   the next one, or for release.  */
		nat_stop(srv->target);
		return err;
	}

	ps_buf_reset(&srv->reply);
	err = srv_stop_reply(srv, &ev);
	if (err < 0)
		return err;
	return rsp_send_packet(srv->conn, srv->reply.data, srv->reply.len);
}

/* What a client negotiates lasts for its connection only.  */
static void srv_new_connection(struct srv *srv, struct rsp_conn *conn)
{
	srv->conn = conn;
	srv->multiprocess = srv->swbreak = srv->hwbreak = 0;
	srv->no_resumed = 0;
	srv->extended = srv->opts->multi;
	srv->disconnect = 0;
	srv->target->report_fork = 0;
	srv->target->report_vfork = 0;
	srv->target->report_exec = 0;
	memset(srv->target->pass_signals, 0,
	       sizeof(srv->target->pass_signals));
	hostio_fini(&srv->hostio);
	hostio_init(&srv->hostio);
	srv->xfer_object[0] = '\0';
}

int srv_serve(struct srv *srv, struct rsp_conn *conn)
{
	struct ps_buf pkt;
	int err = 0;

	srv_new_connection(srv, conn);
	ps_buf_init(&pkt);
	while (!srv->disconnect && !srv->exit_server) {
		int res;

		err = rsp_read_packet(srv->conn, &pkt);
		if (err == RSP_INTERRUPT)
			continue;  /* nothing runs between packets */
		if (err < 0)
			break;

		ps_buf_reset(&srv->reply);
		res = srv_dispatch(srv, pkt.data, pkt.len);
		if (res < 0)
			res = srv_error(srv, res);
		if (res == srv_reply)
			err = rsp_send_packet(srv->conn, srv->reply.data,
					      srv->reply.len);
		else if (res == srv_resumed)
			err = srv_wait_and_reply(srv);
		if (err < 0)
			break;
	}
	ps_buf_fini(&pkt);
	return err == -pse_eof ? 0 : err;
}
