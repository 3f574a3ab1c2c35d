/* Where GDB connects: a TCP listening socket, or stdin/stdout.  Unlike
   gdbserver, a COMM without a host binds the loopback address only, so
   the stub (which runs programs for whoever connects) is not offered to
   the network by default.  */
#ifndef SERVER_RSP_LISTEN_H
#define SERVER_RSP_LISTEN_H

#include <stddef.h>

struct rsp_listener {
	int fd;         /* the listening socket, or -1 */
	int port;       /* the bound port, or -1 */
	int stdio;      /* COMM was "-" or "stdio": use fds 0 and 1 */
	char error[512];  /* why the last open failed, for the user */
};

void rsp_listen_init(struct rsp_listener *l);

/* Listen as COMM says (server/comm_addr.h): "HOST:PORT" (HOST a name,
   an IPv4 address or an IPv6 one), ":PORT" or "PORT" (127.0.0.1), or
   "-" / "stdio" (no socket).  Port 0 picks a free port.  Returns 0,
   -pse_invalid for a malformed COMM, -pse_notfound for a host that does
   not resolve, -pse_busy if the address is in use, -pse_io otherwise
   (errno says why); rsp_listen_error then says it in gdbserver's
   words.  */
int rsp_listen_open(struct rsp_listener *l, const char *comm);

/* The message for the last failed open ("" after a success).  */
const char *rsp_listen_error(const struct rsp_listener *l);

/* Who can reach the listening socket: this machine only (a loopback
   address, or stdio), the network through one address, or every
   interface (0.0.0.0, ::).  The last two get a warning at start: anyone
   who connects can run programs as the stub's user.  */
enum rsp_exposure {
	rsp_exposed_none,
	rsp_exposed_one,
	rsp_exposed_all,
};
int rsp_listen_exposure(const struct rsp_listener *l);

/* Whether the listener stands for stdin/stdout.  */
int rsp_listen_is_stdio(const struct rsp_listener *l);

/* The bound port, for "Listening on port N"; -pse_invalid when not
   listening on a socket.  */
int rsp_listen_port(const struct rsp_listener *l);

/* Wait for one connection and return its socket in *FD (close-on-exec,
   TCP_NODELAY); HOST (HOSTLEN bytes) and PORT, each optional, receive
   the peer's numeric address for "Remote debugging from host H, port
   P".  -pse_invalid for a stdio or closed listener, -pse_io on error.  */
int rsp_listen_accept(struct rsp_listener *l, int *fd, char *host,
		      size_t hostlen, int *port);

/* Stop listening (after the first connection for --once); idempotent.  */
void rsp_listen_close(struct rsp_listener *l);
void rsp_listen_fini(struct rsp_listener *l);

#endif
