/* COMM, where ptstub waits for GDB, parsed by gdbserver's rules: "-" or
   "stdio"; "HOST:PORT", ":PORT" or "PORT"; an IPv6 HOST bracketed
   ("[::1]:1234") or bare when COMM has more than one colon ("::1:1234");
   an optional "tcp:", "tcp4:" or "tcp6:" prefix picks the family.  The
   parse only splits COMM: names resolve when the listener opens.  */
#ifndef SERVER_COMM_ADDR_H
#define SERVER_COMM_ADDR_H

#include <stddef.h>

enum comm_kind {
	comm_stdio,
	comm_tcp,
};

struct comm_addr {
	enum comm_kind kind;
	int family;          /* AF_UNSPEC, AF_INET or AF_INET6 */
	char host[256];      /* "" when COMM names none */
	char port[8];        /* decimal, 0 to 65535 */
	char error[320];     /* why COMM was refused, for the user */
};

void comm_addr_init(struct comm_addr *addr);

/* Split COMM into ADDR.  Returns 0, or -pse_invalid with ADDR->error
   saying what is wrong in gdbserver's words where it has them ("Missing
   close bracket in hostname '[::1'").  */
int comm_addr_parse(struct comm_addr *addr, const char *comm);

#endif
