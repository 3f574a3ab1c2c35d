/* server/srv_query.c: qSupported, QStartNoAckMode, qAttached, qSymbol.  */
#include "testsuite/unit/srv_fixture.h"
#include "common/ps_crc32.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(srv_query, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* Whether ';'-separated list R has exactly ITEM.  */
static int has_item(const char *r, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = r; p && *p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL)
		if (!strncmp(p, item, n) && (p[n] == ';' || !p[n]))
			return 1;
	return 0;
}

static const char *const echoed[] = {
	"multiprocess+", "swbreak+", "hwbreak+", "fork-events+",
	"vfork-events+", "exec-events+",
};

Test(srv_query, supported_advertises_packet_size_and_features)
{
	const char *r = srv_fx_req("qSupported");
	unsigned long size;

	cr_assert(!strncmp(r, "PacketSize=", 11), "%s", r);
	size = strtoul(r + 11, NULL, 16);
	/* Large enough for a g packet, within what rsp_conn accepts.  */
	cr_assert_geq(size, 0x1000);
	cr_assert_leq(size, 0x100000);
	cr_assert(has_item(r, "qXfer:features:read+"), "%s", r);
	cr_assert(has_item(r, "QStartNoAckMode+"), "%s", r);
	cr_assert(has_item(r, "qXfer:auxv:read+"), "%s", r);
	cr_assert(has_item(r, "qXfer:exec-file:read+"), "%s", r);
	cr_assert(has_item(r, "qXfer:threads:read+"), "%s", r);
	/* dprintf-style agent: GDB refuses it unless both are there.  */
	cr_assert(has_item(r, "BreakpointCommands+"), "%s", r);
	cr_assert(has_item(r, "QAgent+"), "%s", r);
	cr_assert(has_item(r, "QThreadEvents+"), "%s", r);
}

Test(srv_query, supported_echoes_nothing_not_offered)
{
	const char *r = srv_fx_req("qSupported:xmlRegisters=i386;qRelocInsn+");

	for (size_t i = 0; i < sizeof(echoed) / sizeof(echoed[0]); i++)
		cr_assert_not(has_item(r, echoed[i]), "%s in %s", echoed[i], r);
	cr_assert_not(fx.srv.multiprocess);
	cr_assert_not(fx.srv.swbreak);
	cr_assert_not(fx.target.report_fork);
}

Test(srv_query, supported_echoes_what_gdb_offers)
{
	const char *r = srv_fx_req("qSupported:multiprocess+;swbreak+;hwbreak+;"
				   "qRelocInsn+;fork-events+;vfork-events+;"
				   "exec-events+;vContSupported+;QThreadEvents+;"
				   "no-resumed+;xmlRegisters=i386");

	for (size_t i = 0; i < sizeof(echoed) / sizeof(echoed[0]); i++)
		cr_assert(has_item(r, echoed[i]), "no %s in %s", echoed[i], r);
	cr_assert(fx.srv.multiprocess && fx.srv.swbreak && fx.srv.hwbreak);
	cr_assert(fx.target.report_fork && fx.target.report_vfork &&
		  fx.target.report_exec);
}

Test(srv_query, supported_echoes_each_alone)
{
	for (size_t i = 0; i < sizeof(echoed) / sizeof(echoed[0]); i++) {
		const char *r;

		srv_fx_teardown();
		srv_fx_setup();
		r = srv_fx_reqf("qSupported:%s", echoed[i]);
		for (size_t j = 0; j < sizeof(echoed) / sizeof(echoed[0]); j++)
			cr_assert_eq(has_item(r, echoed[j]), i == j,
				     "offered %s, reply %s", echoed[i], r);
	}
}

Test(srv_query, supported_ignores_features_gdb_declines)
{
	const char *r = srv_fx_req("qSupported:multiprocess-;swbreak?;hwbreak");

	for (size_t i = 0; i < sizeof(echoed) / sizeof(echoed[0]); i++)
		cr_assert_not(has_item(r, echoed[i]), "%s in %s", echoed[i], r);
}

Test(srv_query, start_no_ack_mode_acks_ok_then_stops_acking)
{
	const char *r;

	rsp_conn_set_noack(&fx.conn, 0);
	rsp_conn_set_noack(&fx.peer, 0);
	/* GDB's ack of the OK, there before the server waits for it.  */
	cr_assert_eq(write(fx.fds[1], "+", 1), 1);
	cr_assert_null(srv_fx_req("QStartNoAckMode"));
	cr_assert_eq(fx.res, srv_no_reply);
	cr_assert(fx.conn.noack);
	rsp_conn_set_noack(&fx.peer, 1);
	r = srv_fx_recv();
	cr_assert_str_eq(r, "OK");
}

Test(srv_query, attached_says_we_started_it)
{
	pid_t pid = srv_fx_start("exit", "0");

	cr_assert_str_eq(srv_fx_req("qAttached"), "0");
	cr_assert_str_eq(srv_fx_reqf("qAttached:%x", (unsigned) pid), "0");
	cr_assert(srv_fx_is_error(srv_fx_req("qAttached:1")));
	cr_assert(srv_fx_is_error(srv_fx_req("qAttached:zz")));
}

Test(srv_query, attached_without_process_is_an_error)
{
	cr_assert(srv_fx_is_error(srv_fx_req("qAttached")));
}

Test(srv_query, symbol_lookup_is_done)
{
	cr_assert_str_eq(srv_fx_req("qSymbol::"), "OK");
}

Test(srv_query, unknown_queries_are_empty)
{
	cr_assert_str_eq(srv_fx_req("qTStatus"), "");
	cr_assert_str_eq(srv_fx_req("qOffsets"), "");
	cr_assert_str_eq(srv_fx_req("qSymbol:6d61696e"), "");
}

/* qCRC over marker's code: the CRC of the bytes the program has there,
   computed here from a raw read; a breakpoint inside changes nothing
   (its int3 is shadowed); unmapped memory is E01.  */
Test(srv_query, crc_of_code_shadows_breakpoints)
{
	uint64_t marker = srv_fx_sym("marker");
	uint8_t code[16];
	char want[16];
	pid_t pid;

	pid = srv_fx_start("marker", NULL);
	cr_assert_eq(srv_fx_raw_read(pid, marker, code, sizeof(code)), 16);
	snprintf(want, sizeof(want), "C%x",
		 (unsigned) ps_crc32(0xffffffffu, code, sizeof(code)));
	cr_assert_str_eq(srv_fx_reqf("qCRC:%llx,10", (unsigned long long) marker),
			 want);
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker + 4),
			 "OK");
	cr_assert_str_eq(srv_fx_reqf("qCRC:%llx,10", (unsigned long long) marker),
			 want);
	cr_assert_str_eq(srv_fx_req("qCRC:10,10"), "E01");
	cr_assert(srv_fx_is_error(srv_fx_req("qCRC:zz")));
}
