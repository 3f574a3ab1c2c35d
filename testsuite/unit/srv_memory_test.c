/* server/srv_memory.c: m, M and X against the child's real memory, read
   behind the server's back through /proc/PID/mem.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

TestSuite(srv_memory, .init = srv_fx_setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

static const char *hex_of(const void *data, size_t len)
{
	static char out[4][1024];
	static unsigned n;
	char *s = out[n++ % 4];

	cr_assert_lt(2 * len, sizeof(out[0]));
	ps_hex_encode(s, data, len);
	s[2 * len] = '\0';
	return s;
}

Test(srv_memory, m_matches_the_child)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t raw[64];

	cr_assert_eq(srv_fx_raw_read(pid, marker, raw, sizeof(raw)), 64);
	cr_assert_str_eq(srv_fx_reqf("m%llx,40", (unsigned long long) marker),
			 hex_of(raw, sizeof(raw)));
	cr_assert_str_eq(srv_fx_reqf("m%llx,1", (unsigned long long) marker),
			 hex_of(raw, 1));
}

Test(srv_memory, m_hides_a_planted_breakpoint)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t before[8], after[8];

	cr_assert_eq(srv_fx_raw_read(pid, marker - 4, before, 8), 8);
	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), 0xcc);
	/* A read covering the site, and one starting at it.  */
	cr_assert_str_eq(srv_fx_reqf("m%llx,8", (unsigned long long) marker - 4),
			 hex_of(before, 8));
	cr_assert_str_eq(srv_fx_reqf("m%llx,1", (unsigned long long) marker),
			 hex_of(before + 4, 1));
	cr_assert_eq(srv_fx_raw_read(pid, marker - 4, after, 8), 8);
	cr_assert_eq(after[4], 0xcc);
}

Test(srv_memory, m_on_unmapped_memory_is_e01)
{
	srv_fx_start("exit", "0");
	cr_assert_str_eq(srv_fx_req("m0,4"), "E01");
	cr_assert_str_eq(srv_fx_req("m1000,1"), "E01");
	cr_assert_str_eq(srv_fx_req("mffffffffffff0000,10"), "E01");
}

Test(srv_memory, m_malformed_is_e01)
{
	static const char *const bad[] = {
		"m", "m401000", "m401000,", "mzz,4", "m,4", "m401000,zz",
		"m401000,4x", "m401000;4", "mffffffffffffffff,2",
		"m10000000000000000,1",
	};

	srv_fx_start("exit", "0");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_str_eq(srv_fx_req(bad[i]), "E01", "%s", bad[i]);
}

Test(srv_memory, m_oversized_is_capped_not_refused)
{
	uint64_t marker = srv_fx_sym("marker");
	const char *r;

	srv_fx_start("exit", "0");
	r = srv_fx_reqf("m%llx,10000000", (unsigned long long) marker);
	cr_assert_gt(strlen(r), 0);
	cr_assert_leq(strlen(r), SRV_PACKET_SIZE);
	cr_assert_eq(strlen(r) % 2, 0);
	cr_assert_eq(ps_hex_digit(r[0]) >= 0, 1, "%.8s", r);
}

Test(srv_memory, m_of_zero_bytes_is_empty)
{
	srv_fx_start("exit", "0");
	cr_assert_str_eq(srv_fx_req("m401000,0"), "");
}

Test(srv_memory, M_writes)
{
	uint64_t counter = srv_fx_sym("counter");
	pid_t pid = srv_fx_start("exit", "0");
	uint8_t raw[4];

	cr_assert_str_eq(srv_fx_reqf("M%llx,4:2a0000ff", (unsigned long long) counter),
			 "OK");
	cr_assert_eq(srv_fx_raw_read(pid, counter, raw, 4), 4);
	cr_assert_eq(memcmp(raw, "\x2a\x00\x00\xff", 4), 0);
	cr_assert_str_eq(srv_fx_reqf("m%llx,4", (unsigned long long) counter),
			 "2a0000ff");
	/* A zero-length write is GDB's probe, and a no-op.  */
	cr_assert_str_eq(srv_fx_reqf("M%llx,0:", (unsigned long long) counter), "OK");
	cr_assert_eq(srv_fx_raw_read(pid, counter, raw, 4), 4);
	cr_assert_eq(raw[0], 0x2a);
}

Test(srv_memory, M_malformed_changes_nothing)
{
	uint64_t counter = srv_fx_sym("counter");
	pid_t pid = srv_fx_start("exit", "0");
	static const char *const tails[] = {
		"4:2a00", "4:2a0000ff00", "2:zzzz", "1", "1:", "1:001", "1:0",
		"zz:00", ",1:00", "1;00",
	};
	uint8_t raw[4];

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		const char *r = srv_fx_reqf("M%llx,%s",
					    (unsigned long long) counter, tails[i]);

		cr_assert(srv_fx_is_error(r), "M...,%s gave %s", tails[i], r);
		cr_assert_eq(srv_fx_raw_read(pid, counter, raw, 4), 4);
		cr_assert_eq(memcmp(raw, "\0\0\0\0", 4), 0, "M...,%s wrote",
			     tails[i]);
	}
}

Test(srv_memory, M_to_unmapped_memory_is_an_error)
{
	srv_fx_start("exit", "0");
	cr_assert(srv_fx_is_error(srv_fx_req("M0,1:cc")));
	cr_assert(srv_fx_is_error(srv_fx_req("X0,1:c")));
}

Test(srv_memory, X_unescapes)
{
	uint64_t counter = srv_fx_sym("counter");
	pid_t pid = srv_fx_start("exit", "0");
	char pkt[64];
	uint8_t raw[4];
	int n;

	/* '#', '$', '}' and '*' travel as '}' and the byte xor 0x20.  */
	n = snprintf(pkt, sizeof(pkt), "X%llx,4:", (unsigned long long) counter);
	memcpy(pkt + n, "}\x03}\x04}]}\x0a", 8);
	cr_assert_str_eq(srv_fx_req_len(pkt, (size_t) n + 8), "OK");
	cr_assert_eq(srv_fx_raw_read(pid, counter, raw, 4), 4);
	cr_assert_eq(memcmp(raw, "\x23\x24\x7d\x2a", 4), 0);
	cr_assert_str_eq(srv_fx_reqf("m%llx,4", (unsigned long long) counter),
			 "23247d2a");
}

Test(srv_memory, X_binary_bytes_pass_through)
{
	uint64_t counter = srv_fx_sym("counter");
	pid_t pid = srv_fx_start("exit", "0");
	char pkt[64];
	uint8_t raw[4];
	int n;

	n = snprintf(pkt, sizeof(pkt), "X%llx,4:", (unsigned long long) counter);
	memcpy(pkt + n, "\x00\xff\x0a\x3a", 4);
	cr_assert_str_eq(srv_fx_req_len(pkt, (size_t) n + 4), "OK");
	cr_assert_eq(srv_fx_raw_read(pid, counter, raw, 4), 4);
	cr_assert_eq(memcmp(raw, "\x00\xff\x0a\x3a", 4), 0);
}

Test(srv_memory, X_probe_is_ok)
{
	srv_fx_start("exit", "0");
	cr_assert_str_eq(srv_fx_reqf("X%llx,0:",
				     (unsigned long long) srv_fx_sym("counter")),
			 "OK");
}

Test(srv_memory, X_malformed_changes_nothing)
{
	uint64_t counter = srv_fx_sym("counter");
	pid_t pid = srv_fx_start("exit", "0");
	static const char *const tails[] = {
		"4:abc",       /* too few bytes */
		"2:ab}",       /* a lone escape at the end */
		"1",           /* no data part */
		"zz:a",
	};
	uint8_t raw[4];

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		const char *r = srv_fx_reqf("X%llx,%s",
					    (unsigned long long) counter, tails[i]);

		cr_assert(srv_fx_is_error(r), "X...,%s gave %s", tails[i], r);
		cr_assert_eq(srv_fx_raw_read(pid, counter, raw, 4), 4);
		cr_assert_eq(memcmp(raw, "\0\0\0\0", 4), 0, "X...,%s wrote",
			     tails[i]);
	}
}

/* More data than the count says: the server must refuse it without
   writing past its buffer.  */
Test(srv_memory, X_with_excess_data_is_refused)
{
	uint64_t counter = srv_fx_sym("counter");
	pid_t pid = srv_fx_start("exit", "0");
	static char pkt[70000];
	uint8_t raw[4];
	int n;

	n = snprintf(pkt, sizeof(pkt), "X%llx,1:", (unsigned long long) counter);
	memset(pkt + n, 'A', 65536);
	cr_assert(srv_fx_is_error(srv_fx_req_len(pkt, (size_t) n + 65536)));
	cr_assert_eq(srv_fx_raw_read(pid, counter, raw, 4), 4);
	cr_assert_eq(memcmp(raw, "\0\0\0\0", 4), 0);
}

Test(srv_memory, M_over_a_breakpoint_keeps_it)
{
	uint64_t marker = srv_fx_sym("marker");
	pid_t pid = srv_fx_start("marker", NULL);
	uint8_t orig = srv_fx_raw_byte(pid, marker);

	cr_assert_str_eq(srv_fx_reqf("Z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_str_eq(srv_fx_reqf("M%llx,1:90", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), 0xcc);
	cr_assert_str_eq(srv_fx_reqf("m%llx,1", (unsigned long long) marker), "90");
	cr_assert_str_eq(srv_fx_reqf("z0,%llx,1", (unsigned long long) marker), "OK");
	cr_assert_eq(srv_fx_raw_byte(pid, marker), 0x90);
	cr_assert_neq(orig, 0x90);
}

Test(srv_memory, memory_follows_hg)
{
	uint64_t counter = srv_fx_sym("counter");
	pid_t pid = srv_fx_start("exit", "0");

	cr_assert_str_eq(srv_fx_reqf("Hgp%x.%x", (unsigned) pid, (unsigned) pid),
			 "OK");
	cr_assert_str_eq(srv_fx_reqf("m%llx,4", (unsigned long long) counter),
			 "00000000");
}
