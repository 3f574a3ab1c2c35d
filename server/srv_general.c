/* The vFile family: GDB's host I/O (hostio.c does the work).  */
#include "server/server.h"
#include "common/ps_error.h"

int srv_handle_general(struct srv *srv, const char *pkt, size_t len)
{
	/* vFile: GDB reads the program and its libraries through these.  */
	return hostio_handle(&srv->hostio, pkt, len, SRV_PACKET_SIZE,
			     &srv->reply) < 0 ? -pse_nomem : srv_reply;
}
