#define _GNU_SOURCE
#include "server/rsp_conn.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* GDB's end is PEER, the stub's end is FD.  SOCK_SEQPACKET keeps each
   write a separate read, which splits packets exactly where a test
   wants them split.  */
struct pair {
	int fd;
	int peer;
	struct rsp_conn conn;
	struct ps_buf pkt;
};

static void pair_open(struct pair *p, int type)
{
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv), 0);
	p->fd = sv[0];
	p->peer = sv[1];
	cr_assert_eq(rsp_conn_init(&p->conn, p->fd, p->fd), 0);
	ps_buf_init(&p->pkt);
}

static void pair_close(struct pair *p)
{
	rsp_conn_fini(&p->conn);
	ps_buf_fini(&p->pkt);
	if (p->peer >= 0)
		close(p->peer);
	close(p->fd);
}

static void put_n(int fd, const void *data, size_t len)
{
	const char *s = data;

	while (len) {
		ssize_t n = write(fd, s, len);

		cr_assert_gt(n, 0, "write: %s", strerror(errno));
		s += n;
		len -= (size_t) n;
	}
}

static void put(struct pair *p, const char *text)
{
	put_n(p->peer, text, strlen(text));
}

/* "$PAYLOAD#xx" with the right checksum.  */
static char *frame(const char *payload)
{
	char *f;

	cr_assert_gt(asprintf(&f, "$%s#%02x", payload,
			      ps_checksum(payload, strlen(payload))), 0);
	return f;
}

static void put_packet(struct pair *p, const char *payload)
{
	char *f = frame(payload);

	put(p, f);
	free(f);
}

/* Everything the stub wrote that GDB has not read yet.  */
static size_t drain(int fd, char *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		ssize_t n = recv(fd, buf + got, cap - got, MSG_DONTWAIT);

		if (n <= 0)
			break;
		got += (size_t) n;
	}
	buf[got < cap ? got : cap - 1] = '\0';
	return got;
}

static void expect_peer(struct pair *p, const char *want)
{
	char got[4096];

	drain(p->peer, got, sizeof(got));
	cr_assert_str_eq(got, want);
}

static void expect_packet(struct pair *p, const char *payload)
{
	cr_assert_eq(rsp_read_packet(&p->conn, &p->pkt), 0);
	cr_assert_eq(p->pkt.len, strlen(payload));
	cr_assert_str_eq(p->pkt.data, payload);
}

TestSuite(rsp_conn, .timeout = 20);

Test(rsp_conn, init_rejects_bad_fds)
{
	struct rsp_conn c;

	cr_assert_eq(rsp_conn_init(&c, -1, 1), -pse_invalid);
	cr_assert_eq(rsp_conn_init(&c, 0, -1), -pse_invalid);
	cr_assert_eq(rsp_conn_init(&c, 3, 4), 0);
	cr_assert_eq(rsp_conn_poll_fd(&c), 3);
	rsp_conn_fini(&c);
}

Test(rsp_conn, read_acks_a_packet)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put_packet(&p, "qSupported:multiprocess+;swbreak+");
	expect_packet(&p, "qSupported:multiprocess+;swbreak+");
	expect_peer(&p, "+");
	/* The fds stay open after fini: the caller owns them.  */
	rsp_conn_fini(&p.conn);
	cr_assert_neq(fcntl(p.fd, F_GETFD), -1);
	rsp_conn_init(&p.conn, p.fd, p.fd);
	pair_close(&p);
}

Test(rsp_conn, empty_packet)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "$#00");
	expect_packet(&p, "");
	expect_peer(&p, "+");
	pair_close(&p);
}

Test(rsp_conn, split_at_every_byte)
{
	struct pair p;
	char *f = frame("m7ffff7dd0000,40");
	size_t len = strlen(f);

	pair_open(&p, SOCK_SEQPACKET);
	for (size_t k = 1; k < len; k++) {
		put_n(p.peer, f, k);
		put_n(p.peer, f + k, len - k);
		expect_packet(&p, "m7ffff7dd0000,40");
		cr_assert_eq(p.conn.in_pos, p.conn.in_len, "split %zu", k);
		expect_peer(&p, "+");
	}
	for (size_t k = 0; k < len; k++)
		put_n(p.peer, f + k, 1);
	expect_packet(&p, "m7ffff7dd0000,40");
	free(f);
	pair_close(&p);
}

Test(rsp_conn, two_packets_in_one_read)
{
	struct pair p;

	pair_open(&p, SOCK_SEQPACKET);
	put(&p, "$qC#b4$g#67");
	expect_packet(&p, "qC");
	expect_packet(&p, "g");
	expect_peer(&p, "++");
	pair_close(&p);
}

Test(rsp_conn, bad_checksum_naks_then_takes_the_resend)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "$qC#00");
	put(&p, "$qC#zz");
	put(&p, "$qC#B4");
	expect_packet(&p, "qC");
	expect_peer(&p, "--+");
	pair_close(&p);
}

Test(rsp_conn, stray_bytes_between_packets)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "++-x\r\n#00");
	put_packet(&p, "qC");
	expect_packet(&p, "qC");
	expect_peer(&p, "+");
	pair_close(&p);
}

/* A '$' inside a packet means the earlier one was cut short.  */
Test(rsp_conn, dollar_restarts_a_packet)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "$m10,");
	put_packet(&p, "qC");
	expect_packet(&p, "qC");
	expect_peer(&p, "+");
	pair_close(&p);
}

Test(rsp_conn, interrupt_between_packets)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "\x03");
	put_packet(&p, "qC");
	cr_assert_eq(rsp_read_packet(&p.conn, &p.pkt), RSP_INTERRUPT);
	expect_packet(&p, "qC");
	expect_peer(&p, "+");
	pair_close(&p);
}

/* Inside a packet 0x03 is data (X packets carry raw bytes).  */
Test(rsp_conn, ctrl_c_inside_a_packet_is_data)
{
	struct pair p;
	const char payload[] = "X10,1:\x03";

	pair_open(&p, SOCK_STREAM);
	put_packet(&p, payload);
	expect_packet(&p, payload);
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);
	pair_close(&p);
}

Test(rsp_conn, noack_mode)
{
	struct pair p;
	char got[64];

	pair_open(&p, SOCK_STREAM);
	rsp_conn_set_noack(&p.conn, 1);
	put_packet(&p, "qC");
	expect_packet(&p, "qC");
	/* Taken as it is, as gdbserver does: GDB would not resend.  */
	put(&p, "$qC#00");
	expect_packet(&p, "qC");
	cr_assert_eq(drain(p.peer, got, sizeof(got)), 0);
	/* Sending does not wait for an ack that will not come.  */
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), 0);
	expect_peer(&p, "$OK#9a");
	rsp_conn_set_noack(&p.conn, 0);
	put_packet(&p, "g");
	expect_packet(&p, "g");
	expect_peer(&p, "+");
	pair_close(&p);
}

Test(rsp_conn, send_waits_for_the_ack)
{
	struct pair p;
	const char bin[] = { 'b', 0, '#' ^ 0x20, (char) 0xff };
	char want[16];

	pair_open(&p, SOCK_STREAM);
	put(&p, "+");
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), 0);
	expect_peer(&p, "$OK#9a");
	cr_assert_eq(p.conn.in_pos, p.conn.in_len);

	put(&p, "+");
	cr_assert_eq(rsp_send_packet(&p.conn, bin, sizeof(bin)), 0);
	cr_assert_eq(drain(p.peer, want, sizeof(want)), sizeof(bin) + 4);
	cr_assert(!memcmp(want + 1, bin, sizeof(bin)));
	cr_assert_eq(want[0], '$');
	cr_assert_eq(want[5], '#');
	cr_assert_eq(ps_hex_digit(want[6]) << 4 | ps_hex_digit(want[7]),
		     ps_checksum(bin, sizeof(bin)));
	pair_close(&p);
}

Test(rsp_conn, send_resends_on_nak)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "-x-+");
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), 0);
	expect_peer(&p, "$OK#9a$OK#9a$OK#9a");
	pair_close(&p);
}

Test(rsp_conn, send_gives_up_after_too_many_naks)
{
	struct pair p;
	char naks[RSP_MAX_RESEND + 2] = { 0 };
	char got[1024];

	memset(naks, '-', RSP_MAX_RESEND + 1);
	pair_open(&p, SOCK_STREAM);
	put(&p, naks);
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), -pse_checksum);
	cr_assert_eq(drain(p.peer, got, sizeof(got)), 6 * (RSP_MAX_RESEND + 1));
	pair_close(&p);
}

Test(rsp_conn, interrupt_while_waiting_for_ack_is_kept)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "\x03+");
	cr_assert_eq(rsp_send_str(&p.conn, "T05"), 0);
	put_packet(&p, "qC");
	cr_assert_eq(rsp_read_packet(&p.conn, &p.pkt), RSP_INTERRUPT);
	expect_packet(&p, "qC");
	pair_close(&p);
}

Test(rsp_conn, interrupt_while_waiting_for_ack_seen_by_check)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put(&p, "\x03+");
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), 0);
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 1);
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);
	put_packet(&p, "qC");
	expect_packet(&p, "qC");
	pair_close(&p);
}

Test(rsp_conn, new_packet_instead_of_ack)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	put_packet(&p, "qC");
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), 0);
	expect_packet(&p, "qC");
	expect_peer(&p, "$OK#9a+");
	pair_close(&p);
}

Test(rsp_conn, oversized_packet_is_discarded)
{
	struct pair p;
	char big[64];

	pair_open(&p, SOCK_STREAM);
	p.conn.max_payload = 16;
	memset(big, 'a', 17);
	big[17] = '\0';
	put_packet(&p, big);
	big[16] = '\0';
	put_packet(&p, big);
	expect_packet(&p, big);
	expect_peer(&p, "-+");
	pair_close(&p);
}

struct writer {
	int fd;
	const char *data;
	size_t len;
	int delay_ms;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	size_t off = 0;

	if (w->delay_ms)
		poll(NULL, 0, w->delay_ms);
	while (off < w->len) {
		ssize_t n = write(w->fd, w->data + off, w->len - off);

		if (n <= 0)
			break;
		off += (size_t) n;
	}
	return NULL;
}

/* Real sizes: one byte past RSP_MAX_PAYLOAD is refused, the limit is
   accepted, and neither costs more than the limit in memory.  */
Test(rsp_conn, oversized_at_the_real_limit)
{
	struct pair p;
	size_t n = RSP_MAX_PAYLOAD;
	struct ps_buf msg;
	struct writer w;
	pthread_t th;
	char *body = malloc(n + 2);

	cr_assert_not_null(body);
	memset(body, 'z', n + 1);
	body[n + 1] = '\0';
	ps_buf_init(&msg);
	ps_buf_printf(&msg, "$%s#%02x", body, ps_checksum(body, n + 1));
	body[n] = '\0';
	ps_buf_printf(&msg, "$%s#%02x", body, ps_checksum(body, n));

	pair_open(&p, SOCK_STREAM);
	w = (struct writer) { p.peer, msg.data, msg.len, 0 };
	cr_assert_eq(pthread_create(&th, NULL, writer_main, &w), 0);
	cr_assert_eq(rsp_read_packet(&p.conn, &p.pkt), 0);
	pthread_join(th, NULL);
	cr_assert_eq(p.pkt.len, n);
	cr_assert(!memcmp(p.pkt.data, body, n));
	expect_peer(&p, "-+");
	pair_close(&p);
	ps_buf_fini(&msg);
	free(body);
}

Test(rsp_conn, eof)
{
	static const char *cut[] = { "", "$", "$qC", "$qC#", "$qC#b" };

	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		struct pair p;

		pair_open(&p, SOCK_STREAM);
		put(&p, "+");
		put(&p, cut[i]);
		close(p.peer);
		p.peer = -1;
		cr_assert_eq(rsp_read_packet(&p.conn, &p.pkt), -pse_eof,
			     "'%s'", cut[i]);
		cr_assert_eq(rsp_read_packet(&p.conn, &p.pkt), -pse_eof);
		pair_close(&p);
	}
}

Test(rsp_conn, eof_while_waiting_for_ack)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	shutdown(p.peer, SHUT_WR);
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), -pse_eof);
	expect_peer(&p, "$OK#9a");
	pair_close(&p);
}

/* Writing to a closed peer reports EOF; SIGPIPE does not kill us.  */
Test(rsp_conn, send_to_closed_socket)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	close(p.peer);
	p.peer = -1;
	cr_assert_eq(rsp_send_str(&p.conn, "OK"), -pse_eof);
	pair_close(&p);
}

/* The stdio case: two pipes, and a pipe that raises SIGPIPE.  */
Test(rsp_conn, pipes_as_stdin_and_stdout)
{
	struct rsp_conn c;
	struct ps_buf pkt;
	int to_stub[2], from_stub[2];
	char got[16] = { 0 };
	sigset_t pending;

	cr_assert_eq(pipe2(to_stub, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(from_stub, O_CLOEXEC), 0);
	cr_assert_eq(rsp_conn_init(&c, to_stub[0], from_stub[1]), 0);
	ps_buf_init(&pkt);
	put_n(to_stub[1], "$qC#b4+", 7);
	cr_assert_eq(rsp_read_packet(&c, &pkt), 0);
	cr_assert_str_eq(pkt.data, "qC");
	cr_assert_eq(rsp_send_str(&c, "QC1"), 0);
	cr_assert_eq(read(from_stub[0], got, sizeof(got) - 1), 8);
	cr_assert_str_eq(got, "+$QC1#c5");

	close(from_stub[0]);
	cr_assert_eq(rsp_send_str(&c, "OK"), -pse_eof);
	sigpending(&pending);
	cr_assert(!sigismember(&pending, SIGPIPE));

	rsp_conn_fini(&c);
	ps_buf_fini(&pkt);
	close(to_stub[0]);
	close(to_stub[1]);
	close(from_stub[1]);
}

Test(rsp_conn, check_interrupt)
{
	struct pair p;

	pair_open(&p, SOCK_STREAM);
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);
	put(&p, "+\x03");
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 1);
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);

	/* A packet that starts arriving is kept for the reader.  */
	put(&p, "$qC");
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);
	put(&p, "#b4");
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);
	expect_packet(&p, "qC");

	put(&p, "\x03$g#67");
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 1);
	expect_packet(&p, "g");
	expect_peer(&p, "++");

	close(p.peer);
	p.peer = -1;
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), -pse_eof);
	pair_close(&p);
}

Test(rsp_conn, check_interrupt_on_a_full_buffer)
{
	struct pair p;
	char *big = malloc(sizeof(p.conn.in) + 100);

	pair_open(&p, SOCK_STREAM);
	memset(big, 'a', sizeof(p.conn.in) + 99);
	big[sizeof(p.conn.in) + 99] = '\0';
	put(&p, "$");
	put(&p, big);
	/* Cannot see past a half-read packet, must not block either.  */
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);
	cr_assert_eq(rsp_conn_check_interrupt(&p.conn), 0);
	{
		char tail[4];

		snprintf(tail, sizeof(tail), "#%02x",
			 ps_checksum(big, strlen(big)));
		put(&p, tail);
	}
	cr_assert_eq(rsp_read_packet(&p.conn, &p.pkt), 0);
	cr_assert_eq(p.pkt.len, strlen(big));
	expect_peer(&p, "+");
	free(big);
	pair_close(&p);
}

/* A simple generator, so that a failure can be replayed.  */
static unsigned next_rand(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 16;
}

/* Garbage of any kind is survived.  "###" after it brings the parser
   back between packets from any state (body, either checksum digit)
   without a valid checksum, so the real packet that follows must be
   read: no resend is needed and a hang is a failure.  */
Test(rsp_conn, garbage_never_hangs_or_crashes)
{
	static const char alphabet[] = "$#}*+-\x03" "0123456789abcdefq\0\xff";
	struct pair p;
	unsigned seed = 12345;
	char sink[65536];

	pair_open(&p, SOCK_STREAM);
	for (int round = 0; round < 300; round++) {
		char junk[48];
		size_t n = next_rand(&seed) % sizeof(junk);
		int r, others = 0;

		for (size_t i = 0; i < n; i++)
			junk[i] = alphabet[next_rand(&seed) %
					   (sizeof(alphabet) - 1)];
		put_n(p.peer, junk, n);
		put(&p, "###");
		put_packet(&p, "qReal");
		for (;;) {
			r = rsp_read_packet(&p.conn, &p.pkt);
			cr_assert_geq(r, 0, "round %d: %d", round, r);
			if (r == 0 && !strcmp(p.pkt.data, "qReal"))
				break;
			cr_assert_lt(others++, 50, "round %d", round);
		}
		cr_assert_eq(p.conn.in_pos, p.conn.in_len, "round %d", round);
		drain(p.peer, sink, sizeof(sink));
	}
	pair_close(&p);
}

struct reader {
	int fd;
	char *buf;
	size_t cap;
	size_t got;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	ssize_t k;

	while (r->got < r->cap &&
	       (k = read(r->fd, r->buf + r->got, r->cap - r->got)) > 0)
		r->got += (size_t) k;
	return NULL;
}

/* Non-blocking fds: reads wait in poll, writes finish partial sends.  */
Test(rsp_conn, nonblocking_fd)
{
	struct pair p;
	struct writer w;
	struct reader r;
	pthread_t th;
	size_t n = 1 << 20, got;
	char *payload = malloc(n + 1), *frame_in = malloc(n + 8);

	pair_open(&p, SOCK_STREAM);
	cr_assert_eq(fcntl(p.fd, F_SETFL, O_NONBLOCK), 0);
	w = (struct writer) { p.peer, "$qC#b4", 6, 50 };
	cr_assert_eq(pthread_create(&th, NULL, writer_main, &w), 0);
	expect_packet(&p, "qC");
	pthread_join(th, NULL);
	expect_peer(&p, "+");

	memset(payload, 'q', n);
	payload[n] = '\0';
	rsp_conn_set_noack(&p.conn, 1);
	/* The stub writes 1 MiB while the test reads it afterwards, so a
	   thread has to drain the other end.  */
	r = (struct reader) { p.peer, frame_in, n + 8, 0 };
	cr_assert_eq(pthread_create(&th, NULL, reader_main, &r), 0);
	cr_assert_eq(rsp_send_packet(&p.conn, payload, n), 0);
	shutdown(p.fd, SHUT_WR);
	pthread_join(th, NULL);
	got = r.got;
	cr_assert_eq(got, n + 4);
	cr_assert_eq(frame_in[0], '$');
	cr_assert(!memcmp(frame_in + 1, payload, n));
	cr_assert_eq(frame_in[n + 1], '#');
	free(payload);
	free(frame_in);
	pair_close(&p);
}

static void on_alarm(int sig)
{
	(void) sig;
}

/* A signal that interrupts the blocking read (no SA_RESTART) must not
   end the read: the packet that comes later is still returned.  */
Test(rsp_conn, read_survives_eintr)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 20000 } };
	sigset_t alrm, old;
	struct pair p;
	struct writer w;
	pthread_t th;

	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	cr_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
	pair_open(&p, SOCK_STREAM);
	/* Only this thread may take the signal.  */
	pthread_sigmask(SIG_BLOCK, &alrm, &old);
	w = (struct writer) { p.peer, "$qC#b4", 6, 150 };
	cr_assert_eq(pthread_create(&th, NULL, writer_main, &w), 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	cr_assert_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	expect_packet(&p, "qC");
	pthread_join(th, NULL);
	pair_close(&p);
}

Test(rsp_conn, debug_log)
{
	struct pair p;
	char *log = NULL;
	size_t loglen = 0;
	FILE *f = open_memstream(&log, &loglen);
	char *want;

	cr_assert_not_null(f);
	pair_open(&p, SOCK_STREAM);
	rsp_conn_set_debug(&p.conn, f);
	put_packet(&p, "qC");
	expect_packet(&p, "qC");
	put(&p, "+");
	cr_assert_eq(rsp_send_str(&p.conn, "QC1"), 0);
	rsp_conn_set_debug(&p.conn, NULL);
	put_packet(&p, "g");
	expect_packet(&p, "g");
	fclose(f);

	cr_assert_not_null(strstr(log, "getpkt (\"qC\");  [sending ack]\n"),
			   "%s", log);
	cr_assert_gt(asprintf(&want, "putpkt (\"$QC1#%02x\"); [looking for ack]\n",
			      ps_checksum("QC1", 3)), 0);
	cr_assert_not_null(strstr(log, want), "%s", log);
	cr_assert_not_null(strstr(log, "[received '+' (0x2b)]"), "%s", log);
	cr_assert_null(strstr(log, "(\"g\")"), "%s", log);
	free(want);
	free(log);
	pair_close(&p);
}
