/* Non-stop mode, as gdbserver does it on the wire: QNonStop, vCont
   answered OK at once, each stop sent as a "%Stop:" notification with
   the rest queued for vStopped, '?' reporting every stopped thread
   (srv_handle_status; in all-stop, the last stop again), and vCtrlC.
   vAttach's non-stop answer (OK, the stops following as notifications)
   is srv_process.c's.  The inferior runs while packets are served: the loop here
   waits on the client and on the inferior's events together.  */
#include "server/server.h"
#include "common/ps_error.h"

#include <errno.h>
#include <poll.h>
#include <string.h>

/* Events about processes or threads that are gone (detached, killed)
   must not reach the client; exits are about gone processes anyway.  */
static int srv_notif_still_there(const struct srv_notif *n, void *ctx)
{
	struct srv *srv = ctx;

	if (!n->tid)
		return 1;
	return nat_find_thread(srv->target, n->pid, n->tid) != NULL;
}

/* Format EV as a stop reply and queue it; the first one goes out now.  */
static int srv_nonstop_push(struct srv *srv, const struct nat_event *ev,
			    int notify)
{
	/* A thread's exit is news of a thread already gone: kept like a
	   process's.  */
	int exit = ev->kind == nat_ev_exited || ev->kind == nat_ev_signalled ||
		   ev->kind == nat_ev_thread_exited;
	int err;

	ps_buf_reset(&srv->reply);
	/* A thread gone before its reply was written has nothing to say.  */
	if (srv_stop_reply(srv, ev) < 0) {
		ps_buf_reset(&srv->reply);
		return 0;
	}
	err = srv_notif_push(&srv->notifs, ev->pid, exit ? 0 : ev->tid,
			     srv->reply.data, srv->reply.len);
	ps_buf_reset(&srv->reply);
	if (err == 1 && notify) {
		const struct srv_notif *head = srv_notif_head(&srv->notifs);

		return rsp_send_notification(srv->conn, "Stop", head->text,
					     head->len);
	}
	return err < 0 ? err : 0;
}

/* Whether the client has sent something not yet read.  */
static int srv_client_waiting(struct srv *srv)
{
	struct pollfd fd = { .fd = rsp_conn_poll_fd(srv->conn), .events = POLLIN };

	return srv->conn->in_pos < srv->conn->in_len || poll(&fd, 1, 0) > 0;
}

/* Report everything the inferior has for the client now.  Events nobody
   sees (a false condition, a range step) can come without end while
   threads run through a breakpoint: the client's packets go first then,
   or it would wait forever for its answer.  */
int srv_nonstop_report(struct srv *srv)
{
	struct nat_event ev;
	int err;

	while (nat_poll_event(srv->target, &ev) == 1) {
		if (ev.kind == nat_ev_no_resumed || srv_condition_false(srv, &ev) ||
		    srv_range_step_on(srv, &ev)) {
			if (srv_client_waiting(srv))
				break;
			continue;
		}
		err = srv_nonstop_push(srv, &ev, 1);
		if (err < 0)
			return err;
	}
	return 0;
}

int srv_nonstop_wait_packet(struct srv *srv)
{
	for (;;) {
		struct pollfd fds[2];
		int err;

		err = srv_nonstop_report(srv);
		if (err < 0)
			return err;
		err = rsp_conn_check_interrupt(srv->conn);
		if (err < 0)
			return err;
		if (err == 1)
			nat_interrupt(srv->target);
		/* A packet has begun: rsp_read_packet takes it.  */
		if (srv->conn->in_pos < srv->conn->in_len)
			return 0;

		fds[0].fd = rsp_conn_poll_fd(srv->conn);
		fds[0].events = POLLIN;
		fds[1].fd = nat_event_fd(srv->target);
		fds[1].events = POLLIN;
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			return -pse_io;
	}
}

void srv_nonstop_end(struct srv *srv)
{
	srv->non_stop = 0;
	nat_set_non_stop(srv->target, 0);
	srv_notif_clear(&srv->notifs);
}

/* Reply with the head of the queue, or OK when it is empty.  */
static int srv_reply_head(struct srv *srv, const struct srv_notif *head)
{
	ps_buf_reset(&srv->reply);
	if (head)
		ps_buf_append(&srv->reply, head->text, head->len);
	else
		ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

static int srv_qnonstop(struct srv *srv, const char *pkt, size_t len)
{
	const char *mode = pkt + strlen("QNonStop:");
	size_t n = len - strlen("QNonStop:");
	int on;

	if (n == 1 && (*mode == '0' || *mode == '1')) {
		on = *mode == '1';
	} else {
		ps_buf_puts(&srv->reply, "E.Unknown non-stop mode requested: ");
		ps_buf_append(&srv->reply, mode, n);
		ps_buf_putc(&srv->reply, '\n');
		return srv_reply;
	}
	if (!on && srv->non_stop)
		srv_notif_clear(&srv->notifs);
	srv->non_stop = on;
	nat_set_non_stop(srv->target, on);
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

/* '?' in non-stop: a stop reply for every thread the client knows
   stopped, the first as the reply, the rest for vStopped.  Threads it
   was never told of (attached along with the leader) it takes as
   running, as gdbserver has them: a vCont;t reports each.  */
static int srv_nonstop_status(struct srv *srv)
{
	int err;

	for (struct nat_process *p = nat_first_process(srv->target); p;
	     p = nat_process_next(p))
		for (struct nat_thread *t = nat_process_first_thread(p); t;
		     t = nat_thread_next(t)) {
			struct nat_event ev;
			pid_t pid = nat_process_pid(p), tid = nat_thread_tid(t);

			if (!nat_thread_stop_reported(t) ||
			    srv_notif_has(&srv->notifs, pid, tid))
				continue;
			memset(&ev, 0, sizeof(ev));
			ev.kind = nat_ev_stopped;
			ev.pid = pid;
			ev.tid = tid;
			ev.sig = nat_thread_last_sig(t);
			if (srv->have_last && srv->last.kind == nat_ev_stopped &&
			    srv->last.pid == pid && srv->last.tid == tid)
				ev.sig = srv->last.sig;
			err = srv_nonstop_push(srv, &ev, 0);
			if (err < 0)
				return err;
		}
	nat_hold_stopped(srv->target, -1, 0);
	return srv_reply_head(srv, srv_notif_head(&srv->notifs));
}

int srv_handle_nonstop(struct srv *srv, const char *pkt, size_t len)
{
	if (srv_prefix(pkt, len, "QNonStop:"))
		return srv_qnonstop(srv, pkt, len);
	if (srv_is(pkt, len, "vStopped")) {
		srv_notif_filter(&srv->notifs, srv_notif_still_there, srv);
		return srv_reply_head(srv, srv_notif_ack(&srv->notifs));
	}
	if (srv_is(pkt, len, "vCtrlC")) {
		nat_interrupt(srv->target);
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}
	return srv_reply;
}

int srv_handle_status(struct srv *srv, const char *pkt, size_t len)
{
	(void) pkt;
	(void) len;
	if (srv->non_stop)
		return srv_nonstop_status(srv);
	if (!nat_first_process(srv->target) || !srv->have_last) {
		ps_buf_puts(&srv->reply, "W00");
		return srv_reply;
	}
	/* All-stop: the last stop again, if its thread is still there.  */
	if (srv->last.kind != nat_ev_exited &&
	    srv->last.kind != nat_ev_signalled &&
	    !nat_find_thread(srv->target, srv->last.pid, srv->last.tid)) {
		struct nat_process *proc = nat_first_process(srv->target);
		struct nat_thread *t = nat_process_first_thread(proc);

		srv->last.pid = nat_process_pid(proc);
		srv->last.tid = t ? nat_thread_tid(t) : srv->last.pid;
	}
	return srv_stop_reply(srv, &srv->last) < 0 ? -pse_internal : srv_reply;
}
