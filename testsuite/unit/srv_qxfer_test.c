/* server/srv_qxfer.c: qXfer objects read in chunks and reassembled as GDB
   does, compared with what /proc says; siginfo write; bad requests.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include <signal.h>

TestSuite(srv_qxfer, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* Read OBJECT/ANNEX CHUNK bytes at a time into OUT (SIZE bytes); each
   reply is 'm' or 'l' and escaped data of at most CHUNK bytes.  Returns
   the length.  */
static size_t xfer(const char *object, const char *annex, unsigned chunk,
		   char *out, size_t size)
{
	size_t len = 0;

	for (int i = 0; i < 100000; i++) {
		const char *r = srv_fx_reqf("qXfer:%s:read:%s:%zx,%x", object,
					    annex, len, chunk);
		size_t rlen = fx.len;
		long n;

		cr_assert(rlen >= 1 && (r[0] == 'm' || r[0] == 'l'),
			  "qXfer:%s:read:%s at %zx gave %s", object, annex, len, r);
		cr_assert_leq(rlen - 1, chunk, "reply longer than asked");
		cr_assert_lt(len + rlen, size);
		n = rsp_unescape(out + len, r + 1, rlen - 1);
		cr_assert_geq(n, 0, "bad escape in %s", r);
		if (r[0] == 'm')
			cr_assert_gt(n, 0, "an empty 'm' chunk never ends");
		len += (size_t) n;
		out[len] = '\0';
		if (r[0] == 'l')
			return len;
	}
	cr_assert_fail("qXfer:%s never ended", object);
	return 0;
}

/* Trailing white space aside, whether TEXT ends with SUFFIX.  */
static int ends_with(const char *text, const char *suffix)
{
	size_t n = strlen(text), m = strlen(suffix);

	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		n--;
	return n >= m && !memcmp(text + n - m, suffix, m);
}

/* Every '<' closed by a '>', no stray '>', balanced quotes in tags.  */
static int tags_balanced(const char *text)
{
	int in_tag = 0, in_quote = 0;

	for (const char *p = text; *p; p++) {
		if (in_quote) {
			in_quote = *p != '"';
			continue;
		}
		if (*p == '<') {
			if (in_tag)
				return 0;
			in_tag = 1;
		} else if (*p == '>') {
			if (!in_tag)
				return 0;
			in_tag = 0;
		} else if (*p == '"' && in_tag) {
			in_quote = 1;
		}
	}
	return !in_tag && !in_quote;
}

static char doc[1 << 20], doc2[1 << 20];

Test(srv_qxfer, target_xml_in_small_chunks)
{
	size_t n, n2;

	srv_fx_start("exit", "0");
	n = xfer("features", "target.xml", 0x1d, doc, sizeof(doc));
	cr_assert_eq(strlen(doc), n, "no NUL in an XML document");
	cr_assert(!strncmp(doc, "<?xml", 5), "%s", doc);
	cr_assert_not_null(strstr(doc, "<target"), "%s", doc);
	cr_assert(ends_with(doc, "</target>"), "%s", doc);
	cr_assert(tags_balanced(doc), "%s", doc);
	cr_assert_not_null(strstr(doc, "i386:x86-64"), "%s", doc);
	/* The same document in one piece.  */
	n2 = xfer("features", "target.xml", 0x10000, doc2, sizeof(doc2));
	cr_assert_eq(n, n2);
	cr_assert_str_eq(doc, doc2);
	/* And in pieces of one byte.  */
	n2 = xfer("features", "target.xml", 1, doc2, sizeof(doc2));
	cr_assert_str_eq(doc, doc2);
}

Test(srv_qxfer, target_xml_includes_are_readable)
{
	char href[256];
	int count = 0;

	srv_fx_start("exit", "0");
	xfer("features", "target.xml", 0x400, doc, sizeof(doc));
	for (const char *p = strstr(doc, "href=\""); p; p = strstr(p + 1, "href=\"")) {
		const char *q = strchr(p + 6, '"');

		cr_assert_not_null(q);
		snprintf(href, sizeof(href), "%.*s", (int) (q - p - 6), p + 6);
		xfer("features", href, 0x333, doc2, sizeof(doc2));
		cr_assert_not_null(strstr(doc2, "<feature"), "%s: %s", href, doc2);
		cr_assert(ends_with(doc2, "</feature>"), "%s: %s", href, doc2);
		cr_assert(tags_balanced(doc2), "%s", href);
		count++;
	}
	/* A document without includes must then hold the registers.  */
	if (!count)
		cr_assert_not_null(strstr(doc, "<reg "), "%s", doc);
}

Test(srv_qxfer, offsets_at_and_past_the_end)
{
	char pkt[128];
	size_t n;

	srv_fx_start("exit", "0");
	n = xfer("features", "target.xml", 0x1000, doc, sizeof(doc));
	snprintf(pkt, sizeof(pkt), "qXfer:features:read:target.xml:%zx,100", n);
	cr_assert_str_eq(srv_fx_req(pkt), "l");
	snprintf(pkt, sizeof(pkt), "qXfer:features:read:target.xml:%zx,100", n + 1);
	cr_assert(srv_fx_is_error(srv_fx_req(pkt)));
}

Test(srv_qxfer, features_bad_requests)
{
	static const char *const bad[] = {
		"qXfer:features:read:nonesuch.xml:0,100",
		"qXfer:features:read:target.xml",
		"qXfer:features:read:target.xml:0",
		"qXfer:features:read:target.xml:zz,40",
		"qXfer:features:read:target.xml:0,zz",
		"qXfer:features:read:target.xml:0,40x",
		"qXfer:features:read:target.xml:10000000,40",
	};

	srv_fx_start("exit", "0");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert(srv_fx_is_error(srv_fx_req(bad[i])), "%s gave %s",
			  bad[i], srv_fx_req(bad[i]));
}

Test(srv_qxfer, overlong_object_or_annex_is_an_error)
{
	char pkt[1024];

	srv_fx_start("exit", "0");
	snprintf(pkt, sizeof(pkt), "qXfer:%0100d:read::0,10", 0);
	cr_assert(srv_fx_is_error(srv_fx_req(pkt)));
	snprintf(pkt, sizeof(pkt), "qXfer:features:read:%0600d:0,10", 0);
	cr_assert(srv_fx_is_error(srv_fx_req(pkt)));
}

Test(srv_qxfer, unknown_object_is_empty)
{
	srv_fx_start("exit", "0");
	cr_assert_str_eq(srv_fx_req("qXfer:foo:read::0,10"), "");
	cr_assert_str_eq(srv_fx_req("qXfer:fdpic:read::0,10"), "");
	cr_assert_str_eq(srv_fx_req("qXfer:auxv:write::0:00"), "");
	cr_assert_str_eq(srv_fx_req("qXfer:features:frob:target.xml:0,10"), "");
}

Test(srv_qxfer, auxv_matches_proc)
{
	static char raw[8192];
	char path[64];
	ssize_t want;
	size_t n;
	pid_t pid;
	int fd;

	pid = srv_fx_start("exit", "0");
	snprintf(path, sizeof(path), "/proc/%d/auxv", (int) pid);
	fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0);
	want = read(fd, raw, sizeof(raw));
	close(fd);
	cr_assert_gt(want, 0);
	n = xfer("auxv", "", 0x40, doc, sizeof(doc));
	cr_assert_eq(n, (size_t) want);
	cr_assert_eq(memcmp(doc, raw, n), 0);
}

Test(srv_qxfer, exec_file_gives_the_path)
{
	char annex[32];
	pid_t pid;

	pid = srv_fx_start("exit", "0");
	xfer("exec-file", "", 0x1000, doc, sizeof(doc));
	cr_assert_str_eq(doc, fx.prog);
	snprintf(annex, sizeof(annex), "%x", (unsigned) pid);
	xfer("exec-file", annex, 7, doc, sizeof(doc));
	cr_assert_str_eq(doc, fx.prog);
	cr_assert(srv_fx_is_error(srv_fx_req("qXfer:exec-file:read:zz:0,100")));
	cr_assert(srv_fx_is_error(srv_fx_req("qXfer:exec-file:read:7ffffff0:0,100")));
}

Test(srv_qxfer, threads_lists_each_thread)
{
	char want[128], thread[64];
	const char *r;
	pid_t pid;

	srv_fx_supported("multiprocess+;swbreak+");
	pid = srv_fx_start("threads", NULL);
	r = srv_fx_run_to("marker");
	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)));
	xfer("threads", "", 0x55, doc, sizeof(doc));
	cr_assert(!strncmp(doc, "<threads>", 9), "%s", doc);
	cr_assert(ends_with(doc, "</threads>"), "%s", doc);
	cr_assert(tags_balanced(doc), "%s", doc);
	snprintf(want, sizeof(want), "<thread id=\"p%x.%x\"", (unsigned) pid,
		 (unsigned) pid);
	cr_assert_not_null(strstr(doc, want), "%s", doc);
	snprintf(want, sizeof(want), "<thread id=\"%s\"", thread);
	cr_assert_not_null(strstr(doc, want), "%s", doc);
	cr_assert_not_null(strstr(doc, "name=\"nat_prog\""), "%s", doc);
	/* Each stopped thread's handle (its pthread_t, FS's base), a
	   different one each.  */
	{
		const char *h = doc, *first = strstr(doc, " handle=\"");
		int handles = 0;

		cr_assert_not_null(first, "%s", doc);
		while ((h = strstr(h, " handle=\""))) {
			h += 9;
			cr_assert_eq(strspn(h, "0123456789abcdef"), 16, "%s", doc);
			cr_assert_eq(h[16], '"', "%s", doc);
			cr_assert(h == first + 9 || strncmp(h, first + 9, 16),
				  "two threads, one handle: %s", doc);
			handles++;
		}
		cr_assert_geq(handles, 2, "%s", doc);
	}
	/* One element per thread qfThreadInfo lists.  */
	{
		const char *list = srv_fx_req("qfThreadInfo");
		int listed = 1, elements = 0;

		for (const char *p = list; *p; p++)
			listed += *p == ',';
		for (const char *p = doc; (p = strstr(p, "<thread ")); p++)
			elements++;
		cr_assert_eq(elements, listed, "%s vs %s", doc, list);
	}
}

static void read_siginfo(siginfo_t *si)
{
	size_t n = xfer("siginfo", "", 0x1000, doc, sizeof(doc));

	cr_assert_eq(n, sizeof(*si));
	memcpy(si, doc, sizeof(*si));
}

Test(srv_qxfer, siginfo_after_sigusr1)
{
	siginfo_t si;
	const char *r;
	pid_t pid;

	pid = srv_fx_start("signal", NULL);
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T1e", 3), "%s", r);
	read_siginfo(&si);
	cr_assert_eq(si.si_signo, SIGUSR1);
	/* raise() is tgkill: sent by the program itself.  */
	cr_assert_eq(si.si_code, SI_TKILL);
	cr_assert_eq(si.si_pid, pid);
}

Test(srv_qxfer, siginfo_after_sigsegv)
{
	uint8_t zero[8] = { 0 };
	char hex[17], pkt[64];
	siginfo_t si;
	const char *r;

	srv_fx_start("exit", "0");
	/* Jump to address 0.  */
	ps_hex_encode(hex, zero, 8);
	hex[16] = '\0';
	snprintf(pkt, sizeof(pkt), "P10=%s", hex);
	cr_assert_str_eq(srv_fx_req(pkt), "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T0b", 3), "%s", r);
	read_siginfo(&si);
	cr_assert_eq(si.si_signo, SIGSEGV);
	cr_assert_null(si.si_addr);
}

Test(srv_qxfer, siginfo_write_round_trips)
{
	siginfo_t si;
	char pkt[1024];
	size_t n;
	int len;

	srv_fx_start("signal", NULL);
	cr_assert(!strncmp(srv_fx_req("vCont;c"), "T1e", 3));
	read_siginfo(&si);
	si.si_errno = 0x7b;
	len = snprintf(pkt, sizeof(pkt), "qXfer:siginfo:write::0:");
	{
		struct ps_buf esc;

		ps_buf_init(&esc);
		rsp_escape(&esc, &si, sizeof(si), 4 * sizeof(si));
		memcpy(pkt + len, esc.data, esc.len);
		n = (size_t) len + esc.len;
		ps_buf_fini(&esc);
	}
	cr_assert_str_eq(srv_fx_req_len(pkt, n), "80");
	read_siginfo(&si);
	cr_assert_eq(si.si_errno, 0x7b);
	cr_assert_eq(si.si_signo, SIGUSR1);
	/* Part of it, at an offset: si_errno is at 4.  */
	len = snprintf(pkt, sizeof(pkt), "qXfer:siginfo:write::4:");
	memcpy(pkt + len, "\x01\x00\x00\x00", 4);
	cr_assert_str_eq(srv_fx_req_len(pkt, (size_t) len + 4), "4");
	read_siginfo(&si);
	cr_assert_eq(si.si_errno, 1);
}

Test(srv_qxfer, siginfo_write_past_the_end_is_refused)
{
	static char pkt[4096];
	siginfo_t si;
	int len;

	srv_fx_start("signal", NULL);
	cr_assert(!strncmp(srv_fx_req("vCont;c"), "T1e", 3));
	len = snprintf(pkt, sizeof(pkt), "qXfer:siginfo:write::7c:");
	memcpy(pkt + len, "\x01\x02\x03\x04\x05", 5);
	cr_assert(srv_fx_is_error(srv_fx_req_len(pkt, (size_t) len + 5)));
	len = snprintf(pkt, sizeof(pkt), "qXfer:siginfo:write::81:");
	memcpy(pkt + len, "\x01", 1);
	cr_assert(srv_fx_is_error(srv_fx_req_len(pkt, (size_t) len + 1)));
	cr_assert(srv_fx_is_error(srv_fx_req("qXfer:siginfo:write::zz:1")));
	read_siginfo(&si);
	cr_assert_eq(si.si_signo, SIGUSR1);
}

/* More than 128 bytes of data: refused, without overrunning the
   server's buffer.  */
Test(srv_qxfer, siginfo_write_of_too_much_data_is_refused)
{
	static char pkt[4096];
	siginfo_t si;
	int len;

	srv_fx_start("signal", NULL);
	cr_assert(!strncmp(srv_fx_req("vCont;c"), "T1e", 3));
	len = snprintf(pkt, sizeof(pkt), "qXfer:siginfo:write::0:");
	memset(pkt + len, 'A', 250);
	cr_assert(srv_fx_is_error(srv_fx_req_len(pkt, (size_t) len + 250)));
	read_siginfo(&si);
	cr_assert_eq(si.si_signo, SIGUSR1);
}

/* A chunk too small for an escaped byte must still carry that byte:
   GDB takes an 'm' reply without data as an error.  */
Test(srv_qxfer, one_byte_chunk_of_an_escaped_byte)
{
	static const char pkt[] = "qXfer:siginfo:write::4:}]";
	const char *r;

	srv_fx_start("signal", NULL);
	cr_assert(!strncmp(srv_fx_req("vCont;c"), "T1e", 3));
	cr_assert_str_eq(srv_fx_req_len(pkt, sizeof(pkt) - 1), "1");
	r = srv_fx_req("qXfer:siginfo:read::4,1");
	cr_assert_str_eq(r, "m}]", "si_errno's low byte, 0x7d, escaped");
}

Test(srv_qxfer, libraries_at_a_breakpoint)
{
	srv_fx_start("marker", NULL);
	srv_fx_run_to("marker");
	xfer("libraries-svr4", "", 0x200, doc, sizeof(doc));
	cr_assert(!strncmp(doc, "<library-list-svr4", 18), "%s", doc);
	cr_assert_not_null(strstr(doc, "libc.so"), "%s", doc);
	cr_assert(tags_balanced(doc), "%s", doc);
}
