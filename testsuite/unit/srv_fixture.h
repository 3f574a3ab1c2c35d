/* A server under test: a nat_target, a struct srv whose connection is
   one end of a socketpair (the test holds the other end and plays GDB),
   and the native-layer test program started through the server.  The
   tests call srv_dispatch as srv_serve would and check the reply; stop
   replies and O packets the server sends itself are read from the
   test's end.  */
#ifndef TESTSUITE_UNIT_SRV_FIXTURE_H
#define TESTSUITE_UNIT_SRV_FIXTURE_H

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "nat/target.h"
#include "server/rsp_conn.h"
#include "server/rsp_escape.h"
#include "server/server.h"
#include "testsuite/unit/elfsym.h"

/* Every test starts a real process: a hung one must not hang make.  */
#define SRV_FX_TIMEOUT 20

struct srv_fx {
	struct nat_target target;
	struct srv_options opts;
	struct srv srv;
	struct rsp_conn conn;   /* the server's end */
	struct rsp_conn peer;   /* the test's end, as GDB */
	int fds[2];
	struct ps_buf pkt;      /* the last packet read on the test's end */
	char prog[4096];
	pid_t pid;              /* the program srv_fx_start started */
	int res;                /* the last srv_dispatch result */
	/* Replies handed to the test are copies, so that one stays valid
	   while the next request reuses the server's buffer.  */
	char *copies[16];
	unsigned next_copy;
	size_t len;             /* the length of the last reply (binary) */
	/* Processes the target no longer owns (detached, or never
	   attached) that teardown must kill: a "loop" left behind would
	   spin on the shared machine forever.  */
	pid_t strays[8];
	unsigned nstrays;
};

static struct srv_fx fx;

static inline void srv_fx_setup(void)
{
	const char *top = getenv("top_builddir");

	memset(&fx, 0, sizeof(fx));
	snprintf(fx.prog, sizeof(fx.prog), "%s/testsuite/unit/progs/nat_prog",
		 top ? top : ".");
	cr_assert_eq(access(fx.prog, X_OK), 0, "no %s", fx.prog);
	cr_assert_eq(nat_target_init(&fx.target), 0);
	/* Exec the program directly: its pid is then the one we forked.  */
	fx.target.start.startup_with_shell = 0;
	cr_assert_eq(srv_init(&fx.srv, &fx.target, &fx.opts), 0);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
				fx.fds), 0);
	cr_assert_eq(rsp_conn_init(&fx.conn, fx.fds[0], fx.fds[0]), 0);
	cr_assert_eq(rsp_conn_init(&fx.peer, fx.fds[1], fx.fds[1]), 0);
	/* One thread plays both sides: acks would deadlock, so run as
	   after QStartNoAckMode (srv_fx_acks turns them back on).  */
	rsp_conn_set_noack(&fx.conn, 1);
	rsp_conn_set_noack(&fx.peer, 1);
	ps_buf_init(&fx.pkt);
	fx.srv.conn = &fx.conn;
}

static inline void srv_fx_teardown(void)
{
	for (unsigned i = 0; i < fx.nstrays; i++) {
		int status;

		kill(fx.strays[i], SIGKILL);
		waitpid(fx.strays[i], &status, 0);
	}
	srv_process_fini(&fx.srv);
	srv_monitor_fini(&fx.srv);
	srv_fini(&fx.srv);
	nat_target_fini(&fx.target);
	rsp_conn_fini(&fx.conn);
	rsp_conn_fini(&fx.peer);
	close(fx.fds[0]);
	close(fx.fds[1]);
	ps_buf_fini(&fx.pkt);
	for (unsigned i = 0; i < sizeof(fx.copies) / sizeof(fx.copies[0]); i++)
		free(fx.copies[i]);
}

static inline const char *srv_fx_keep(const char *data, size_t len)
{
	unsigned slot = fx.next_copy++ % (sizeof(fx.copies) / sizeof(fx.copies[0]));

	free(fx.copies[slot]);
	fx.copies[slot] = malloc(len + 1);
	cr_assert_not_null(fx.copies[slot]);
	if (len)
		memcpy(fx.copies[slot], data, len);
	fx.copies[slot][len] = '\0';
	fx.len = len;
	return fx.copies[slot];
}

/* Start the program in MODE (ARG may be NULL) as ptstub's command line
   would.  */
static inline pid_t srv_fx_start(const char *mode, const char *arg)
{
	char *argv[] = { fx.prog, (char *) mode, (char *) arg, NULL };

	cr_assert_eq(srv_start_program(&fx.srv, argv), 0, "cannot start %s",
		     fx.prog);
	fx.pid = fx.srv.general.pid > 0 ? (pid_t) fx.srv.general.pid : 0;
	cr_assert_gt(fx.pid, 0);
	return fx.pid;
}

/* Have teardown kill and reap PID, whoever owns it then.  */
static inline void srv_fx_stray(pid_t pid)
{
	cr_assert_lt(fx.nstrays, sizeof(fx.strays) / sizeof(fx.strays[0]));
	fx.strays[fx.nstrays++] = pid;
}

/* The next packet the server sent on its own (stop reply, O packet);
   fails the test if none comes within a few seconds.  */
static inline const char *srv_fx_recv(void)
{
	if (fx.peer.in_pos == fx.peer.in_len) {
		struct pollfd pfd = { .fd = fx.fds[1], .events = POLLIN };

		cr_assert_eq(poll(&pfd, 1, 10000), 1, "no packet from the server");
	}
	ps_buf_reset(&fx.pkt);
	cr_assert_eq(rsp_read_packet(&fx.peer, &fx.pkt), 0);
	return srv_fx_keep(fx.pkt.data, fx.pkt.len);
}

/* Whether the server has sent anything not read yet.  */
static inline int srv_fx_pending(void)
{
	struct pollfd pfd = { .fd = fx.fds[1], .events = POLLIN };

	return fx.peer.in_pos < fx.peer.in_len || poll(&pfd, 1, 0) == 1;
}

/* Dispatch LEN bytes of PKT as srv_serve does and return what GDB would
   receive: the reply, an E.text for an error, or for a resume the stop
   reply the server sends.  */
static inline const char *srv_fx_req_len(const char *pkt, size_t len)
{
	ps_buf_reset(&fx.srv.reply);
	fx.res = srv_dispatch(&fx.srv, pkt, len);
	if (fx.res < 0)
		srv_error(&fx.srv, fx.res);
	else if (fx.res == srv_resumed) {
		cr_assert_eq(srv_wait_and_reply(&fx.srv), 0, "no stop after %.*s",
			     (int) len, pkt);
		return srv_fx_recv();
	} else if (fx.res == srv_no_reply)
		return NULL;
	return srv_fx_keep(fx.srv.reply.data, fx.srv.reply.len);
}

static inline const char *srv_fx_req(const char *pkt)
{
	return srv_fx_req_len(pkt, strlen(pkt));
}

/* srv_fx_req with a printf-built packet.  */
__attribute__((format(printf, 1, 2)))
static inline const char *srv_fx_reqf(const char *fmt, ...)
{
	static char pkt[1 << 17];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(pkt, sizeof(pkt), fmt, ap);
	va_end(ap);
	cr_assert(n > 0 && (size_t) n < sizeof(pkt));
	return srv_fx_req_len(pkt, (size_t) n);
}

/* An error reply: "Enn" or "E.text".  */
static inline int srv_fx_is_error(const char *reply)
{
	return reply && reply[0] == 'E' &&
	       (reply[1] == '.' ||
		(ps_hex_digit(reply[1]) >= 0 && ps_hex_digit(reply[2]) >= 0 &&
		 !reply[3]));
}

/* Offer FEATURES in qSupported, as GDB does first.  */
static inline void srv_fx_supported(const char *features)
{
	const char *r = srv_fx_reqf("qSupported:%s", features);

	cr_assert(r && !strncmp(r, "PacketSize=", 11), "qSupported: %s", r);
}

static inline uint64_t srv_fx_sym(const char *name)
{
	uint64_t addr = elfsym_addr(fx.prog, name);

	cr_assert_neq(addr, 0, "no symbol %s in %s", name, fx.prog);
	return addr;
}

/* Read the child's memory behind the server's back, int3s and all.  */
static inline ssize_t srv_fx_raw_read(pid_t pid, uint64_t addr, void *buf,
				      size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int) pid);
	fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));
	n = pread(fd, buf, len, (off_t) addr);
	close(fd);
	return n;
}

static inline uint8_t srv_fx_raw_byte(pid_t pid, uint64_t addr)
{
	uint8_t b = 0;

	cr_assert_eq(srv_fx_raw_read(pid, addr, &b, 1), 1);
	return b;
}

/* Decode up to 8 bytes of target-order (little-endian) hex.  */
static inline uint64_t srv_fx_le(const char *hex, size_t digits)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 0;

	cr_assert(digits % 2 == 0 && digits <= 16, "bad hex length %zu", digits);
	cr_assert_eq(ps_hex_decode(b, hex, digits / 2), 0, "bad hex %.*s",
		     (int) digits, hex);
	for (size_t i = digits / 2; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

/* The value of field NAME ("10", "thread", "core") of stop reply R, as a
   string copied to OUT; 0 if R has no such field.  */
static inline int srv_fx_field(const char *r, const char *name, char *out,
			       size_t size)
{
	size_t n = strlen(name);
	const char *p = r + 3;   /* past "Tss" */

	while (p && *p) {
		const char *colon = strchr(p, ':'), *semi;

		if (!colon)
			return 0;
		semi = strchr(colon, ';');
		if (!semi)
			semi = colon + strlen(colon);
		if ((size_t) (colon - p) == n && !memcmp(p, name, n)) {
			snprintf(out, size, "%.*s", (int) (semi - colon - 1),
				 colon + 1);
			return 1;
		}
		p = *semi ? semi + 1 : NULL;
	}
	return 0;
}

/* Register REGNO as the stop reply R expedites it.  */
static inline uint64_t srv_fx_stop_reg(const char *r, const char *regno)
{
	char value[64];

	cr_assert(srv_fx_field(r, regno, value, sizeof(value)),
		  "no register %s in %s", regno, r);
	return srv_fx_le(value, strlen(value));
}

/* A register through "p REGNO".  */
static inline uint64_t srv_fx_reg(unsigned regno)
{
	const char *r = srv_fx_reqf("p%x", regno);

	cr_assert(r && !srv_fx_is_error(r) && strlen(r) == 16,
		  "p%x: %s", regno, r ? r : "(none)");
	return srv_fx_le(r, 16);
}

/* Plant a Z0 at SYM and continue to it; returns the stop reply.  */
static inline const char *srv_fx_run_to(const char *sym)
{
	const char *r = srv_fx_reqf("Z0,%llx,1",
				    (unsigned long long) srv_fx_sym(sym));

	cr_assert_str_eq(r, "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(r && r[0] == 'T', "stop reply %s", r ? r : "(none)");
	return r;
}

/* Hex-encode TEXT into OUT (room for 2 * strlen + 1).  */
static inline char *srv_fx_hex(char *out, const char *text)
{
	ps_hex_encode(out, text, strlen(text));
	out[2 * strlen(text)] = '\0';
	return out;
}

/* Whether PID still exists (not reaped).  */
static inline int srv_fx_alive(pid_t pid)
{
	return kill(pid, 0) == 0;
}

/* A line of /proc/PID/status such as "TracerPid:", its value.  */
static inline long srv_fx_status_field(pid_t pid, const char *field)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int) pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)))
			v = strtol(line + strlen(field), NULL, 10);
	fclose(f);
	return v;
}

#endif
