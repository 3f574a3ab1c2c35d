/* server/srv_stop_reply.c: T, W, X and N replies for each kind of event,
   written for the real stopped test program.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(srv_stop_reply, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* The stop reply for EV as a string (a copy).  */
static const char *reply_for(const struct nat_event *ev)
{
	ps_buf_reset(&fx.srv.reply);
	cr_assert_eq(srv_stop_reply(&fx.srv, ev), 0);
	return srv_fx_keep(fx.srv.reply.data, fx.srv.reply.len);
}

static struct nat_event stopped(pid_t pid, int sig,
				enum nat_stop_reason reason)
{
	struct nat_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = nat_ev_stopped;
	ev.pid = ev.tid = pid;
	ev.sig = sig;
	ev.reason = reason;
	return ev;
}

Test(srv_stop_reply, exit_codes)
{
	struct nat_event ev = { .kind = nat_ev_exited, .pid = 1234, .status = 7 };
	char want[64];

	cr_assert_str_eq(reply_for(&ev), "W07");
	ev.status = 0x2a;
	cr_assert_str_eq(reply_for(&ev), "W2a");
	fx.srv.multiprocess = 1;
	snprintf(want, sizeof(want), "W2a;process:%x", 1234);
	cr_assert_str_eq(reply_for(&ev), want);
	cr_assert(fx.srv.have_last);
	cr_assert_eq(fx.srv.last.kind, nat_ev_exited);
}

Test(srv_stop_reply, signals_use_gdb_numbers)
{
	struct nat_event ev = { .kind = nat_ev_signalled, .pid = 99, .sig = SIGKILL };

	cr_assert_str_eq(reply_for(&ev), "X09");
	/* SIGUSR1 is 10 on Linux, 30 on the wire.  */
	ev.sig = SIGUSR1;
	cr_assert_str_eq(reply_for(&ev), "X1e");
	fx.srv.multiprocess = 1;
	cr_assert_str_eq(reply_for(&ev), "X1e;process:63");
}

Test(srv_stop_reply, no_resumed_is_n)
{
	struct nat_event ev = { .kind = nat_ev_no_resumed };

	cr_assert_str_eq(reply_for(&ev), "N");
}

Test(srv_stop_reply, stopped_thread_has_registers_thread_and_core)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGUSR1, nat_stop_none);
	char value[64], want[64];
	const char *r;

	fx.srv.multiprocess = 1;
	r = reply_for(&ev);
	cr_assert(!strncmp(r, "T1e06:", 6), "%s", r);
	/* rbp, rsp, rip, as gdbserver expedites them, in that order.  */
	cr_assert(strstr(r, ";07:") && strstr(r, ";10:") &&
		  strstr(r, ";07:") < strstr(r, ";10:"), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), srv_fx_reg(0x10));
	cr_assert_eq(srv_fx_stop_reg(r, "07"), srv_fx_reg(7));
	cr_assert_eq(srv_fx_stop_reg(r, "06"), srv_fx_reg(6));
	cr_assert(srv_fx_field(r, "thread", value, sizeof(value)));
	snprintf(want, sizeof(want), "p%x.%x", (unsigned) pid, (unsigned) pid);
	cr_assert_str_eq(value, want);
	cr_assert(srv_fx_field(r, "core", value, sizeof(value)), "%s", r);
	cr_assert_lt(strtol(value, NULL, 16), sysconf(_SC_NPROCESSORS_CONF));
	cr_assert_eq(r[strlen(r) - 1], ';');
}

Test(srv_stop_reply, swbreak_only_when_negotiated)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_swbreak);
	const char *r;

	r = reply_for(&ev);
	cr_assert(!strncmp(r, "T0506:", 6), "%s", r);
	cr_assert_null(strstr(r, "swbreak"));
	fx.srv.swbreak = 1;
	r = reply_for(&ev);
	cr_assert(!strncmp(r, "T05swbreak:;06:", 15), "%s", r);
}

Test(srv_stop_reply, hwbreak_only_when_negotiated)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_hwbreak);
	const char *r;

	fx.srv.swbreak = 1;
	r = reply_for(&ev);
	cr_assert_null(strstr(r, "hwbreak"), "%s", r);
	cr_assert_null(strstr(r, "swbreak"), "%s", r);
	fx.srv.hwbreak = 1;
	r = reply_for(&ev);
	cr_assert(!strncmp(r, "T05hwbreak:;06:", 15), "%s", r);
}

Test(srv_stop_reply, watchpoint_gives_data_address)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_watch);
	const char *r;

	ev.data_addr = 0x404064;
	r = reply_for(&ev);
	/* gdbserver writes all 16 digits.  */
	cr_assert(!strncmp(r, "T05watch:0000000000404064;06:", 29), "%s", r);
}

Test(srv_stop_reply, fork_names_the_child)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_none);
	char want[64];
	const char *r;

	ev.kind = nat_ev_forked;
	ev.child = 0x1234;
	fx.srv.multiprocess = 1;
	r = reply_for(&ev);
	snprintf(want, sizeof(want), "T05fork:p1234.1234;06:");
	cr_assert(!strncmp(r, want, strlen(want)), "%s", r);
	ev.kind = nat_ev_vforked;
	r = reply_for(&ev);
	cr_assert(!strncmp(r, "T05vfork:p1234.1234;06:", 23), "%s", r);
	ev.kind = nat_ev_vfork_done;
	r = reply_for(&ev);
	cr_assert(!strncmp(r, "T05vforkdone:;06:", 17), "%s", r);
}

Test(srv_stop_reply, exec_gives_hex_path)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_none);
	char want[64];
	const char *r;

	ev.kind = nat_ev_execd;
	strcpy(ev.path, "/bin/x");
	r = reply_for(&ev);
	snprintf(want, sizeof(want), "T05exec:2f62696e2f78;06:");
	cr_assert(!strncmp(r, want, strlen(want)), "%s", r);
}

Test(srv_stop_reply, unknown_thread_is_an_error)
{
	struct nat_event ev = stopped(0x7ffffff0, SIGTRAP, nat_stop_none);

	srv_fx_start("exit", "0");
	ps_buf_reset(&fx.srv.reply);
	cr_assert_lt(srv_stop_reply(&fx.srv, &ev), 0);
}

Test(srv_stop_reply, stop_selects_its_thread)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_none);

	fx.srv.general.pid = 0;
	fx.srv.general.tid = 0;
	reply_for(&ev);
	cr_assert_eq(fx.srv.general.pid, pid);
	cr_assert_eq(fx.srv.general.tid, pid);
	cr_assert(fx.srv.have_last);
	cr_assert_eq(fx.srv.last.sig, SIGTRAP);
}

/* --disable-packet=T: an old stub's S reply, the signal alone; Tthread:
   the T reply without thread (and core), the selected thread kept.  */
Test(srv_stop_reply, disabled_t_gives_s_replies)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_swbreak);

	fx.opts.disabled = srv_disable_t;
	fx.srv.swbreak = 1;
	cr_assert_str_eq(reply_for(&ev), "S05");
	ev.sig = SIGINT;
	cr_assert_str_eq(reply_for(&ev), "S02");
	ev.kind = nat_ev_forked;
	ev.child = pid;
	cr_assert_str_eq(reply_for(&ev), "S05");
	/* Exits are no T replies: unchanged.  */
	ev.kind = nat_ev_exited;
	ev.status = 3;
	cr_assert_str_eq(reply_for(&ev), "W03");
}

Test(srv_stop_reply, disabled_tthread_leaves_out_the_thread)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_none);
	const char *r;

	fx.opts.disabled = srv_disable_tthread;
	fx.srv.general.pid = fx.srv.general.tid = 0;
	r = reply_for(&ev);
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert(strstr(r, "10:"), "%s", r);
	cr_assert_null(strstr(r, "thread:"), "%s", r);
	cr_assert_null(strstr(r, "core:"), "%s", r);
	cr_assert_eq(fx.srv.general.tid, 0);
}

/* Non-stop: a stop reply is about its thread, not a selection.  */
Test(srv_stop_reply, non_stop_keeps_the_selected_thread)
{
	pid_t pid = srv_fx_start("exit", "0");
	struct nat_event ev = stopped(pid, SIGTRAP, nat_stop_none);

	fx.srv.non_stop = 1;
	fx.srv.general.pid = fx.srv.general.tid = 0;
	cr_assert(strstr(reply_for(&ev), "thread:"));
	cr_assert_eq(fx.srv.general.tid, 0);
	fx.srv.non_stop = 0;
	reply_for(&ev);
	cr_assert_eq(fx.srv.general.tid, pid);
}
