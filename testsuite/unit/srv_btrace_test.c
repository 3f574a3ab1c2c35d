#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include "common/ps_hex.h"
#include "nat/btrace.h"

#include <string.h>
#include <sys/stat.h>

/* Every btrace test runs under the emulator: these machines have no PT,
   and it is the one source that gives the same answers everywhere.  */
static void setup(void)
{
	srv_fx_setup();
	fx.target.btrace_policy = nat_btrace_emulated;
	srv_fx_start("marker", NULL);
	srv_fx_supported("multiprocess+;swbreak+");
}

TestSuite(srv_btrace, .init = setup, .fini = srv_fx_teardown);

Test(srv_btrace, qsupported_advertises_btrace)
{
	const char *r = srv_fx_req("qSupported:multiprocess+");

	cr_assert(strstr(r, ";Qbtrace:pt+;"), "%s", r);
	cr_assert(strstr(r, ";Qbtrace:bts+;"), "%s", r);
	cr_assert(strstr(r, ";qXfer:btrace:read+;"), "%s", r);
	cr_assert(strstr(r, ";qXfer:btrace-conf:read+;"), "%s", r);
}

Test(srv_btrace, not_enabled_answers_like_gdbserver)
{
	cr_assert_str_eq(srv_fx_req("qXfer:btrace-conf:read::0,1000"),
			 "E.Btrace not enabled.");
	cr_assert_str_eq(srv_fx_req("qXfer:btrace:read:all:0,1000"),
			 "E.Btrace not enabled.");
	cr_assert_str_eq(srv_fx_req("Qbtrace:off"),
			 "E.Branch tracing not enabled.");
	cr_assert_str_eq(srv_fx_req("Qbtrace:foo"),
			 "E.Bad Qbtrace operation.  Use bts, pt, or off.");
}

Test(srv_btrace, thread_must_be_single)
{
	cr_assert_str_eq(srv_fx_req("Hgp-1.-1"), "OK");
	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"),
			 "E.Must select a single thread.");
}

Test(srv_btrace, sizes_are_hex_and_checked)
{
	cr_assert_str_eq(srv_fx_req("Qbtrace-conf:pt:size=0x2000"), "OK");
	cr_assert_eq(fx.srv.btrace_pt_size, 0x2000);
	cr_assert_str_eq(srv_fx_req("Qbtrace-conf:bts:size=8000"), "OK");
	cr_assert_eq(fx.srv.btrace_bts_size, 0x8000);
	cr_assert_str_eq(srv_fx_req("Qbtrace-conf:pt:size=zz"),
			 "E.Bad size value.");
	cr_assert_str_eq(srv_fx_req("Qbtrace-conf:pt:size=1ffffffff"),
			 "E.Bad size value.");
	cr_assert_eq(fx.srv.btrace_pt_size, 0x2000, "unchanged by bad input");
	cr_assert_str_eq(srv_fx_req("Qbtrace-conf:pt:ptwrite=yes"),
			 "E.Bad Qbtrace configuration option.");
}

Test(srv_btrace, pt_trace_reads_in_chunks)
{
	const char *r;
	char conf[128];
	struct ps_buf doc;
	size_t off = 0;

	cr_assert_str_eq(srv_fx_req("Qbtrace-conf:pt:size=0x4000"), "OK");
	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"), "OK");
	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"), "E.Btrace already enabled.");
	r = srv_fx_req("qXfer:btrace-conf:read::0,1000");
	snprintf(conf, sizeof(conf), "%s", r);
	cr_assert(strstr(conf, "<pt size=\"0x4000\"/>"), "%s", conf);
	cr_assert_eq(conf[0], 'l');

	srv_fx_run_to("marker");
	/* Read the document 64 bytes at a time, as a small PacketSize would.  */
	ps_buf_init(&doc);
	for (;;) {
		r = srv_fx_reqf("qXfer:btrace:read:all:%zx,40", off);
		cr_assert(r[0] == 'm' || r[0] == 'l', "%s", r);
		ps_buf_puts(&doc, r + 1);
		off += strlen(r + 1);
		if (r[0] == 'l')
			break;
	}
	cr_assert(strstr(doc.data, "<btrace version=\"1.0\">"), "%s", doc.data);
	/* Emulated traces name no cpu, and start with a PSB.  */
	cr_assert_null(strstr(doc.data, "<cpu"));
	cr_assert(strstr(doc.data, "<raw>\n02820282"), "%s", doc.data);
	cr_assert(strstr(doc.data, "</btrace>"));
	ps_buf_fini(&doc);

	/* Nothing ran since: "new" has no raw data; PT has no delta.  */
	r = srv_fx_req("qXfer:btrace:read:new:0,1000");
	cr_assert_null(strstr(r, "<raw>"), "%s", r);
	cr_assert_str_eq(srv_fx_req("qXfer:btrace:read:delta:0,1000"),
			 "E.Generic Error.");
	cr_assert_str_eq(srv_fx_req("qXfer:btrace:read:bogus:0,1000"),
			 "E.Bad annex.");
	cr_assert_str_eq(srv_fx_req("qXfer:btrace-conf:read:x:0,1000"), "E01");

	cr_assert_str_eq(srv_fx_req("Qbtrace:off"), "OK");
	cr_assert_str_eq(srv_fx_req("qXfer:btrace:read:all:0,1000"),
			 "E.Btrace not enabled.");
}

Test(srv_btrace, bts_blocks_in_gdb_format)
{
	const char *r;

	cr_assert_str_eq(srv_fx_req("Qbtrace:bts"), "OK");
	srv_fx_run_to("marker");
	r = srv_fx_req("qXfer:btrace:read:all:0,10000");
	cr_assert(strstr(r, "<block begin=\"0x"), "%s", r);
	r = srv_fx_req("qXfer:btrace-conf:read::0,1000");
	/* gdbserver writes this one with a space before the slash.  */
	cr_assert(strstr(r, "<bts size=\"0x10000\" />"), "%s", r);
}

Test(srv_btrace, monitor_status_and_save)
{
	char hex[512], path[] = "/tmp/srv_btrace_testXXXXXX";
	const char *r;
	int fd = mkstemp(path);
	struct stat st;

	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"), "OK");
	srv_fx_run_to("marker");

	r = srv_fx_reqf("qRcmd,%s", srv_fx_hex(hex, "btrace status"));
	cr_assert_str_eq(r, "OK");
	r = srv_fx_recv();
	cr_assert_eq(r[0], 'O');

	snprintf(hex, sizeof(hex), "btrace save %s", path);
	{
		char cmd[512];

		strcpy(cmd, hex);
		r = srv_fx_reqf("qRcmd,%s", srv_fx_hex(hex, cmd));
	}
	cr_assert_str_eq(r, "OK");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_gt(st.st_size, 64, "the bundle holds the trace and the maps");
	unlink(path);
}

/* The program's "threads" mode: three threads run marker.  */
static void setup_threads(void)
{
	srv_fx_setup();
	fx.target.btrace_policy = nat_btrace_emulated;
	fx.target.btrace_engine = nat_btrace_engine_cache;
	srv_fx_start("threads", NULL);
	srv_fx_supported("multiprocess+;swbreak+");
}

/* The text of the console output monitor COMMAND sends.  */
static const char *monitor_text(const char *command, char *text,
				size_t size)
{
	char hex[256];
	const char *r;
	size_t len;

	r = srv_fx_reqf("qRcmd,%s", srv_fx_hex(hex, command));
	cr_assert_str_eq(r, "OK");
	r = srv_fx_recv();
	cr_assert_eq(r[0], 'O');
	len = strlen(r + 1) / 2;
	cr_assert_lt(len, size);
	cr_assert_eq(ps_hex_decode(text, r + 1, len), 0);
	text[len] = '\0';
	return text;
}

/* A thread created while GDB records is traced from its first
   instruction: GDB's Qbtrace:pt for it, at the stop where it learns of
   the thread, keeps that trace (OK, and a trace with the thread's
   start-up in it); a second one is refused as for any traced thread.  */
Test(srv_btrace_threads, new_threads_keep_their_trace,
     .init = setup_threads, .fini = srv_fx_teardown)
{
	char thread[64], hg[80];
	const char *r;

	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"), "OK");
	r = srv_fx_run_to("marker");
	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)), "%s", r);
	snprintf(hg, sizeof(hg), "p%x.%x", (unsigned) fx.pid,
		 (unsigned) fx.pid);
	cr_assert_str_neq(thread, hg, "main reached marker first");
	snprintf(hg, sizeof(hg), "Hg%s", thread);
	cr_assert_str_eq(srv_fx_req(hg), "OK");
	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"), "OK");
	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"), "E.Btrace already enabled.");
	r = srv_fx_req("qXfer:btrace:read:all:0,fff");
	cr_assert(r[0] == 'l' || r[0] == 'm', "%.40s", r);
	cr_assert(strstr(r, "<pt>") || strstr(r, "<raw>"), "%.200s", r);
}

/* monitor btrace status names each thread's engine with what that
   thread recorded (not the process's totals under every thread): the
   main thread and the new one each have their own line, with their own
   counts.  */
Test(srv_btrace_threads, status_per_thread_engine_and_counts,
     .init = setup_threads, .fini = srv_fx_teardown)
{
	char thread[64], line[96], text[8192];
	unsigned long long total[2], cache[2];
	const char *r, *at[2];
	unsigned tid;

	cr_assert_str_eq(srv_fx_req("Qbtrace:pt"), "OK");
	r = srv_fx_run_to("marker");
	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)), "%s", r);
	cr_assert_eq(sscanf(thread, "p%*x.%x", &tid), 1, "%s", thread);
	monitor_text("btrace status", text, sizeof(text));
	snprintf(line, sizeof(line), "Thread %d.%d: engine ", (int) fx.pid,
		 (int) fx.pid);
	at[0] = strstr(text, line);
	snprintf(line, sizeof(line), "Thread %d.%u: engine ", (int) fx.pid,
		 tid);
	at[1] = strstr(text, line);
	for (int i = 0; i < 2; i++) {
		cr_assert_not_null(at[i], "no engine line %d in: %s", i, text);
		cr_assert_eq(sscanf(strchr(at[i], ':'), ": engine code cache, "
				    "%llu instructions recorded: %llu in the "
				    "code cache", &total[i], &cache[i]), 2,
			     "%.300s", at[i]);
		cr_expect_gt(cache[i], 0, "%.300s", at[i]);
		cr_expect_geq(total[i], cache[i]);
	}
	/* Two threads ran different code: their own counts.  */
	cr_expect_neq(total[0], total[1], "%s", text);
}
