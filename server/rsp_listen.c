#define _GNU_SOURCE
#include "server/rsp_listen.h"
#include "server/comm_addr.h"
#include "common/ps_error.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void rsp_listen_init(struct rsp_listener *l)
{
	l->fd = -1;
	l->port = -1;
	l->stdio = 0;
	l->error[0] = '\0';
}

void rsp_listen_close(struct rsp_listener *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->port = -1;
}

void rsp_listen_fini(struct rsp_listener *l)
{
	rsp_listen_close(l);
	l->stdio = 0;
}

int rsp_listen_is_stdio(const struct rsp_listener *l)
{
	return l->stdio;
}

int rsp_listen_port(const struct rsp_listener *l)
{
	return l->fd >= 0 ? l->port : -pse_invalid;
}

/* One bind attempt; returns the socket or a negative ps code.  */
static int bind_one(const struct addrinfo *ai)
{
	int fd, one = 1, err;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -pse_io;
	/* Restarting the stub must not wait out TIME_WAIT of the last
	   session; a live listener still makes bind fail.  */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 1) == 0)
		return fd;
	err = errno == EADDRINUSE ? -pse_busy : -pse_io;
	{
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return err;
}

static int bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *) &ss, &len) < 0)
		return -pse_io;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *) &ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *) &ss)->sin6_port);
	return -pse_io;
}

static int listen_fail(struct rsp_listener *l, int err, const char *fmt,
		       const char *a, const char *b)
{
	snprintf(l->error, sizeof(l->error), fmt, a, b);
	return err;
}

int rsp_listen_open(struct rsp_listener *l, const char *comm)
{
	struct addrinfo hints, *res, *ai;
	struct comm_addr addr;
	int err, fd = -pse_io, saved = 0;

	rsp_listen_close(l);
	l->stdio = 0;
	l->error[0] = '\0';
	err = comm_addr_parse(&addr, comm);
	if (err < 0)
		return listen_fail(l, err, "%s%s", addr.error, "");
	if (addr.kind == comm_stdio) {
		l->stdio = 1;
		return 0;
	}

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = addr.family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
	hints.ai_flags = AI_NUMERICSERV;
	if (!addr.host[0])
		strcpy(addr.host, addr.family == AF_INET6 ? "::1" : "127.0.0.1");
	err = getaddrinfo(addr.host, addr.port, &hints, &res);
	if (err) {
		int code = err == EAI_SYSTEM ? -pse_io :
			   err == EAI_MEMORY ? -pse_nomem : -pse_notfound;

		/* gdbserver's words, which GDB's testsuite waits for.  */
		return listen_fail(l, code, "%s: cannot resolve name: %s", comm,
				   err == EAI_SYSTEM ? strerror(errno)
						     : gai_strerror(err));
	}

	/* The first address that binds wins, as gdbserver does; "in use"
	   is reported only if no address could be bound at all.  */
	for (ai = res; ai; ai = ai->ai_next) {
		fd = bind_one(ai);
		if (fd >= 0)
			break;
		if (fd == -pse_busy || !saved)
			saved = fd;
	}
	{
		int bind_errno = errno;

		freeaddrinfo(res);
		errno = bind_errno;
	}
	if (fd < 0) {
		err = saved ? saved : fd;
		return listen_fail(l, err, "Can't bind address: %s%s",
				   err == -pse_busy ? "Address already in use"
						    : strerror(errno), ".");
	}

	err = bound_port(fd);
	if (err < 0) {
		listen_fail(l, err, "Can't determine port: %s%s",
			    strerror(errno), ".");
		close(fd);
		return err;
	}
	l->fd = fd;
	l->port = err;
	return 0;
}

int rsp_listen_exposure(const struct rsp_listener *l)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (l->fd < 0 || getsockname(l->fd, (struct sockaddr *) &ss, &len) < 0)
		return rsp_exposed_none;
	if (ss.ss_family == AF_INET) {
		uint32_t a = ntohl(((struct sockaddr_in *) &ss)->sin_addr.s_addr);

		if (a == INADDR_ANY)
			return rsp_exposed_all;
		return (a >> 24) == 127 ? rsp_exposed_none : rsp_exposed_one;
	}
	if (ss.ss_family == AF_INET6) {
		const struct in6_addr *a = &((struct sockaddr_in6 *) &ss)->sin6_addr;

		if (IN6_IS_ADDR_UNSPECIFIED(a))
			return rsp_exposed_all;
		if (IN6_IS_ADDR_LOOPBACK(a) ||
		    (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127))
			return rsp_exposed_none;
		return rsp_exposed_one;
	}
	return rsp_exposed_none;
}

const char *rsp_listen_error(const struct rsp_listener *l)
{
	return l->error;
}

int rsp_listen_accept(struct rsp_listener *l, int *fd, char *host,
		      size_t hostlen, int *port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char serv[16];
	int s, one = 1;

	if (l->fd < 0)
		return -pse_invalid;
	do {
		len = sizeof(ss);
		s = accept4(l->fd, (struct sockaddr *) &ss, &len,
			    SOCK_CLOEXEC);
	} while (s < 0 && (errno == EINTR || errno == ECONNABORTED));
	if (s < 0)
		return -pse_io;
	/* Packets are small and each waits for an answer: Nagle would
	   only add latency.  */
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));

	if (host || port) {
		char h[NI_MAXHOST];

		if (getnameinfo((struct sockaddr *) &ss, len, h, sizeof(h),
				serv, sizeof(serv),
				NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
			strcpy(h, "?");
			strcpy(serv, "0");
		}
		if (host && hostlen) {
			strncpy(host, h, hostlen - 1);
			host[hostlen - 1] = '\0';
		}
		if (port)
			*port = atoi(serv);
	}
	*fd = s;
	return 0;
}
