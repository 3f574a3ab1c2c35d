/* LLDB's queries (server/srv_lldb_query.c) against the native layer's
   test program: qHostInfo, qProcessInfo, qMemoryRegionInfo,
   jThreadsInfo, qShlibInfoAddr, and k answered only for LLDB.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include "server/srv_lldb.h"

#include <string.h>

TestSuite(srv_lldb_query, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* The reply unescaped (JSON).  */
static const char *unescaped(const char *r)
{
	static char out[1 << 16];
	long n;

	cr_assert_lt(fx.len, sizeof(out));
	n = rsp_unescape(out, r, fx.len);
	cr_assert_geq(n, 0);
	out[n] = '\0';
	return out;
}

static void assert_error(const char *r, const char *needle)
{
	char text[256];
	size_t n;

	cr_assert(r && !strncmp(r, "Eff;", 4), "not an error: %s", r ? r : "");
	n = strlen(r + 4) / 2;
	cr_assert_lt(n, sizeof(text));
	cr_assert_eq(ps_hex_decode(text, r + 4, n), 0);
	text[n] = '\0';
	cr_assert(strstr(text, needle), "error '%s' lacks '%s'", text, needle);
}

Test(srv_lldb_query, answers_as_lldb_server)
{
	pid_t pid = srv_fx_start("marker", NULL);
	char want[64];
	const char *r;

	r = srv_fx_req("qHostInfo");
	/* "x86_64-pc-linux-gnu" in hex.  */
	cr_assert(strstr(r, "triple:7838365f36342d70632d6c696e75782d676e75;"),
		  "%s", r);
	r = srv_fx_req("qProcessInfo");
	snprintf(want, sizeof(want), "pid:%x;", (unsigned) pid);
	cr_assert(!strncmp(r, want, strlen(want)), "%s", r);
	cr_assert(strstr(r, "ostype:linux;"), "%s", r);

	r = srv_fx_reqf("qMemoryRegionInfo:%llx",
			(unsigned long long) srv_fx_sym("marker"));
	cr_assert(strstr(r, "permissions:rx;"), "%s", r);
	cr_assert(strstr(r, "name:"), "%s", r);
	r = srv_fx_req("qMemoryRegionInfo:0");
	cr_assert(!strncmp(r, "start:0;size:", 13), "%s", r);
	cr_assert_null(strstr(r, "permissions"), "a hole: %s", r);
	assert_error(srv_fx_req("qMemoryRegionInfo:zz"), "Bad address");

	r = unescaped(srv_fx_req("jThreadsInfo"));
	snprintf(want, sizeof(want), "{\"tid\":%d,\"name\":\"nat_prog\"}",
		 (int) pid);
	cr_assert(strstr(r, want), "%s", r);
	r = srv_fx_req("qShlibInfoAddr");
	cr_assert(r[0] && ps_hex_digit(r[0]) >= 0, "%s", r);
}

Test(srv_lldb_query, no_process)
{
	assert_error(srv_fx_req("qProcessInfo"), "No process");
	assert_error(srv_fx_req("qMemoryRegionInfo:1000"), "No process");
	cr_assert_str_eq(unescaped(srv_fx_req("jThreadsInfo")), "[]");
}

Test(srv_lldb_query, kill_answered_for_lldb_only)
{
	pid_t pid = srv_fx_start("marker", NULL);
	char want[64];

	/* GDB reads no reply to k.  */
	cr_assert_null(srv_fx_req("k"));
	cr_assert_null(nat_first_process(&fx.target));

	pid = srv_fx_start("marker", NULL);
	cr_assert(srv_fx_req("qHostInfo")[0]);
	snprintf(want, sizeof(want), "X09;process:%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("k"), want);
	cr_assert_null(nat_first_process(&fx.target));
}
