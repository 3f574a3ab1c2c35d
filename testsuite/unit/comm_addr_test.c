#include "server/comm_addr.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>
#include <sys/socket.h>

static void expect_tcp(const char *comm, int family, const char *host,
		       const char *port)
{
	struct comm_addr a;

	cr_assert_eq(comm_addr_parse(&a, comm), 0, "'%s': %s", comm, a.error);
	cr_assert_eq(a.kind, comm_tcp, "'%s'", comm);
	cr_assert_eq(a.family, family, "'%s': family %d", comm, a.family);
	cr_assert_str_eq(a.host, host, "'%s'", comm);
	cr_assert_str_eq(a.port, port, "'%s'", comm);
	cr_assert_str_empty(a.error);
}

static void expect_bad(const char *comm, const char *error)
{
	struct comm_addr a;

	cr_assert_eq(comm_addr_parse(&a, comm), -pse_invalid, "'%s'", comm);
	cr_assert_str_eq(a.error, error, "'%s'", comm);
	cr_assert_str_empty(a.host);
	cr_assert_str_empty(a.port);
}

Test(comm_addr, stdio)
{
	struct comm_addr a;

	cr_assert_eq(comm_addr_parse(&a, "-"), 0);
	cr_assert_eq(a.kind, comm_stdio);
	cr_assert_eq(comm_addr_parse(&a, "stdio"), 0);
	cr_assert_eq(a.kind, comm_stdio);
	/* Only the whole word: "stdio:1" is a host.  */
	expect_tcp("stdio:1", AF_UNSPEC, "stdio", "1");
}

Test(comm_addr, host_and_port)
{
	expect_tcp("localhost:1234", AF_UNSPEC, "localhost", "1234");
	expect_tcp("127.0.0.1:0", AF_UNSPEC, "127.0.0.1", "0");
	expect_tcp(":2345", AF_UNSPEC, "", "2345");
	expect_tcp("2345", AF_UNSPEC, "", "2345");
	expect_tcp("host:65535", AF_UNSPEC, "host", "65535");
	expect_tcp("host:007", AF_UNSPEC, "host", "7");
}

/* The forms GDB's server-connect.exp starts gdbserver with.  */
Test(comm_addr, ipv6)
{
	expect_tcp("::1:1234", AF_UNSPEC, "::1", "1234");
	expect_tcp("[::1]:1234", AF_INET6, "::1", "1234");
	expect_tcp("[fe80::1%lo]:9", AF_INET6, "fe80::1%lo", "9");
	expect_tcp(":::1234", AF_UNSPEC, "::", "1234");
}

Test(comm_addr, prefixes)
{
	expect_tcp("tcp:localhost:1", AF_UNSPEC, "localhost", "1");
	expect_tcp("tcp4:127.0.0.1:2", AF_INET, "127.0.0.1", "2");
	expect_tcp("tcp4::2", AF_INET, "", "2");
	expect_tcp("tcp6:::1:3", AF_INET6, "::1", "3");
	expect_tcp("tcp6:[::1]:4", AF_INET6, "::1", "4");
	expect_bad("udp:localhost:1",
		   "UDP is not supported, use TCP: 'udp:localhost:1'");
	expect_bad("udp6:[::1]:1", "UDP is not supported, use TCP: 'udp6:[::1]:1'");
}

/* Hosts that look odd still parse: they fail to resolve later, with
   gdbserver's "cannot resolve name" (server-connect.exp's bad cases).  */
Test(comm_addr, unresolvable_hosts_parse)
{
	expect_tcp("tcp8:123:2345", AF_UNSPEC, "tcp8:123", "2345");
	expect_tcp("udp123:::2345", AF_UNSPEC, "udp123::", "2345");
	expect_tcp("garbage:1234:2345", AF_UNSPEC, "garbage:1234", "2345");
	expect_tcp("foo]:1", AF_UNSPEC, "foo]", "1");
}

Test(comm_addr, brackets)
{
	expect_bad("[::1", "Missing close bracket in hostname '[::1'");
	expect_bad("tcp6:[::1", "Missing close bracket in hostname '[::1'");
	expect_bad("[::1]x:1", "Invalid cruft after close bracket in '[::1]x:1'");
	expect_bad("::1]:1", "Missing open bracket in hostname '::1]:1'");
	expect_bad("[::1]", "No port in '[::1]'");
}

Test(comm_addr, bad_ports)
{
	expect_bad("", "No port in ''");
	expect_bad(":", "No port in ':'");
	expect_bad("localhost:", "No port in 'localhost:'");
	expect_bad("abc", "Bad port in 'abc'");
	expect_bad(":70000", "Bad port in ':70000'");
	expect_bad(":123456", "Bad port in ':123456'");
	expect_bad(":-1", "Bad port in ':-1'");
	expect_bad(":+5", "Bad port in ':+5'");
	expect_bad("host: 1", "Bad port in 'host: 1'");
	expect_bad("localhost:12x", "Bad port in 'localhost:12x'");
}

Test(comm_addr, long_host)
{
	char comm[400];

	memset(comm, 'a', 300);
	strcpy(comm + 300, ":1");
	struct comm_addr a;

	cr_assert_eq(comm_addr_parse(&a, comm), -pse_invalid);
	cr_assert(strstr(a.error, "Host name too long"), "%s", a.error);
}
