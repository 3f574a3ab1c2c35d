/* H, T, qC, qfThreadInfo and qsThreadInfo.  */
#include "server/server.h"
#include "common/ps_error.h"

#include <string.h>

static void srv_put_thread(struct srv *srv, const struct nat_thread *t)
{
	struct rsp_ptid ptid = { nat_thread_pid(t), nat_thread_tid(t) };

	rsp_format_ptid(&srv->reply, ptid, srv->multiprocess);
}

/* The thread PTID names, or NULL; pid 0 means the first process.  */
static struct nat_thread *srv_ptid_thread(struct srv *srv,
					  struct rsp_ptid ptid)
{
	struct nat_process *proc = ptid.pid > 0 ?
		nat_find_process(srv->target, (pid_t) ptid.pid) :
		nat_first_process(srv->target);

	if (!proc)
		return NULL;
	if (ptid.tid <= 0)
		return nat_process_first_thread(proc);
	return nat_find_thread(srv->target, nat_process_pid(proc), (pid_t) ptid.tid);
}

static int srv_set_thread(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + 2, *end = pkt + len;
	struct rsp_ptid ptid;

	if (len < 2 || rsp_parse_ptid(&p, end, &ptid) < 0 || p != end)
		return -pse_invalid;
	/* A real thread must exist; "any" and "all" always do.  */
	if ((ptid.tid > 0 || ptid.pid > 0) && !srv_ptid_thread(srv, ptid))
		return srv_error_text(srv, "No such thread.");
	if (pkt[1] == 'g') {
		/* As gdbserver: "any" keeps the selected thread while it
		   lives, and whatever is chosen is pinned to one thread, so a
		   vAttach to another process later does not move it.  "All"
		   stays all (Qbtrace then wants a single thread).  */
		int any = ptid.pid == 0 && ptid.tid <= 0;
		int all = ptid.pid < 0 || (ptid.pid == 0 && ptid.tid < 0);
		struct nat_thread *t = all ? NULL : any ?
			srv_general_thread(srv) : srv_ptid_thread(srv, ptid);

		if (!t && any && nat_first_process(srv->target))
			t = nat_process_first_thread(nat_first_process(srv->target));
		if (t) {
			srv->general.pid = nat_thread_pid(t);
			srv->general.tid = nat_thread_tid(t);
		} else {
			srv->general = ptid;
		}
	}
	else if (pkt[1] == 'c')
		srv->cont = ptid;
	else
		return -pse_invalid;
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

int srv_handle_threads(struct srv *srv, const char *pkt, size_t len)
{
	if (pkt[0] == 'H')
		return srv_set_thread(srv, pkt, len);

	if (pkt[0] == 'T') {
		const char *p = pkt + 1, *end = pkt + len;
		struct rsp_ptid ptid;

		if (rsp_parse_ptid(&p, end, &ptid) < 0 || p != end)
			return -pse_invalid;
		if (ptid.tid <= 0 || !srv_ptid_thread(srv, ptid))
			return srv_error_text(srv, "No such thread.");
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}

	if (srv_prefix(pkt, len, "qfThreadInfo")) {
		int first = 1;

		for (struct nat_process *proc = nat_first_process(srv->target);
		     proc; proc = nat_process_next(proc))
			for (struct nat_thread *t = nat_process_first_thread(proc);
			     t; t = nat_thread_next(t)) {
				ps_buf_putc(&srv->reply, first ? 'm' : ',');
				srv_put_thread(srv, t);
				first = 0;
			}
		if (first)
			ps_buf_putc(&srv->reply, 'l');
		return srv_reply;
	}
	if (srv_prefix(pkt, len, "qsThreadInfo")) {
		ps_buf_putc(&srv->reply, 'l');
		return srv_reply;
	}
	if (len == 2 && srv_prefix(pkt, len, "qC")) {
		struct nat_thread *t = srv_general_thread(srv);

		if (!t)
			return srv_error_text(srv, "No thread.");
		ps_buf_puts(&srv->reply, "QC");
		srv_put_thread(srv, t);
		return srv_reply;
	}
	return srv_handle_query(srv, pkt, len);
}
