#include "server/rsp_listen.h"
#include "server/rsp_conn.h"
#include "server/rsp_escape.h"
#include "server/rsp_parse.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(rsp_listen, .timeout = 20);

static int connect_to(int family, const char *addr, int port, int *local_port)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0);
	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *) &ss;

		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t) port);
		inet_pton(AF_INET, addr, &in->sin_addr);
		len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t) port);
		inet_pton(AF_INET6, addr, &in6->sin6_addr);
		len = sizeof(*in6);
	}
	cr_assert_eq(connect(fd, (struct sockaddr *) &ss, len), 0,
		     "connect: %s", strerror(errno));
	if (local_port) {
		len = sizeof(ss);
		getsockname(fd, (struct sockaddr *) &ss, &len);
		*local_port = ntohs(family == AF_INET ?
				    ((struct sockaddr_in *) &ss)->sin_port :
				    ((struct sockaddr_in6 *) &ss)->sin6_port);
	}
	return fd;
}

static void expect_cloexec(int fd)
{
	int flags = fcntl(fd, F_GETFD);

	cr_assert_neq(flags, -1);
	cr_assert(flags & FD_CLOEXEC, "fd %d lacks FD_CLOEXEC", fd);
}

/* A real connection through a real listening socket on a free port.  */
static void accept_one(const char *comm)
{
	struct rsp_listener l;
	char host[64] = "unset";
	int port, peer_port = -1, client, fd = -1, nodelay = 0;
	socklen_t optlen = sizeof(nodelay);
	char byte = 0;

	rsp_listen_init(&l);
	cr_assert_eq(rsp_listen_open(&l, comm), 0, "%s", comm);
	cr_assert(!rsp_listen_is_stdio(&l));
	port = rsp_listen_port(&l);
	cr_assert(port > 0 && port < 65536, "port %d", port);
	expect_cloexec(l.fd);

	client = connect_to(AF_INET, "127.0.0.1", port, &peer_port);
	cr_assert_eq(rsp_listen_accept(&l, &fd, host, sizeof(host), &port), 0);
	cr_assert_geq(fd, 0);
	cr_assert_str_eq(host, "127.0.0.1");
	cr_assert_eq(port, peer_port);
	expect_cloexec(fd);
	cr_assert_eq(getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay,
				&optlen), 0);
	cr_assert_neq(nodelay, 0);

	/* It is the client's connection: bytes go through.  */
	cr_assert_eq(write(client, "+", 1), 1);
	cr_assert_eq(read(fd, &byte, 1), 1);
	cr_assert_eq(byte, '+');

	close(client);
	close(fd);
	rsp_listen_fini(&l);
	cr_assert_eq(l.fd, -1);
}

Test(rsp_listen, colon_port)
{
	accept_one(":0");
}

Test(rsp_listen, bare_port)
{
	accept_one("0");
}

Test(rsp_listen, host_and_port)
{
	accept_one("localhost:0");
	accept_one("127.0.0.1:0");
	accept_one("tcp:127.0.0.1:0");
	accept_one("tcp4::0");
}

/* Without a host only the loopback address is bound, by design.  */
Test(rsp_listen, default_binds_loopback_only)
{
	struct rsp_listener l;
	struct sockaddr_in in;
	socklen_t len = sizeof(in);

	rsp_listen_init(&l);
	cr_assert_eq(rsp_listen_open(&l, ":0"), 0);
	cr_assert_eq(getsockname(l.fd, (struct sockaddr *) &in, &len), 0);
	cr_assert_eq(in.sin_family, AF_INET);
	cr_assert_eq(in.sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	cr_assert_eq(ntohs(in.sin_port), rsp_listen_port(&l));
	rsp_listen_fini(&l);
}

Test(rsp_listen, ipv6)
{
	struct rsp_listener l;
	char host[64];
	int err, client, fd, port;

	rsp_listen_init(&l);
	err = rsp_listen_open(&l, "[::1]:0");
	if (err == -pse_io && (errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT)) {
		fprintf(stderr, "SKIP: no IPv6 loopback here (%s)\n",
			strerror(errno));
		cr_skip_test("no IPv6 loopback: %s", strerror(errno));
	}
	cr_assert_eq(err, 0, "%s", ps_errstr(err));
	client = connect_to(AF_INET6, "::1", rsp_listen_port(&l), NULL);
	cr_assert_eq(rsp_listen_accept(&l, &fd, host, sizeof(host), &port), 0);
	cr_assert_str_eq(host, "::1");
	close(client);
	close(fd);
	rsp_listen_fini(&l);
}

Test(rsp_listen, address_in_use)
{
	struct rsp_listener a, b;
	char comm[32];

	rsp_listen_init(&a);
	rsp_listen_init(&b);
	cr_assert_eq(rsp_listen_open(&a, ":0"), 0);
	snprintf(comm, sizeof(comm), ":%d", rsp_listen_port(&a));
	cr_assert_eq(rsp_listen_open(&b, comm), -pse_busy);
	cr_assert_str_eq(rsp_listen_error(&b),
			 "Can't bind address: Address already in use.");
	cr_assert_eq(b.fd, -1);
	cr_assert_eq(rsp_listen_port(&b), -pse_invalid);

	/* Closed, the port is free again at once (SO_REUSEADDR).  */
	rsp_listen_close(&a);
	rsp_listen_close(&a);
	cr_assert_eq(rsp_listen_open(&b, comm), 0);
	cr_assert_str_empty(rsp_listen_error(&b));
	cr_assert_eq(rsp_listen_port(&b), atoi(comm + 1));
	rsp_listen_fini(&b);
	rsp_listen_fini(&a);
}

Test(rsp_listen, stdio)
{
	static const char *comms[] = { "-", "stdio" };

	for (int i = 0; i < 2; i++) {
		struct rsp_listener l;
		int fd = 7;

		rsp_listen_init(&l);
		cr_assert_eq(rsp_listen_open(&l, comms[i]), 0);
		cr_assert(rsp_listen_is_stdio(&l));
		cr_assert_eq(l.fd, -1);
		cr_assert_eq(rsp_listen_port(&l), -pse_invalid);
		cr_assert_eq(rsp_listen_accept(&l, &fd, NULL, 0, NULL),
			     -pse_invalid);
		cr_assert_eq(fd, 7);
		rsp_listen_fini(&l);
		cr_assert(!rsp_listen_is_stdio(&l));
	}
}

Test(rsp_listen, malformed)
{
	static const char *bad[] = {
		"", ":", "abc", ":70000", ":-1", ":+5", "[::1", "[::1]",
		"[::1]x0", "localhost:", "localhost:12x", "host: 1",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rsp_listener l;

		rsp_listen_init(&l);
		cr_assert_eq(rsp_listen_open(&l, bad[i]), -pse_invalid,
			     "'%s'", bad[i]);
		cr_assert_str_neq(rsp_listen_error(&l), "", "'%s'", bad[i]);
		cr_assert_eq(l.fd, -1);
		rsp_listen_fini(&l);
	}
}

Test(rsp_listen, unknown_host)
{
	struct rsp_listener l;

	rsp_listen_init(&l);
	/* .invalid never resolves (RFC 2606).  */
	cr_assert_eq(rsp_listen_open(&l, "no-such-host.invalid:0"),
		     -pse_notfound);
	/* gdbserver's words: GDB's testsuite waits for them.  */
	cr_assert(!strncmp(rsp_listen_error(&l),
			   "no-such-host.invalid:0: cannot resolve name: ", 45),
		  "%s", rsp_listen_error(&l));
	/* server-connect.exp's bad COMMs fail the same way.  */
	cr_assert_eq(rsp_listen_open(&l, "tcp8:123:0"), -pse_notfound);
	cr_assert(!strncmp(rsp_listen_error(&l),
			   "tcp8:123:0: cannot resolve name: ", 33),
		  "%s", rsp_listen_error(&l));
	rsp_listen_fini(&l);
}

Test(rsp_listen, accept_without_host_buffers)
{
	struct rsp_listener l;
	int client, fd;

	rsp_listen_init(&l);
	cr_assert_eq(rsp_listen_open(&l, ":0"), 0);
	client = connect_to(AF_INET, "127.0.0.1", rsp_listen_port(&l), NULL);
	cr_assert_eq(rsp_listen_accept(&l, &fd, NULL, 0, NULL), 0);
	cr_assert_geq(fd, 0);
	close(client);
	close(fd);
	rsp_listen_fini(&l);
}

/* The far end of the real GDB sessions below: just enough of a stub for
   GDB to connect (extended-remote with no process, or remote with one
   fake thread), run a monitor command, move a binary file both ways
   through vFile, and interrupt a "continue".  It drives rsp_listen,
   rsp_conn, rsp_escape and rsp_parse against the real peer.  */
struct mini_stub {
	struct rsp_conn conn;
	struct ps_buf reply;
	struct ps_buf file;     /* the one remote file */
	struct ps_buf name;
	int noack_offered;
	int acked_packets;      /* packets read while acks were on */
	int monitor_seen;
	int running;            /* a fake stopped thread exists */
	pid_t gdb_pid;          /* sent SIGINT when the fake thread runs */
	int interrupts;         /* 0x03 bytes seen while it ran */
};

enum { mini_packet_size = 0x400 };

static int mini_vfile(struct mini_stub *m, const char *p, const char *end)
{
	struct ps_buf *r = &m->reply;
	uint64_t fd, a, b;

	if (!strncmp(p, "setfs:", 6))
		return ps_buf_puts(r, "F0");
	if (!strncmp(p, "open:", 5)) {
		p += 5;
		ps_buf_reset(&m->name);
		if (rsp_parse_hex_string(&p, end, &m->name) <= 0)
			return ps_buf_puts(r, "F-1,16");
		return ps_buf_puts(r, "F3");
	}
	if (!strncmp(p, "close:", 6))
		return ps_buf_puts(r, "F0");
	if (!strncmp(p, "pwrite:", 7)) {
		const char *q = p + 7;
		long n;

		cr_assert_eq(ps_hex_parse_u64(&q, end, &fd), 0);
		cr_assert_eq(rsp_expect(&q, end, ','), 0);
		cr_assert_eq(ps_hex_parse_u64(&q, end, &a), 0);
		cr_assert_eq(rsp_expect(&q, end, ','), 0);
		cr_assert_eq(a, m->file.len, "writes come in order");
		/* In place: the packet buffer is ours until the next read.  */
		n = rsp_unescape((char *) q, q, (size_t) (end - q));
		cr_assert_geq(n, 0);
		ps_buf_append(&m->file, q, (size_t) n);
		return ps_buf_printf(r, "F%lx", n);
	}
	if (!strncmp(p, "pread:", 6)) {
		const char *q = p + 6;
		size_t taken, avail, room;

		cr_assert_eq(ps_hex_parse_u64(&q, end, &fd), 0);
		cr_assert_eq(rsp_expect(&q, end, ','), 0);
		cr_assert_eq(rsp_parse_addr_len(&q, end, &b, &a), 0);
		/* b is the count, a the offset: "pread:FD,COUNT,OFFSET".  */
		avail = a < m->file.len ? m->file.len - (size_t) a : 0;
		if (avail > b)
			avail = (size_t) b;
		/* Reply with as much as fits one packet GDB accepts.  */
		room = mini_packet_size - 16;
		ps_buf_puts(r, "F00000000;");
		taken = rsp_escape(r, m->file.data + a, avail, room);
		{
			char head[16];

			snprintf(head, sizeof(head), "F%08zx", taken);
			memcpy(r->data, head, 9);
		}
		return 0;
	}
	return 0;
}

/* "Run" until GDB interrupts: GDB gets a real SIGINT, as from Ctrl-C,
   and must turn it into the 0x03 byte that stops the fake thread.  */
static int mini_run(struct mini_stub *m)
{
	struct pollfd pfd = { .fd = rsp_conn_poll_fd(&m->conn),
			      .events = POLLIN };
	int r;

	kill(m->gdb_pid, SIGINT);
	for (int waited = 0; waited < 100; waited++) {
		r = rsp_conn_check_interrupt(&m->conn);
		if (r < 0)
			return r;
		if (r == 1) {
			m->interrupts++;
			return rsp_send_str(&m->conn, "T02thread:1;");
		}
		poll(&pfd, 1, 100);
	}
	cr_assert_fail("no interrupt from GDB");
	return -1;
}

static int mini_serve_one(struct mini_stub *m, const struct ps_buf *pkt)
{
	const char *p = pkt->data, *end = pkt->data + pkt->len;
	struct ps_buf *r = &m->reply;
	int err;

	ps_buf_reset(r);
	if (!strncmp(p, "qSupported", 10)) {
		ps_buf_printf(r, "PacketSize=%x", mini_packet_size);
		if (m->noack_offered)
			ps_buf_puts(r, ";QStartNoAckMode+");
	} else if (!strcmp(p, "QStartNoAckMode")) {
		err = rsp_send_str(&m->conn, "OK");
		rsp_conn_set_noack(&m->conn, 1);
		return err;
	} else if (!strcmp(p, "?")) {
		ps_buf_puts(r, m->running ? "T05thread:1;" : "W00");
	} else if (m->running && !strcmp(p, "g")) {
		/* Without a file GDB assumes i386: 64 bytes are eax..gs,
		   and GDB takes the rest as unavailable.  */
		for (int i = 0; i < 64; i++)
			ps_buf_puts(r, "00");
	} else if (m->running && p[0] == 'm') {
		ps_buf_puts(r, "E01");
	} else if (m->running && p[0] == 'T') {
		ps_buf_puts(r, "OK");
	} else if (m->running && !strcmp(p, "qfThreadInfo")) {
		ps_buf_puts(r, "m1");
	} else if (m->running && !strcmp(p, "qsThreadInfo")) {
		ps_buf_puts(r, "l");
	} else if (m->running && (!strcmp(p, "c") || !strcmp(p, "vCont;c"))) {
		return mini_run(m);
	} else if (!strcmp(p, "!")) {
		ps_buf_puts(r, "OK");
	} else if (!strncmp(p, "qRcmd,", 6)) {
		struct ps_buf cmd, out;

		p += 6;
		ps_buf_init(&cmd);
		ps_buf_init(&out);
		cr_assert_gt(rsp_parse_hex_string(&p, end, &cmd), 0);
		cr_assert_eq(rsp_expect_end(p, end), 0);
		m->monitor_seen = !strcmp(cmd.data, "hello $#*} stub");
		ps_buf_puts(&out, "O");
		ps_buf_put_hex(&out, "stub says: ", 11);
		ps_buf_put_hex(&out, cmd.data, cmd.len);
		ps_buf_put_hex(&out, "\n", 1);
		err = rsp_send_packet(&m->conn, out.data, out.len);
		ps_buf_fini(&cmd);
		ps_buf_fini(&out);
		if (err < 0)
			return err;
		ps_buf_puts(r, "OK");
	} else if (!strncmp(p, "vFile:", 6)) {
		mini_vfile(m, p + 6, end);
	} else if (!strncmp(p, "vKill", 5) || p[0] == 'D' || p[0] == 'H') {
		ps_buf_puts(r, "OK");
	}
	return rsp_send_packet(&m->conn, r->data, r->len);
}

static char *write_temp(const char *tmpl, const void *data, size_t len)
{
	char *path = strdup(tmpl);
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, data, len), (ssize_t) len);
	close(fd);
	return path;
}

static const char *find_gdb(void)
{
	const char *gdb = getenv("GDB");

	if (!gdb || !*gdb || !strcmp(gdb, "no"))
		gdb = "/usr/bin/gdb";
	if (access(gdb, X_OK) != 0) {
		fprintf(stderr, "SKIP: no gdb at %s\n", gdb);
		cr_skip_test("no gdb at %s", gdb);
	}
	return gdb;
}

/* Run GDB in batch mode on "target TARGET 127.0.0.1:PORT" then BODY,
   serve it with M until it hangs up, and return its output in LOG.  */
static void gdb_session(struct mini_stub *m, const char *target,
			const char *body, char *log, size_t logcap)
{
	const char *gdb = find_gdb();
	struct rsp_listener l;
	struct ps_buf pkt, script;
	struct pollfd pfd;
	char *cmds;
	int fd, status, r, logfd;
	ssize_t loglen;
	pid_t pid;

	rsp_listen_init(&l);
	cr_assert_eq(rsp_listen_open(&l, ":0"), 0);
	ps_buf_init(&script);
	ps_buf_printf(&script, "set confirm off\ntarget %s 127.0.0.1:%d\n%s",
		      target, rsp_listen_port(&l), body);
	cmds = write_temp("/tmp/rsp_gdb_cmdXXXXXX", script.data, script.len);
	logfd = fileno(tmpfile());
	cr_assert_geq(logfd, 0);

	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(logfd, 1);
		dup2(logfd, 2);
		execl(gdb, "gdb", "-nx", "-batch", "-x", cmds, (char *) NULL);
		_exit(127);
	}

	pfd = (struct pollfd) { .fd = l.fd, .events = POLLIN };
	cr_assert_eq(poll(&pfd, 1, 15000), 1, "gdb did not connect");
	cr_assert_eq(rsp_listen_accept(&l, &fd, NULL, 0, NULL), 0);
	cr_assert_eq(rsp_conn_init(&m->conn, fd, fd), 0);
	m->gdb_pid = pid;
	ps_buf_init(&pkt);
	while ((r = rsp_read_packet(&m->conn, &pkt)) >= 0) {
		if (r == RSP_INTERRUPT)
			continue;
		if (!m->conn.noack)
			m->acked_packets++;
		cr_assert_eq(mini_serve_one(m, &pkt), 0);
	}
	cr_assert_eq(r, -pse_eof, "%s", ps_errstr(r));
	cr_assert_eq(waitpid(pid, &status, 0), pid);

	lseek(logfd, 0, SEEK_SET);
	loglen = read(logfd, log, logcap - 1);
	log[loglen > 0 ? loglen : 0] = '\0';
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", log);

	unlink(cmds);
	free(cmds);
	ps_buf_fini(&script);
	ps_buf_fini(&pkt);
	rsp_conn_fini(&m->conn);
	close(fd);
	close(logfd);
	rsp_listen_fini(&l);
}

static void mini_init(struct mini_stub *m)
{
	memset(m, 0, sizeof(*m));
	ps_buf_init(&m->reply);
	ps_buf_init(&m->file);
	ps_buf_init(&m->name);
}

static void mini_fini(struct mini_stub *m)
{
	ps_buf_fini(&m->reply);
	ps_buf_fini(&m->file);
	ps_buf_fini(&m->name);
}

/* A monitor command and a binary file moved both ways through vFile,
   which is where escaping meets the real peer.  */
static void file_session(int offer_noack)
{
	struct mini_stub m;
	struct ps_buf body;
	unsigned char data[5000], back[sizeof(data) + 1];
	char *src, *dst, log[8192];
	int in;

	/* Every byte value, and the four special ones in runs.  */
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = i % 7 == 0 ? "$#}*"[i % 4] : (unsigned char) (i * 131);
	src = write_temp("/tmp/rsp_gdb_srcXXXXXX", data, sizeof(data));
	dst = write_temp("/tmp/rsp_gdb_dstXXXXXX", "", 0);
	ps_buf_init(&body);
	ps_buf_printf(&body,
		      "monitor hello $#*} stub\n"
		      "remote put %s /remote/file\n"
		      "remote get /remote/file %s\n"
		      "disconnect\n", src, dst);

	mini_init(&m);
	m.noack_offered = offer_noack;
	gdb_session(&m, "extended-remote", body.data, log, sizeof(log));

	cr_assert(m.monitor_seen, "%s", log);
	cr_assert_not_null(strstr(log, "stub says: hello $#*} stub\n"), "%s", log);
	cr_assert_eq(m.file.len, sizeof(data), "%s", log);
	cr_assert(!memcmp(m.file.data, data, sizeof(data)));
	cr_assert_str_eq(m.name.data, "/remote/file");
	in = open(dst, O_RDONLY);
	cr_assert_eq(read(in, back, sizeof(back)), (ssize_t) sizeof(data),
		     "%s", log);
	cr_assert(!memcmp(back, data, sizeof(data)));
	close(in);
	/* With no-ack offered only the handshake was acked.  */
	if (offer_noack)
		cr_assert_lt(m.acked_packets, 4, "%d", m.acked_packets);
	else
		cr_assert_gt(m.acked_packets, 10, "%d", m.acked_packets);

	unlink(src);
	unlink(dst);
	free(src);
	free(dst);
	ps_buf_fini(&body);
	mini_fini(&m);
}

/* Real GDB over a real socket, in both ack modes.  */
Test(rsp_listen, real_gdb_file_transfer_noack)
{
	file_session(1);
}

Test(rsp_listen, real_gdb_file_transfer_acks)
{
	file_session(0);
}

/* Ctrl-C: GDB gets SIGINT while "continue" waits and sends 0x03, which
   rsp_conn_check_interrupt must see; the stop reply then reaches GDB.  */
Test(rsp_listen, real_gdb_interrupt)
{
	struct mini_stub m;
	char log[8192];

	mini_init(&m);
	m.running = 1;
	gdb_session(&m, "remote",
		    "continue\n"
		    "disconnect\n", log, sizeof(log));
	cr_assert_eq(m.interrupts, 1, "%s", log);
	cr_assert_not_null(strstr(log, "SIGINT"), "%s", log);
	mini_fini(&m);
}

/* Loopback and stdio reach this machine only; 0.0.0.0 and :: reach
   every interface (ptstub warns).  */
Test(rsp_listen, exposure)
{
	static const struct {
		const char *comm;
		int exposure;
	} cases[] = {
		{ ":0", rsp_exposed_none },
		{ "127.0.0.1:0", rsp_exposed_none },
		{ "0.0.0.0:0", rsp_exposed_all },
		{ "[::1]:0", rsp_exposed_none },
		{ "[::]:0", rsp_exposed_all },
		{ "-", rsp_exposed_none },
	};
	struct rsp_listener l;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rsp_listen_init(&l);
		if (rsp_listen_open(&l, cases[i].comm) < 0) {
			/* No IPv6 here: the IPv6 cases cannot be tried.  */
			cr_assert(strchr(cases[i].comm, '['), "%s: %s",
				  cases[i].comm, rsp_listen_error(&l));
			continue;
		}
		cr_assert_eq(rsp_listen_exposure(&l), cases[i].exposure, "%s",
			     cases[i].comm);
		rsp_listen_fini(&l);
	}
}
