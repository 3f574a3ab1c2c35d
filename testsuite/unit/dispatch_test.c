/* server/dispatch.c: which handler a packet reaches; unknown packets get
   the empty reply, and short or malformed ones never crash.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(dispatch, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

Test(dispatch, unknown_packets_get_the_empty_reply)
{
	static const char *const unknown[] = {
		"vMustReplyEmpty", "vFooBar", "jFoo", "qFooBar", "QFooBar:1",
		"vRun", "qCRCfoo", "y", "#",
	};

	srv_fx_start("exit", "0");
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		const char *r = srv_fx_req(unknown[i]);

		cr_assert_eq(fx.res, srv_reply, "%s", unknown[i]);
		cr_assert_str_eq(r, "", "%s gave %s", unknown[i], r);
	}
}

Test(dispatch, empty_packet_gets_the_empty_reply)
{
	cr_assert_str_eq(srv_fx_req_len("", 0), "");
}

Test(dispatch, routes_by_longest_prefix)
{
	char want[64];
	pid_t pid = srv_fx_start("exit", "0");

	/* qC is the thread family; qCRC must not be taken for it.  */
	snprintf(want, sizeof(want), "QC%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("qC"), want);
	cr_assert(strncmp(srv_fx_req("qCRC:0,1"), "QC", 2));
	/* qSupported is not a generic q packet.  */
	cr_assert(!strncmp(srv_fx_req("qSupported"), "PacketSize=", 11));
	snprintf(want, sizeof(want), "m%x", (unsigned) pid);
	cr_assert_str_eq(srv_fx_req("qfThreadInfo"), want);
	cr_assert_str_eq(srv_fx_req("qsThreadInfo"), "l");
	cr_assert_str_eq(srv_fx_req("vCont?"), "vCont;c;C;s;S;t;r");
}

/* Truncated and malformed packets of every family: an error or the
   empty reply, the program untouched.  */
Test(dispatch, truncated_packets_are_rejected)
{
	static const char *const bad[] = {
		"m", "M", "X", "Z", "z", "H", "T", "p", "P", "G", "C", "S",
		"Z0", "Z0,", "z0,401000", "Hg", "Tzz", "p-1", "P1", "M0,1",
		"X0,1", "vCont;", "vCont;x", "vCont;C", "vKill;", "vAttach;",
		"vRun;zz", "qXfer:", "qXfer:features", "qRcmd,z",
		"QPassSignals:zz", "QEnvironmentHexEncoded:4",
	};
	pid_t pid = srv_fx_start("marker", NULL);
	uint64_t pc = srv_fx_reg(0x10);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *r = srv_fx_req(bad[i]);

		cr_assert_eq(fx.res == srv_reply || fx.res < 0, 1, "%s", bad[i]);
		cr_assert(!strcmp(r, "") || srv_fx_is_error(r),
			  "%s gave %s", bad[i], r);
	}
	/* Nothing ran, nothing was killed.  */
	cr_assert(srv_fx_alive(pid));
	cr_assert_eq(srv_fx_reg(0x10), pc);
	cr_assert_not_null(nat_find_process(&fx.target, pid));
}

Test(dispatch, packets_without_a_process_are_errors)
{
	static const char *const need[] = {
		"g", "p10", "P10=0000000000000000", "m401000,4", "M401000,1:00",
		"Z0,401000,1", "vCont;c", "c", "s", "D", "qC",
	};

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		const char *r = srv_fx_req(need[i]);

		cr_assert_eq(fx.res == srv_reply || fx.res < 0, 1, "%s", need[i]);
		cr_assert(srv_fx_is_error(r), "%s gave %s", need[i], r);
	}
}

Test(dispatch, nul_bytes_inside_a_packet)
{
	static const char pkt[] = "m401000\0,4";

	srv_fx_start("exit", "0");
	cr_assert(srv_fx_is_error(srv_fx_req_len(pkt, sizeof(pkt) - 1)));
}
