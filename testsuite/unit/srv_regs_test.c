/* server/srv_regs.c: g, G, p and P on the stopped test program.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/user.h>

TestSuite(srv_regs, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* rip's place in the g packet: after 16 general registers.  */
#define G_RIP_OFFSET (16 * 8 * 2)

static uint64_t kernel_rip(pid_t tid)
{
	return (uint64_t) ptrace(PTRACE_PEEKUSER, tid,
				 (void *) offsetof(struct user_regs_struct, rip), 0);
}

static const char *le64(uint64_t v)
{
	static char out[4][17];
	static unsigned n;
	char *s = out[n++ % 4];
	uint8_t b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t) (v >> (8 * i));
	ps_hex_encode(s, b, 8);
	s[16] = '\0';
	return s;
}

Test(srv_regs, g_holds_rip_where_p_reads_it)
{
	pid_t pid = srv_fx_start("exit", "0");
	const char *g = srv_fx_req("g");
	uint64_t rip = kernel_rip(pid);

	cr_assert_gt(strlen(g), G_RIP_OFFSET + 16, "g: %s", g);
	cr_assert_eq(strlen(g) % 2, 0);
	for (const char *p = g; *p; p++)
		cr_assert(ps_hex_digit(*p) >= 0 || *p == 'x', "g: %s", g);
	cr_assert_eq(srv_fx_le(g + G_RIP_OFFSET, 16), rip);
	cr_assert_eq(srv_fx_reg(0x10), rip);
}

Test(srv_regs, G_round_trips)
{
	char *g, *mod;

	srv_fx_start("exit", "0");
	g = strdup(srv_fx_req("g"));
	cr_assert_str_eq(srv_fx_reqf("G%s", g), "OK");
	cr_assert_str_eq(srv_fx_req("g"), g);
	/* rax is first: change it through G, read it through p.  */
	mod = strdup(g);
	memcpy(mod, le64(0x1122334455667788ull), 16);
	cr_assert_str_eq(srv_fx_reqf("G%s", mod), "OK");
	cr_assert_eq(srv_fx_reg(0), 0x1122334455667788ull);
	free(g);
	free(mod);
}

Test(srv_regs, G_rejects_bad_data_and_changes_nothing)
{
	char *g, *bad;
	size_t n;

	srv_fx_start("exit", "0");
	g = strdup(srv_fx_req("g"));
	n = strlen(g);
	cr_assert(srv_fx_is_error(srv_fx_req("G")));
	cr_assert(srv_fx_is_error(srv_fx_req("G0011")));
	bad = strdup(g);
	bad[0] = bad[1] = 'z';
	memcpy(bad + G_RIP_OFFSET, "zz", 2);
	cr_assert(srv_fx_is_error(srv_fx_reqf("G%s", bad)));
	/* Odd length, and one byte too many.  */
	cr_assert(srv_fx_is_error(srv_fx_reqf("G%.*s", (int) n - 1, g)));
	cr_assert(srv_fx_is_error(srv_fx_reqf("G%s00", g)));
	/* Twice the size.  */
	cr_assert(srv_fx_is_error(srv_fx_reqf("G%s%s", g, g)));
	cr_assert_str_eq(srv_fx_req("g"), g);
	free(g);
	free(bad);
}

Test(srv_regs, P_then_p_round_trips)
{
	pid_t pid = srv_fx_start("exit", "0");
	uint64_t rip = srv_fx_reg(0x10);

	cr_assert_str_eq(srv_fx_reqf("P0=%s", le64(0xdeadbeefcafef00dull)), "OK");
	cr_assert_eq(srv_fx_reg(0), 0xdeadbeefcafef00dull);
	cr_assert_str_eq(srv_fx_reqf("Pf=%s", le64(42)), "OK");
	cr_assert_eq(srv_fx_reg(0xf), 42);
	cr_assert_str_eq(srv_fx_reqf("P10=%s", le64(rip + 1)), "OK");
	cr_assert_eq(srv_fx_reg(0x10), rip + 1);
	cr_assert_str_eq(srv_fx_reqf("P10=%s", le64(rip)), "OK");
	cr_assert_eq(kernel_rip(pid), rip);
}

Test(srv_regs, P_reaches_the_thread)
{
	uint64_t marker = srv_fx_sym("marker"), rip;
	const char *r;

	srv_fx_start("marker", NULL);
	cr_assert_str_eq(srv_fx_reqf("P10=%s", le64(marker)), "OK");
	/* One step from marker's first instruction stays inside it.  */
	r = srv_fx_req("vCont;s");
	cr_assert(!strncmp(r, "T05", 3), "%s", r);
	rip = srv_fx_stop_reg(r, "10");
	cr_assert_gt(rip, marker);
	cr_assert_lt(rip, marker + 16);
}

Test(srv_regs, p_rejects_bad_numbers)
{
	static const char *const bad[] = {
		"p", "pzz", "p10x", "p-1", "p1000", "p10000", "p100000000",
		"p10000000000000000",
	};

	srv_fx_start("exit", "0");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert(srv_fx_is_error(srv_fx_req(bad[i])), "%s gave %s",
			  bad[i], srv_fx_req(bad[i]));
}

Test(srv_regs, P_rejects_bad_input_and_changes_nothing)
{
	static const char *const bad[] = {
		"P10", "P10=", "P10=zz", "P10=0011", "P10=001", "Pzz=00",
		"P1000=0000000000000000", "P10=00112233445566778899",
		"P10=0011223344556677zz",
	};
	uint64_t rip;

	srv_fx_start("exit", "0");
	rip = srv_fx_reg(0x10);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert(srv_fx_is_error(srv_fx_req(bad[i])), "%s", bad[i]);
		cr_assert_eq(srv_fx_reg(0x10), rip, "%s changed rip", bad[i]);
	}
}

Test(srv_regs, registers_follow_hg)
{
	pid_t pid = srv_fx_start("exit", "0");

	cr_assert_str_eq(srv_fx_reqf("Hg%x", (unsigned) pid), "OK");
	cr_assert_eq(srv_fx_reg(0x10), kernel_rip(pid));
	/* A failed Hg leaves the selection as it was.  */
	cr_assert(srv_fx_is_error(srv_fx_req("Hg7ffffff0")));
	cr_assert_eq(srv_fx_reg(0x10), kernel_rip(pid));
}

/* GDB's numbers 0-15, 16 and 17 against the kernel's user_regs_struct.  */
Test(srv_regs, registers_match_the_kernel)
{
	static const size_t offs[] = {
		offsetof(struct user_regs_struct, rax),
		offsetof(struct user_regs_struct, rbx),
		offsetof(struct user_regs_struct, rcx),
		offsetof(struct user_regs_struct, rdx),
		offsetof(struct user_regs_struct, rsi),
		offsetof(struct user_regs_struct, rdi),
		offsetof(struct user_regs_struct, rbp),
		offsetof(struct user_regs_struct, rsp),
		offsetof(struct user_regs_struct, r8),
		offsetof(struct user_regs_struct, r9),
		offsetof(struct user_regs_struct, r10),
		offsetof(struct user_regs_struct, r11),
		offsetof(struct user_regs_struct, r12),
		offsetof(struct user_regs_struct, r13),
		offsetof(struct user_regs_struct, r14),
		offsetof(struct user_regs_struct, r15),
		offsetof(struct user_regs_struct, rip),
	};
	pid_t pid;

	srv_fx_start("marker", NULL);
	pid = fx.pid;
	srv_fx_run_to("marker");
	for (unsigned i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		uint64_t k = (uint64_t) ptrace(PTRACE_PEEKUSER, pid, (void *) offs[i], 0);

		cr_assert_eq(srv_fx_reg(i), k, "register %u: p gives %llx, kernel %llx",
			     i, (unsigned long long) srv_fx_reg(i),
			     (unsigned long long) k);
	}
}

/* Right after the start, as gdbserver shows it: execve has returned 0,
   with or without a shell in between.  */
static void check_start_rax(int shell)
{
	uint64_t k;
	pid_t pid;

	fx.target.start.startup_with_shell = shell;
	pid = srv_fx_start("exit", "0");
	k = (uint64_t) ptrace(PTRACE_PEEKUSER, pid,
			      (void *) offsetof(struct user_regs_struct, rax), 0);
	cr_assert_eq(srv_fx_reg(0), k, "p0 %llx, kernel %llx",
		     (unsigned long long) srv_fx_reg(0), (unsigned long long) k);
	cr_assert_eq(k, 0, "rax %llx at the first stop", (unsigned long long) k);
}

Test(srv_regs, rax_at_the_start_is_execve_result)
{
	check_start_rax(0);
}

Test(srv_regs, rax_at_the_start_through_a_shell)
{
	check_start_rax(1);
}
