/* '?' and the vFile family.  */
#include "server/server.h"
#include "common/ps_error.h"

int srv_handle_general(struct srv *srv, const char *pkt, size_t len)
{
	if (pkt[0] == '?') {
		if (!nat_first_process(srv->target) || !srv->have_last) {
			ps_buf_puts(&srv->reply, "W00");
			return srv_reply;
		}
		/* The last stop again, if its thread is still there.  */
		if (srv->last.kind != nat_ev_exited &&
		    srv->last.kind != nat_ev_signalled &&
		    !nat_find_thread(srv->target, srv->last.pid, srv->last.tid)) {
			struct nat_process *proc = nat_first_process(srv->target);

			srv->last.pid = proc->pid;
			srv->last.tid = proc->threads->tid;
		}
		return srv_stop_reply(srv, &srv->last) < 0 ?
			-pse_internal : srv_reply;
	}
	/* vFile: GDB reads the program and its libraries through these.  */
	return hostio_handle(&srv->hostio, pkt, len, SRV_PACKET_SIZE,
			     &srv->reply) < 0 ? -pse_nomem : srv_reply;
}
