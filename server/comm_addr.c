#include "server/comm_addr.h"
#include "common/ps_error.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

void comm_addr_init(struct comm_addr *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->kind = comm_tcp;
	addr->family = AF_UNSPEC;
}

static int comm_fail(struct comm_addr *addr, const char *fmt, const char *arg)
{
	snprintf(addr->error, sizeof(addr->error), fmt, arg);
	addr->host[0] = addr->port[0] = '\0';
	return -pse_invalid;
}

/* PORT must be decimal and fit 16 bits; gdbserver lets getaddrinfo wrap
   larger numbers, which only hides a typo.  */
static int comm_set_port(struct comm_addr *addr, const char *port,
			 const char *comm)
{
	size_t n = strlen(port);
	unsigned long v = 0;

	if (!n)
		return comm_fail(addr, "No port in '%s'", comm);
	if (strspn(port, "0123456789") != n || n > 5)
		return comm_fail(addr, "Bad port in '%s'", comm);
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (unsigned long) (port[i] - '0');
	if (v > 65535)
		return comm_fail(addr, "Bad port in '%s'", comm);
	snprintf(addr->port, sizeof(addr->port), "%lu", v);
	return 0;
}

static int comm_set_host(struct comm_addr *addr, const char *host, size_t n,
			 const char *comm)
{
	if (n >= sizeof(addr->host))
		return comm_fail(addr, "Host name too long in '%s'", comm);
	memcpy(addr->host, host, n);
	addr->host[n] = '\0';
	return 0;
}

int comm_addr_parse(struct comm_addr *addr, const char *comm)
{
	static const struct { const char *prefix; int family; } prefixes[] = {
		{ "tcp:", AF_UNSPEC }, { "tcp4:", AF_INET }, { "tcp6:", AF_INET6 },
	};
	const char *spec = comm, *colon, *close;
	int err;

	comm_addr_init(addr);
	if (!strcmp(comm, "-") || !strcmp(comm, "stdio")) {
		addr->kind = comm_stdio;
		return 0;
	}
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(spec, prefixes[i].prefix, strlen(prefixes[i].prefix))) {
			spec += strlen(prefixes[i].prefix);
			addr->family = prefixes[i].family;
			break;
		}
	if (!strncmp(spec, "udp:", 4) || !strncmp(spec, "udp4:", 5) ||
	    !strncmp(spec, "udp6:", 5))
		return comm_fail(addr, "UDP is not supported, use TCP: '%s'",
				 comm);

	/* gdbserver's rule: a bracket, or more than one colon, means IPv6
	   (for the bracket test only, unless brackets or tcp6: say so).  */
	if (addr->family != AF_INET &&
	    (spec[0] == '[' || (strchr(spec, ':') &&
				strchr(spec, ':') != strrchr(spec, ':')))) {
		if (spec[0] == '[') {
			close = strchr(spec, ']');
			if (!close)
				return comm_fail(addr, "Missing close bracket "
						 "in hostname '%s'", spec);
			if (close[1] != ':' && close[1] != '\0')
				return comm_fail(addr, "Invalid cruft after "
						 "close bracket in '%s'", spec);
			addr->family = AF_INET6;
			err = comm_set_host(addr, spec + 1,
					    (size_t) (close - spec - 1), comm);
			if (err < 0)
				return err;
			if (!close[1])
				return comm_fail(addr, "No port in '%s'", comm);
			return comm_set_port(addr, close + 2, comm);
		}
		if (strchr(spec, ']'))
			return comm_fail(addr, "Missing open bracket in "
					 "hostname '%s'", spec);
	}

	colon = strrchr(spec, ':');
	if (!colon) {
		/* A bare number is a port: gdbserver would take it for a
		   serial device, which ptstub does not drive.  */
		return comm_set_port(addr, spec, comm);
	}
	err = comm_set_host(addr, spec, (size_t) (colon - spec), comm);
	if (err < 0)
		return err;
	return comm_set_port(addr, colon + 1, comm);
}
