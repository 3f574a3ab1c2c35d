/* The pieces every packet handler uses, and nothing else: matching a
   packet's name, the error replies, and the process and thread the
   client selected with Hg, and the stop a swallowed event owes.  A leaf below the handlers, so that calls run
   one way: server.c -> dispatch.c -> a family's handler -> here.  */
#include "server/server.h"
#include "common/ps_error.h"

#include <string.h>

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
		return nat_find_thread(srv->target, nat_process_pid(proc),
				       (pid_t) srv->general.tid);
	return nat_process_first_thread(proc);
}

int srv_is(const char *pkt, size_t len, const char *name)
{
	return len == strlen(name) && !memcmp(pkt, name, len);
}

int srv_owed_stop(struct srv *srv, struct nat_event *ev)
{
	struct nat_thread *thread;

	if (!srv->non_stop || !ev->stop_requested || ev->kind != nat_ev_stopped)
		return 0;
	/* gdbserver's vCont;t SIGSTOP stays in flight past such a hit and
	   stops the thread right after; here the hit was the stop.  */
	ev->sig = 0;
	ev->reason = nat_stop_none;
	ev->data_addr = 0;
	thread = nat_find_thread(srv->target, ev->pid, ev->tid);
	if (thread)
		nat_thread_set_last_sig(thread, 0);
	return 1;
}
