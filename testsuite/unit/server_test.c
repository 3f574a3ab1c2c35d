/* server/server.c: error replies, the selected thread, waiting for a stop
   and the packet loop srv_serve (driven over a socketpair with acks, as
   GDB drives it).  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include <ctype.h>
#include <pthread.h>

TestSuite(server, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* Queue PAYLOAD on the test's end, framed, as GDB would send it.  */
static void client_send(const char *payload)
{
	char frame[4096];
	int n = snprintf(frame, sizeof(frame), "$%s#%02x", payload,
			 ps_checksum(payload, strlen(payload)));

	cr_assert_eq(write(fx.fds[1], frame, (size_t) n), n);
}

static void client_raw(const char *bytes)
{
	cr_assert_eq(write(fx.fds[1], bytes, strlen(bytes)),
		     (ssize_t) strlen(bytes));
}

/* Everything the server wrote, once it is done.  */
static const char *server_output(void)
{
	static char out[65536];
	size_t len = 0;
	ssize_t n;

	fcntl(fx.fds[1], F_SETFL, O_NONBLOCK);
	while (len < sizeof(out) - 1 &&
	       (n = read(fx.fds[1], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t) n;
	out[len] = '\0';
	return out;
}

/* Run srv_serve on everything queued, the client then hanging up.  */
static int serve_all(void)
{
	shutdown(fx.fds[1], SHUT_WR);
	return srv_serve(&fx.srv, &fx.conn);
}

static void with_acks(void)
{
	rsp_conn_set_noack(&fx.conn, 0);
	rsp_conn_set_noack(&fx.peer, 0);
}

Test(server, error_reply_is_capitalised_text)
{
	size_t n;

	cr_assert_eq(srv_error(&fx.srv, -pse_invalid), srv_reply);
	n = fx.srv.reply.len;
	cr_assert_geq(n, 4);
	cr_assert(!strncmp(fx.srv.reply.data, "E.", 2), "%s", fx.srv.reply.data);
	cr_assert(isupper((unsigned char) fx.srv.reply.data[2]), "%s",
		  fx.srv.reply.data);
	cr_assert_eq(fx.srv.reply.data[n - 1], '.');
	/* It replaces whatever a handler had started to write.  */
	ps_buf_puts(&fx.srv.reply, "garbage");
	srv_error_text(&fx.srv, "No such thread.");
	cr_assert_str_eq(fx.srv.reply.data, "E.No such thread.");
}

Test(server, prefix_is_bounded_by_length)
{
	cr_assert(srv_prefix("qSupported:x", 12, "qSupported"));
	cr_assert_not(srv_prefix("qSup", 4, "qSupported"));
	/* LEN, not the NUL, ends the packet.  */
	cr_assert_not(srv_prefix("qSupported", 5, "qSupported"));
	cr_assert(srv_prefix("", 0, ""));
}

Test(server, general_thread_follows_hg)
{
	pid_t pid;

	cr_assert_null(srv_general_process(&fx.srv));
	cr_assert_null(srv_general_thread(&fx.srv));
	pid = srv_fx_start("exit", "0");
	cr_assert_not_null(srv_general_thread(&fx.srv));
	cr_assert_eq(srv_general_thread(&fx.srv)->tid, pid);
	cr_assert_eq(srv_general_process(&fx.srv)->pid, pid);
	/* "any" resolves to the first thread.  */
	cr_assert_str_eq(srv_fx_req("Hg0"), "OK");
	cr_assert_eq(srv_general_thread(&fx.srv)->tid, pid);
	cr_assert_str_eq(srv_fx_req("Hg-1"), "OK");
	cr_assert_eq(srv_general_thread(&fx.srv)->tid, pid);
}

Test(server, wait_and_reply_sends_the_stop)
{
	struct nat_resume all = { -1, -1, nat_resume_cont, 0 };
	const char *r;

	srv_fx_start("exit", "3");
	cr_assert_eq(nat_resume(&fx.target, &all, 1), 0);
	cr_assert_eq(srv_wait_and_reply(&fx.srv), 0);
	cr_assert_not(fx.srv.running);
	r = srv_fx_recv();
	cr_assert_str_eq(r, "W03");
	cr_assert_not(srv_fx_pending());
}

Test(server, wait_and_reply_stops_on_interrupt)
{
	struct nat_resume all = { -1, -1, nat_resume_cont, 0 };
	const char *r;

	srv_fx_start("loop", NULL);
	cr_assert_eq(nat_resume(&fx.target, &all, 1), 0);
	/* GDB's Ctrl-C, already waiting when the wait starts.  */
	client_raw("\x03");
	cr_assert_eq(srv_wait_and_reply(&fx.srv), 0);
	r = srv_fx_recv();
	cr_assert(!strncmp(r, "T02", 3), "interrupt gave %s", r);
}

/* GDB's Ctrl-C or hang-up some time after the wait began.  */
static void *late_client(void *arg)
{
	usleep(100000);
	if (arg)
		cr_assert_eq(write(fx.fds[1], "\x03", 1), 1);
	else
		shutdown(fx.fds[1], SHUT_RDWR);
	return NULL;
}

Test(server, wait_and_reply_stops_on_a_late_interrupt)
{
	struct nat_resume all = { -1, -1, nat_resume_cont, 0 };
	pthread_t t;
	const char *r;

	srv_fx_start("loop", NULL);
	cr_assert_eq(nat_resume(&fx.target, &all, 1), 0);
	cr_assert_eq(pthread_create(&t, NULL, late_client, (void *) 1), 0);
	cr_assert_eq(srv_wait_and_reply(&fx.srv), 0);
	pthread_join(t, NULL);
	r = srv_fx_recv();
	cr_assert(!strncmp(r, "T02", 3), "interrupt gave %s", r);
}

/* The client gone while the program runs: no reply, and the program is
   held stopped for the next client.  */
Test(server, wait_ends_when_the_client_leaves)
{
	struct nat_resume all = { -1, -1, nat_resume_cont, 0 };
	struct nat_thread *thread;
	pthread_t t;
	pid_t pid;

	pid = srv_fx_start("loop", NULL);
	cr_assert_eq(nat_resume(&fx.target, &all, 1), 0);
	cr_assert_eq(pthread_create(&t, NULL, late_client, NULL), 0);
	cr_assert_lt(srv_wait_and_reply(&fx.srv), 0);
	pthread_join(t, NULL);
	cr_assert_not(fx.srv.running);
	thread = nat_find_thread(&fx.target, pid, pid);
	cr_assert_not_null(thread);
	cr_assert_eq(thread->state, nat_thread_stopped);
	cr_assert(srv_fx_alive(pid));
}

Test(server, serve_acks_and_answers_until_eof)
{
	const char *out;
	char want[256];

	with_acks();
	srv_fx_start("exit", "0");
	client_send("vMustReplyEmpty");
	client_raw("+");   /* the ack of its reply */
	client_send("qAttached");
	client_raw("+");
	cr_assert_eq(serve_all(), 0);
	out = server_output();
	snprintf(want, sizeof(want), "+$#00+$0#%02x", ps_checksum("0", 1));
	cr_assert_str_eq(out, want);
}

Test(server, serve_naks_a_bad_checksum_and_goes_on)
{
	const char *out;

	with_acks();
	client_raw("$vMustReplyEmpty#00");
	client_send("vMustReplyEmpty");
	client_raw("+");
	cr_assert_eq(serve_all(), 0);
	out = server_output();
	cr_assert_str_eq(out, "-+$#00");
}

Test(server, serve_naks_an_oversized_packet)
{
	char big[200];

	with_acks();
	fx.conn.max_payload = 64;
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	client_send(big);
	client_send("vMustReplyEmpty");
	client_raw("+");
	cr_assert_eq(serve_all(), 0);
	cr_assert_str_eq(server_output(), "-+$#00");
}

Test(server, serve_resends_a_reply_gdb_rejected)
{
	const char *out;

	with_acks();
	client_send("vMustReplyEmpty");
	client_raw("-+");
	cr_assert_eq(serve_all(), 0);
	out = server_output();
	cr_assert_str_eq(out, "+$#00$#00");
}

Test(server, serve_no_ack_mode_starts_after_ok)
{
	char want[256];
	const char *out;

	with_acks();
	client_send("QStartNoAckMode");
	client_raw("+");   /* the OK is still acked */
	client_send("qAttached");
	cr_assert_eq(serve_all(), 0);
	cr_assert(fx.conn.noack);
	out = server_output();
	/* The QStartNoAckMode itself is acked; the next packet is not.  */
	snprintf(want, sizeof(want), "+$OK#9a$E.No such process.#%02x",
		 ps_checksum("E.No such process.", 18));
	cr_assert_str_eq(out, want);
}

Test(server, serve_turns_errors_into_e_text)
{
	const char *out;

	srv_fx_start("exit", "0");
	client_send("Hgzz");
	cr_assert_eq(serve_all(), 0);
	out = server_output();
	cr_assert(!strncmp(out, "$E.", 3), "Hgzz gave %s", out);
}

Test(server, serve_k_kills_and_ends_without_reply)
{
	pid_t pid = srv_fx_start("loop", NULL);

	client_send("k");
	client_send("vMustReplyEmpty");  /* never read: k ended the session */
	cr_assert_eq(srv_serve(&fx.srv, &fx.conn), 0);
	cr_assert(fx.srv.exit_server);
	cr_assert_null(nat_first_process(&fx.target));
	cr_assert_not(srv_fx_alive(pid));
	cr_assert_str_eq(server_output(), "");
}

Test(server, serve_resume_sends_the_stop_reply)
{
	char want[64];

	srv_fx_start("exit", "5");
	client_send("vCont;c");
	/* Not a hang-up: a client gone while the program runs gets no stop
	   reply.  k ends the plain-remote session instead.  */
	client_send("k");
	cr_assert_eq(srv_serve(&fx.srv, &fx.conn), 0);
	snprintf(want, sizeof(want), "$W05#%02x", ps_checksum("W05", 3));
	cr_assert_str_eq(server_output(), want);
}

/* Split the server's output into the payloads it sent (no acks, as in
   no-ack mode), checking each checksum.  */
static size_t split_packets(const char *out, char payloads[][8192], size_t max)
{
	size_t n = 0;

	while ((out = strchr(out, '$')) && n < max) {
		const char *hash = strchr(out, '#');
		unsigned sum;

		cr_assert_not_null(hash, "unterminated packet");
		snprintf(payloads[n], 8192, "%.*s", (int) (hash - out - 1), out + 1);
		cr_assert_eq(sscanf(hash + 1, "%2x", &sum), 1);
		cr_assert_eq(sum, ps_checksum(out + 1, (size_t) (hash - out - 1)),
			     "checksum of %s", payloads[n]);
		n++;
		out = hash + 3;
	}
	return n;
}

/* What GDB does on "target remote" then "break marker", "continue",
   "kill", queued at once: every packet answered in order.  */
Test(server, serve_a_gdb_like_session)
{
	static char got[16][8192];
	uint64_t marker = srv_fx_sym("marker");
	char pkt[64];
	pid_t pid;
	size_t n;

	with_acks();
	pid = srv_fx_start("marker", NULL);
	client_send("qSupported:multiprocess+;swbreak+;hwbreak+;"
		    "xmlRegisters=i386");
	client_raw("+");
	client_send("QStartNoAckMode");
	client_raw("+");
	client_send("?");
	client_send("Hgp0.0");
	client_send("qXfer:features:read:target.xml:0,ffb");
	snprintf(pkt, sizeof(pkt), "Z0,%llx,1", (unsigned long long) marker);
	client_send(pkt);
	client_send("vCont;c");
	snprintf(pkt, sizeof(pkt), "z0,%llx,1", (unsigned long long) marker);
	client_send(pkt);
	snprintf(pkt, sizeof(pkt), "vKill;%x", (unsigned) pid);
	client_send(pkt);
	client_send("k");
	cr_assert_eq(srv_serve(&fx.srv, &fx.conn), 0);
	n = split_packets(server_output(), got, 16);
	cr_assert_eq(n, 9, "one reply per packet but k, got %zu", n);
	cr_assert(!strncmp(got[0], "PacketSize=", 11), "%s", got[0]);
	cr_assert_str_eq(got[1], "OK");
	cr_assert(!strncmp(got[2], "T05", 3) && strstr(got[2], ";thread:p"),
		  "%s", got[2]);
	cr_assert_str_eq(got[3], "OK");
	cr_assert(got[4][0] == 'm' || got[4][0] == 'l', "%.40s", got[4]);
	cr_assert_not_null(strstr(got[4], "<target"), "%.80s", got[4]);
	cr_assert_str_eq(got[5], "OK");
	cr_assert(!strncmp(got[6], "T05swbreak:;", 12), "%s", got[6]);
	cr_assert_str_eq(got[7], "OK");
	cr_assert_str_eq(got[8], "OK");
	cr_assert_not(srv_fx_alive(pid));
	cr_assert(fx.srv.exit_server);
}

Test(server, new_connection_forgets_negotiation)
{
	srv_fx_supported("multiprocess+;swbreak+;fork-events+");
	cr_assert(fx.srv.multiprocess);
	cr_assert(fx.target.report_fork);
	cr_assert_eq(serve_all(), 0);
	cr_assert_not(fx.srv.multiprocess);
	cr_assert_not(fx.srv.swbreak);
	cr_assert_not(fx.target.report_fork);
}

/* gdbserver's --disable-packet names; "threads" is four of them.  */
Test(server, parse_disable_packet_lists)
{
	unsigned mask = 0;
	const char *bad = NULL;
	size_t n = 0;

	cr_assert_eq(srv_parse_disable("T", &mask, &bad, &n), 0);
	cr_assert_eq(mask, srv_disable_t);
	cr_assert_eq(srv_parse_disable("Tthread,qC", &mask, &bad, &n), 0);
	cr_assert_eq(mask, srv_disable_t | srv_disable_tthread | srv_disable_qc);
	mask = 0;
	cr_assert_eq(srv_parse_disable("threads", &mask, &bad, &n), 0);
	cr_assert_eq(mask, srv_disable_vcont | srv_disable_tthread |
		     srv_disable_qc | srv_disable_qfthreadinfo);
	mask = 0;
	cr_assert_eq(srv_parse_disable("T,qfThreadInfo,bogus", &mask, &bad, &n),
		     -pse_invalid);
	cr_assert_eq(n, 5);
	cr_assert(!strncmp(bad, "bogus", 5));
	cr_assert_eq(mask, 0, "a bad list changes nothing");
	cr_assert_eq(srv_parse_disable("Tt", &mask, &bad, &n), -pse_invalid);
}

/* A disabled packet gets the empty reply, as if never implemented.  */
Test(server, disabled_packets_are_recognised)
{
	fx.opts.disabled = srv_disable_vcont | srv_disable_qfthreadinfo;
	cr_assert(srv_packet_disabled(&fx.srv, "vCont?", 6));
	cr_assert(srv_packet_disabled(&fx.srv, "vCont;c", 7));
	cr_assert(srv_packet_disabled(&fx.srv, "vCtrlC", 6));
	cr_assert(srv_packet_disabled(&fx.srv, "qfThreadInfo", 12));
	cr_assert(srv_packet_disabled(&fx.srv, "qsThreadInfo", 12));
	cr_assert(!srv_packet_disabled(&fx.srv, "qC", 2));
	cr_assert(!srv_packet_disabled(&fx.srv, "vStopped", 8));
	fx.opts.disabled = srv_disable_qc;
	cr_assert(srv_packet_disabled(&fx.srv, "qC", 2));
	cr_assert(!srv_packet_disabled(&fx.srv, "qCRC:0,1", 8));
	cr_assert(!srv_packet_disabled(&fx.srv, "vCont;c", 7));
}
