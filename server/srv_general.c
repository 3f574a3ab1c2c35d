/* The vFile family: GDB's host I/O (hostio.c does the work).  */
#include "server/server.h"
#include "common/ps_error.h"

int srv_handle_general(struct srv *srv, const char *pkt, size_t len)
{
	/* vFile: GDB reads the program and its libraries through these.
	   GDB fetches a whole reply's worth at each readahead miss, and
	   its reads are small and scattered: a short reply serves it best
	   (a PacketSize-long one made a session's start 3x slower).  */
	return hostio_handle(&srv->hostio, pkt, len, SRV_HOSTIO_REPLY_MAX,
			     &srv->reply) < 0 ? -pse_nomem : srv_reply;
}
