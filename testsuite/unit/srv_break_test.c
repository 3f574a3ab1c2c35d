/* server/srv_break.c: Z0/z0 plant and remove real int3s (checked through
   /proc/PID/mem), Z1-Z4 use the debug registers, and bad input plants
   nothing.  */
#include "testsuite/unit/debugregs_probe.h"
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(srv_break, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

Test(srv_break, Z0_plants_and_z0_removes)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t orig = srv_fx_raw_byte(pid, marker);

	cr_assert_neq(orig, 0xcc);
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), 0xcc);
	cr_assert_eq(srv_fx_raw_byte(pid, marker + 1),
		     (uint8_t) strtoul(srv_fx_reqf("m%llx,1",
			(unsigned long long) marker + 1), NULL, 16));
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), orig);
}

/* As gdbserver: any kind plants int3 (x86 has one breakpoint), and
   removing a breakpoint or watchpoint that is not there is an error.  */
Test(srv_break, any_kind_plants_and_absent_removal_fails)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t orig = srv_fx_raw_byte(pid, marker);

	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,3", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), 0xcc);
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,3", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), orig);
	cr_assert(srv_fx_is_error(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker)));
	cr_assert(srv_fx_is_error(srv_fx_reqf("z2,%llx,4", (unsigned long long) marker)));
	cr_assert_eq(srv_fx_raw_byte(pid, marker), orig);
}

Test(srv_break, Z0_twice_is_one_breakpoint)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t orig = srv_fx_raw_byte(pid, marker);

	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), orig);
}

static uint32_t counter_value(void)
{
	const char *r = srv_fx_reqf("m%llx,4",
				    (unsigned long long) srv_fx_sym("counter"));

	cr_assert_eq(strlen(r), 8, "m counter: %s", r);
	return (uint32_t) srv_fx_le(r, 8);
}

Test(srv_break, Z0_is_hit_each_time)
{
	uint64_t marker = srv_fx_sym("marker");
	const char *r;

	srv_fx_supported("swbreak+");
	srv_fx_start("marker", NULL);
	r = srv_fx_run_to("marker");
	cr_assert(!strncmp(r, "T05swbreak:;", 12), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), marker);
	cr_assert_eq(counter_value(), 0);
	/* Step off it as GDB does: remove, step, plant again.  */
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	r = srv_fx_req("vCont;s");
	cr_assert(!strncmp(r, "T05", 3) && !strstr(r, "swbreak"), "%s", r);
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker), "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05swbreak:;", 12), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), marker);
	cr_assert_eq(counter_value(), 1, "the second call");
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}

/* Like gdbserver, the server does not step over a GDB breakpoint at
   the resume address: GDB removes it first.  Resuming over it traps at
   once, reported at the same address.  */
Test(srv_break, resuming_on_a_breakpoint_traps_again)
{
	uint64_t marker = srv_fx_sym("marker");
	const char *r;

	srv_fx_supported("swbreak+");
	srv_fx_start("marker", NULL);
	srv_fx_run_to("marker");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05swbreak:;", 12), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), marker);
	cr_assert_eq(counter_value(), 0, "marker's body did not run");
}

Test(srv_break, Z0_on_unmapped_memory_is_an_error)
{
	srv_fx_start("exit", "0");
	cr_assert(srv_fx_is_error(srv_fx_req("Z0,0,1")));
	cr_assert(srv_fx_is_error(srv_fx_req("Z0,1000,1")));
}

Test(srv_break, malformed_plants_nothing)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t orig = srv_fx_raw_byte(pid, marker);
	static const char *const fmts[] = {
		"Z0,%llx", "Z0,%llx,", "Z0,%llx,1x", "Z0,%llx,zz", "Z0;%llx,1",
		"Z0,,%llx", "Zz,%llx,1", "Z,%llx,1", "Z0,%llxzz,1",
		"Z0,%llx,10000000000000000",
	};

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char pkt[128];
		const char *r;

		snprintf(pkt, sizeof(pkt), fmts[i], (unsigned long long) marker);
		r = srv_fx_req(pkt);
		cr_assert(srv_fx_is_error(r), "%s gave %s", pkt, r);
		cr_assert_eq(srv_fx_raw_byte(pid, marker), orig, "%s planted", pkt);
	}
}

Test(srv_break, read_watchpoints_and_unknown_types_are_unsupported)
{
	uint64_t counter = srv_fx_sym("counter");

	srv_fx_start("exit", "0");
	/* x86 has no read-only watchpoints: GDB falls back to Z4.  */
	cr_assert_str_eq(srv_fx_reqf("Z3,%llx,4", (unsigned long long) counter), "");
	cr_assert_str_eq(srv_fx_reqf("z3,%llx,4", (unsigned long long) counter), "");
	cr_assert_str_eq(srv_fx_reqf("Z5,%llx,4", (unsigned long long) counter), "");
	cr_assert_str_eq(srv_fx_reqf("Z9,%llx,4", (unsigned long long) counter), "");
}

/* Conditions are agent expressions ("X len,bytecode"): const8 0x22,
   const32 0x24, ref32 0x19, equal 0x13, end 0x27.  */
Test(srv_break, condition_plants_the_breakpoint)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);

	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1;X3,220127",
				     (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), 0xcc);
}

Test(srv_break, true_condition_stops)
{
	uint64_t marker = srv_fx_sym("marker");
	const char *r;

	srv_fx_start("marker", NULL);
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1;X3,220127",
				     (unsigned long long) marker), "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), marker);
}

Test(srv_break, false_condition_never_stops)
{
	uint64_t marker = srv_fx_sym("marker");

	srv_fx_start("marker", NULL);
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1;X3,220027",
				     (unsigned long long) marker), "OK");
	/* Both calls run; the program exits as if there were none.  */
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}

Test(srv_break, condition_on_memory_picks_the_hit)
{
	uint64_t marker = srv_fx_sym("marker"), counter = srv_fx_sym("counter");
	const char *r;

	srv_fx_start("marker", NULL);
	cr_assert_lt(counter, 1ull << 32);
	/* *(int32 *) &counter == 1: the second call.  */
	r = srv_fx_reqf("Z0,%llx,1;Xa,24%08llx19220113" "27",
			(unsigned long long) marker, (unsigned long long) counter);
	cr_assert_str_eq(r, "OK");
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), marker);
	cr_assert_eq(counter_value(), 1);
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}

Test(srv_break, malformed_condition_plants_nothing)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t orig = srv_fx_raw_byte(pid, marker);
	static const char *const conds[] = {
		";Xzz", ";X3,22", ";X3,2201", ";X3,zz0127",
	};

	for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
		const char *r = srv_fx_reqf("Z0,%llx,1%s",
					    (unsigned long long) marker, conds[i]);

		cr_assert(srv_fx_is_error(r), "%s gave %s", conds[i], r);
		cr_assert_eq(srv_fx_raw_byte(pid, marker), orig, "%s planted",
			     conds[i]);
	}
}

Test(srv_break, Z2_write_watchpoint_stops_after_the_write)
{
	uint64_t counter = srv_fx_sym("counter");
	char want[64];
	const char *r;

	debugregs_skip_unless_they_trap();
	srv_fx_start("marker", NULL);
	cr_assert_str_eq(srv_fx_reqf("Z2,%llx,4", (unsigned long long) counter), "OK");
	r = srv_fx_req("vCont;c");
	snprintf(want, sizeof(want), "T05watch:%016llx;",
		 (unsigned long long) counter);
	cr_assert(!strncmp(r, want, strlen(want)), "%s", r);
	cr_assert_str_eq(srv_fx_reqf("m%llx,4", (unsigned long long) counter),
			 "01000000");
	cr_assert_str_eq(srv_fx_reqf("z2,%llx,4", (unsigned long long) counter), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}

Test(srv_break, Z1_hardware_breakpoint_stops_at_it)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid;
	uint8_t orig;
	const char *r;

	debugregs_skip_unless_they_trap();
	pid = srv_fx_start("marker", NULL);
	orig = srv_fx_raw_byte(pid, marker);
	srv_fx_supported("hwbreak+;swbreak+");
	cr_assert_str_eq(srv_fx_reqf("Z1,%llx,1", (unsigned long long) marker), "OK");
	/* No int3: the debug registers do it.  */
	cr_assert_eq(srv_fx_raw_byte(pid, marker), orig);
	r = srv_fx_req("vCont;c");
	cr_assert(!strncmp(r, "T05hwbreak:;", 12), "%s", r);
	cr_assert_eq(srv_fx_stop_reg(r, "10"), marker);
	cr_assert_str_eq(srv_fx_reqf("z1,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}

Test(srv_break, Z4_access_watchpoint_plants_and_removes)
{
	uint64_t counter = srv_fx_sym("counter");

	srv_fx_start("exit", "0");
	cr_assert_str_eq(srv_fx_reqf("Z4,%llx,4", (unsigned long long) counter), "OK");
	cr_assert_str_eq(srv_fx_reqf("z4,%llx,4", (unsigned long long) counter), "OK");
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}

Test(srv_break, without_process_is_an_error)
{
	cr_assert(srv_fx_is_error(srv_fx_req("Z0,401000,1")));
	cr_assert(srv_fx_is_error(srv_fx_req("z0,401000,1")));
}

/* The debug registers are written when threads next run, so a watch on
   an address the kernel refuses fails the resume, not the Z2 (as with
   gdbserver); taking it out must make the program runnable again.  */
Test(srv_break, refused_watch_address_fails_resume_and_recovers)
{
	pid_t pid;

	pid = srv_fx_start("marker", NULL);
	cr_assert_str_eq(srv_fx_req("Z2,ffffffffffffff00,2"), "OK");
	cr_assert(srv_fx_is_error(srv_fx_req("vCont;c")));
	cr_assert_neq(fx.res, srv_resumed);
	cr_assert_str_eq(srv_fx_req("z2,ffffffffffffff00,2"), "OK");
	cr_assert(srv_fx_alive(pid));
	cr_assert_str_eq(srv_fx_req("vCont;c"), "W00");
}
