/* A client connection: the packet loop (all-stop, or non-stop with
   srv_nonstop.c), errors, and the selected thread.  */
#include "server/server.h"
#include "server/srv_lldb.h"
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
	ax_cond_list_init(&srv->conds_sw);
	ax_cond_list_init(&srv->conds_hw);
	ps_buf_init(&srv->xfer);
	ps_buf_init(&srv->reply);
	ps_buf_init(&srv->scratch);
	srv_notif_queue_init(&srv->notifs);
	srv_progress_init(&srv->progress);
	return 0;
}

void srv_fini(struct srv *srv)
{
	srv_settings_fini(srv);
	srv_lldb_fini(srv);
	ax_cond_list_fini(&srv->conds_sw);
	ax_cond_list_fini(&srv->conds_hw);
	hostio_fini(&srv->hostio);
	ps_buf_fini(&srv->xfer);
	ps_buf_fini(&srv->reply);
	ps_buf_fini(&srv->scratch);
	srv_notif_queue_fini(&srv->notifs);
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
	srv_progress_start(srv, &hook);
	/* Bytes already buffered do not wake poll: look at them first.  */
	err = rsp_conn_check_interrupt(srv->conn);
	if (err < 0)
		return err;
	if (err == 1)
		nat_interrupt(srv->target);

	do
		err = nat_wait(srv->target, &ev, &hook);
	while (err == 0 && (srv_condition_false(srv, &ev) ||
			    srv_range_step_on(srv, &ev)));
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
	if (srv->lldb)
		srv->lldb->client = 0;
	nat_target_client_reset(srv->target);
	hostio_fini(&srv->hostio);
	hostio_init(&srv->hostio);
	srv->xfer_object[0] = '\0';
	srv->non_stop = 0;
	srv_notif_clear(&srv->notifs);
	/* A new client inserts its breakpoints again, conditions too.  */
	ax_conds_reset(&srv->conds_sw);
	ax_conds_reset(&srv->conds_hw);
}

int srv_serve(struct srv *srv, struct rsp_conn *conn)
{
	struct ps_buf pkt;
	int err = 0;

	srv_new_connection(srv, conn);
	ps_buf_init(&pkt);
	while (!srv->disconnect && !srv->exit_server) {
		int res;

		/* Non-stop: the inferior runs between packets too.  */
		if (srv->non_stop) {
			err = srv_nonstop_wait_packet(srv);
			if (err < 0)
				break;
		}
		err = rsp_read_packet(srv->conn, &pkt);
		if (err == RSP_INTERRUPT) {
			/* All-stop: nothing runs between packets, but a ^C
			   that arrived just after a stop is not lost: the
			   SIGINT waits in the program and stops the next
			   resume, as with gdbserver.  */
			nat_interrupt(srv->target);
			continue;
		}
		if (err < 0)
			break;

		ps_buf_reset(&srv->reply);
		if (srv_packet_disabled(srv, pkt.data, pkt.len))
			res = srv_reply;
		else
			res = srv_dispatch(srv, pkt.data, pkt.len);
		if (res < 0)
			res = srv_error(srv, res);
		if (res == srv_reply)
			err = rsp_send_packet(srv->conn, srv->reply.data,
					      srv->reply.len);
		else if (res == srv_resumed && srv->non_stop)
			err = rsp_send_str(srv->conn, "OK");
		else if (res == srv_resumed)
			err = srv_wait_and_reply(srv);
		if (err < 0)
			break;
	}
	if (srv->non_stop)
		srv_nonstop_end(srv);
	ps_buf_fini(&pkt);
	return err == -pse_eof ? 0 : err;
}

static const struct {
	const char *name;
	unsigned mask;
} srv_disable_names[] = {
	{ "vCont", srv_disable_vcont },
	{ "Tthread", srv_disable_tthread },
	{ "qC", srv_disable_qc },
	{ "qfThreadInfo", srv_disable_qfthreadinfo },
	{ "T", srv_disable_t },
	{ "threads", srv_disable_vcont | srv_disable_tthread | srv_disable_qc |
		     srv_disable_qfthreadinfo },
};

int srv_parse_disable(const char *list, unsigned *mask, const char **bad,
		      size_t *badlen)
{
	unsigned m = 0;

	while (*list) {
		size_t n = strcspn(list, ","), i;

		for (i = 0; i < sizeof(srv_disable_names) /
				sizeof(srv_disable_names[0]); i++)
			if (strlen(srv_disable_names[i].name) == n &&
			    !memcmp(srv_disable_names[i].name, list, n))
				break;
		if (n && i == sizeof(srv_disable_names) /
				  sizeof(srv_disable_names[0])) {
			*bad = list;
			*badlen = n;
			return -pse_invalid;
		}
		if (n)
			m |= srv_disable_names[i].mask;
		list += n;
		if (*list == ',')
			list++;
	}
	*mask |= m;
	return 0;
}

int srv_packet_disabled(const struct srv *srv, const char *pkt, size_t len)
{
	unsigned d = srv->opts->disabled;

	if ((d & srv_disable_vcont) &&
	    (srv_prefix(pkt, len, "vCont") || srv_is(pkt, len, "vCtrlC")))
		return 1;
	if ((d & srv_disable_qc) && srv_is(pkt, len, "qC"))
		return 1;
	return (d & srv_disable_qfthreadinfo) &&
	       (srv_is(pkt, len, "qfThreadInfo") ||
		srv_is(pkt, len, "qsThreadInfo"));
}
