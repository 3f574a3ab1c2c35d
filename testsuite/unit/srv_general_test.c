/* server/srv_general.c: '?' (the last stop again) and vFile routing.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(srv_general, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

Test(srv_general, status_without_process_is_w00)
{
	cr_assert_str_eq(srv_fx_req("?"), "W00");
}

Test(srv_general, status_after_start_is_t05_with_registers)
{
	char thread[64], want[64];
	const char *r;
	pid_t pid;

	srv_fx_supported("multiprocess+");
	pid = srv_fx_start("exit", "0");
	r = srv_fx_req("?");
	cr_assert(!strncmp(r, "T05", 3), "? gave %s", r);
	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)), "%s", r);
	snprintf(want, sizeof(want), "p%x.%x", (unsigned) pid, (unsigned) pid);
	cr_assert_str_eq(thread, want);
	/* rip as expedited is the one 'p' reads.  */
	cr_assert_eq(srv_fx_stop_reg(r, "10"), srv_fx_reg(0x10));
	cr_assert(srv_fx_field(r, "06", thread, sizeof(thread)), "%s", r);
	cr_assert(srv_fx_field(r, "07", thread, sizeof(thread)), "%s", r);
	cr_assert(srv_fx_field(r, "core", thread, sizeof(thread)), "%s", r);
}

Test(srv_general, status_without_multiprocess_names_bare_thread)
{
	char thread[64], want[64];
	const char *r;
	pid_t pid;

	pid = srv_fx_start("exit", "0");
	r = srv_fx_req("?");
	cr_assert(srv_fx_field(r, "thread", thread, sizeof(thread)), "%s", r);
	snprintf(want, sizeof(want), "%x", (unsigned) pid);
	cr_assert_str_eq(thread, want);
}

Test(srv_general, status_repeats_the_last_stop)
{
	char buf[512];
	const char *r;

	srv_fx_supported("multiprocess+;swbreak+");
	srv_fx_start("marker", NULL);
	r = srv_fx_run_to("marker");
	snprintf(buf, sizeof(buf), "%s", r);
	r = srv_fx_req("?");
	/* All but the core, which the kernel may have changed meanwhile.  */
	cr_assert_not_null(strstr(buf, ";core:"));
	cr_assert_eq(strncmp(r, buf, (size_t) (strstr(buf, ";core:") - buf)), 0,
		     "'?' gave %s after %s", r, buf);
	cr_assert(!strncmp(r, "T05swbreak:;", 12), "? gave %s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), srv_fx_sym("marker"));
}

/* As gdbserver: once the program is gone, '?' says W00.  */
Test(srv_general, status_after_exit_is_w00)
{
	srv_fx_start("exit", "7");
	/* In extended mode the server outlives the program.  */
	cr_assert_str_eq(srv_fx_req("!"), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W07");
	cr_assert_str_eq(srv_fx_req("?"), "W00");
}

Test(srv_general, vfile_setfs_is_answered)
{
	const char *r = srv_fx_req("vFile:setfs:0");

	cr_assert(r && r[0] == 'F', "vFile:setfs gave %s", r);
}

Test(srv_general, vfile_open_reads_a_file)
{
	char hex[8192], cmd[9000];
	const char *r;

	srv_fx_hex(hex, fx.prog);
	snprintf(cmd, sizeof(cmd), "vFile:open:%s,0,0", hex);
	r = srv_fx_req(cmd);
	cr_assert(r && r[0] == 'F' && r[1] != '-', "vFile:open gave %s", r);
}

/* GDB fetches a whole reply at each readahead miss: a pread as long as
   PacketSize is cut to gdbserver's size, which GDB reads fastest.  */
Test(srv_general, vfile_pread_is_cut_to_the_hostio_reply_size)
{
	char hex[8192], cmd[9000];
	unsigned long fd;
	const char *r;

	srv_fx_hex(hex, fx.prog);
	snprintf(cmd, sizeof(cmd), "vFile:open:%s,0,0", hex);
	r = srv_fx_req(cmd);
	cr_assert(r && sscanf(r, "F%lx", &fd) == 1, "vFile:open gave %s", r);
	r = srv_fx_reqf("vFile:pread:%lx,%x,0", fd, SRV_PACKET_SIZE);
	cr_assert(r && r[0] == 'F', "vFile:pread gave %s", r);
	cr_assert_leq(fx.len, (size_t) SRV_HOSTIO_REPLY_MAX);
	cr_assert_gt(fx.len, (size_t) SRV_HOSTIO_REPLY_MAX / 2, "%zu", fx.len);
}
