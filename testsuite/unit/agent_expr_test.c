#include "server/agent_expr.h"
#include "common/ps_error.h"
#include "testsuite/unit/agent_fake.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Parsing "X<len>,<hex>".  */

Test(ax_parse, items_and_position)
{
	const char *t = "X3,22Fe27;X0,", *p = t;
	struct ax_expr *e = NULL;
	int64_t r = 42;

	cr_assert_eq(ax_parse(&p, t + strlen(t), &e), 0);
	cr_assert_eq(e->len, 3);
	cr_assert(!memcmp(e->bytes, "\x22\xfe\x27", 3));
	cr_assert_eq(p, t + 9);
	ax_free(e);
	/* The digits are there, but past END.  */
	p = t;
	cr_assert_eq(ax_parse(&p, t + 8, &e), -pse_invalid);
	cr_assert_eq(p, t);
	/* An empty expression parses, as with gdbserver, but cannot run.  */
	p = t + 10;
	cr_assert_eq(ax_parse(&p, t + strlen(t), &e), 0);
	cr_assert_eq(e->len, 0);
	cr_assert_eq(ax_eval(e, &(struct ax_context) { 0 }, &r), -pse_invalid);
	cr_assert_eq(r, 42);
	ax_free(e);
}

Test(ax_parse, malformed_items_leave_input)
{
	static const struct { const char *text; int err; } cases[] = {
		{ "", -pse_invalid }, { "Y3,220327", -pse_invalid },
		{ "X,27", -pse_invalid }, { "X1", -pse_invalid },
		{ "X1;27", -pse_invalid },
		{ "X3,2203", -pse_invalid },      /* fewer bytes than said */
		{ "X2,22z7", -pse_badhex }, { "X10001,", -pse_toolong },
		{ "X10000000000000000,", -pse_toolong },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *t = cases[i].text, *p = t;
		struct ax_expr *e = (struct ax_expr *) &cases;

		cr_assert_eq(ax_parse(&p, t + strlen(t), &e), cases[i].err,
			     "%s", t);
		cr_assert_eq(p, t, "%s", t);
		cr_assert_eq(e, (struct ax_expr *) &cases, "%s", t);
	}
}

/* Opcodes, one by one.  */

static uint64_t ref_binary(unsigned op, uint64_t a, uint64_t b)
{
	int64_t sa = (int64_t) a, sb = (int64_t) b;

	switch (op) {
	case ax_op_add: return a + b;
	case ax_op_sub: return a - b;
	case ax_op_mul: return a * b;
	case ax_op_div_signed: return sb == -1 ? -a : (uint64_t) (sa / sb);
	case ax_op_div_unsigned: return a / b;
	case ax_op_rem_signed: return sb == -1 ? 0 : (uint64_t) (sa % sb);
	case ax_op_rem_unsigned: return a % b;
	case ax_op_lsh: return a << (b % 64);
	case ax_op_rsh_signed: return (uint64_t) (sa >> (b % 64));
	case ax_op_rsh_unsigned: return a >> (b % 64);
	case ax_op_bit_and: return a & b;
	case ax_op_bit_or: return a | b;
	case ax_op_bit_xor: return a ^ b;
	case ax_op_equal: return a == b;
	case ax_op_less_signed: return sa < sb;
	case ax_op_less_unsigned: return a < b;
	}
	cr_assert_fail("no reference for op %#x", op);
	return 0;
}

Test(ax_eval, binary_operators_against_c)
{
	static const uint64_t vals[] = {
		0, 1, 2, 3, 7, 63, 64, 65, 0xff, 0x80000000, 0xffffffff,
		(uint64_t) -1, (uint64_t) -2, (uint64_t) -7, (uint64_t) INT64_MIN,
		INT64_MAX, 0x0123456789abcdef,
	};
	struct ax_context ctx = { 0 };
	size_t nv = sizeof(vals) / sizeof(vals[0]);

	for (unsigned op = ax_op_add; op <= ax_op_less_unsigned; op++) {
		if (op >= ax_op_trace && op <= ax_op_log_not)
			continue;
		if (op == ax_op_bit_not)
			continue;
		for (size_t i = 0; i < nv * nv; i++) {
			uint64_t a = vals[i / nv], b = vals[i % nv];
			bool div = op >= ax_op_div_signed &&
				   op <= ax_op_rem_unsigned;
			struct as s = { .n = 0 };
			int64_t r = 0;

			as_const64(&s, a);
			as_const64(&s, b);
			as_u8(&s, op);
			as_u8(&s, ax_op_end);
			if (div && !b) {
				cr_assert_eq(run_code(&ctx, s.b, s.n, &r), -pse_range);
				continue;
			}
			cr_assert_eq(run_code(&ctx, s.b, s.n, &r), 0);
			cr_assert_eq((uint64_t) r, ref_binary(op, a, b),
				     "op %#x %lx %lx", op, (unsigned long) a,
				     (unsigned long) b);
		}
	}
}

Test(ax_eval, operators_by_hand)
{
	/* a b => a-b, a/b, a%b, a<b: the deeper entry is the left operand.  */
	EXPECT(0, -3, 0x22, 7, 0x22, 10, ax_op_sub, 0x27);
	/* -7 / 2 and -7 % 2 truncate toward zero.  */
	EXPECT(0, -3, 0x22, 0xf9, 0x16, 8, 0x22, 2, ax_op_div_signed, 0x27);
	EXPECT(0, -1, 0x22, 0xf9, 0x16, 8, 0x22, 2, ax_op_rem_signed, 0x27);
	/* const8 does not sign-extend: 0xf9 / 2 */
	EXPECT(0, 124, 0x22, 0xf9, 0x22, 2, ax_op_div_unsigned, 0x27);
	EXPECT(0, 1, 0x22, 1, 0x22, 2, ax_op_less_signed, 0x27);
	/* -1 is huge unsigned */
	EXPECT(0, 0, 0x22, 0xff, 0x16, 8, 0x22, 2, ax_op_less_unsigned, 0x27);
	EXPECT(0, 16, 0x22, 1, 0x22, 4, ax_op_lsh, 0x27);
	EXPECT(0, -8, 0x22, 0x80, 0x16, 8, 0x22, 4, ax_op_rsh_signed, 0x27);
	/* INT64_MIN / -1 wraps (the hardware would trap); the rest is 0.  */
	EXPECT(0, INT64_MIN, 0x25, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x22, 0xff,
	       0x16, 8, ax_op_div_signed, 0x27);
	EXPECT(0, 0, 0x25, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x22, 0xff,
	       0x16, 8, ax_op_rem_signed, 0x27);
	EXPECT(0, 1, 0x22, 0, ax_op_log_not, 0x27);
	EXPECT(0, 0, 0x22, 9, ax_op_log_not, 0x27);
	EXPECT(0, ~(int64_t) 0x0f, 0x22, 0x0f, ax_op_bit_not, 0x27);
	/* Constants are big-endian and never sign-extended.  */
	EXPECT(0, 0xff, 0x22, 0xff, 0x27);
	EXPECT(0, 0x1234, 0x23, 0x12, 0x34, 0x27);
	EXPECT(0, 0x89abcdef, 0x24, 0x89, 0xab, 0xcd, 0xef, 0x27);
	EXPECT(0, (int64_t) 0x8000000000000001,
	       0x25, 0x80, 0, 0, 0, 0, 0, 0, 1, 0x27);
}

Test(ax_eval, ext_and_zero_ext_every_width)
{
	static const uint64_t vals[] = {
		0, 1, 0x7f, 0x80, 0xff, 0xdc, 0x8000, 0xffff1234,
		0x80000000, 0x123456789abcdef0, (uint64_t) -1, (uint64_t) INT64_MIN,
	};
	struct ax_context ctx = { 0 };

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (unsigned n = 0; n <= 70; n++) {
			uint64_t v = vals[i], sx = v, zx = v;
			struct as a = { .n = 0 };
			int64_t r;

			if (!n) {
				sx = zx = 0;
			} else if (n < 64) {
				sx = (uint64_t) ((int64_t) (v << (64 - n)) >>
						 (64 - n));
				zx = (v << (64 - n)) >> (64 - n);
			}
			as_const64(&a, v);
			as_u8(&a, ax_op_ext);
			as_u8(&a, n);
			as_u8(&a, ax_op_end);
			cr_assert_eq(run_code(&ctx, a.b, a.n, &r), 0);
			cr_assert_eq((uint64_t) r, sx, "ext %u of %lx", n,
				     (unsigned long) v);
			a.b[9] = ax_op_zero_ext;
			cr_assert_eq(run_code(&ctx, a.b, a.n, &r), 0);
			cr_assert_eq((uint64_t) r, zx, "zero_ext %u of %lx", n,
				     (unsigned long) v);
		}
}

Test(ax_eval, refs_read_little_endian_target_memory)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct fake_region *m = fake_map(&f, 0x601000, 16);

	for (unsigned i = 0; i < 16; i++)
		m->bytes[i] = (uint8_t) (0xf1 + i * 0x11);
	for (unsigned k = 0; k < 4; k++) {
		unsigned size = 1u << k;
		struct as a = { .n = 0 };
		int64_t r;

		for (unsigned off = 0; off + size <= 16; off++) {
			uint64_t want = 0;

			for (unsigned b = 0; b < size; b++)
				want |= (uint64_t) m->bytes[off + b] << 8 * b;
			a.n = 0;
			as_const64(&a, 0x601000 + off);
			as_u8(&a, ax_op_ref8 + k);
			as_u8(&a, ax_op_end);
			f.mem_reads = 0;
			cr_assert_eq(run_code(&ctx, a.b, a.n, &r), 0);
			cr_assert_eq((uint64_t) r, want, "ref%u at +%u",
				     8 * size, off);
			cr_assert_eq(f.mem_reads, 1);
		}
		/* Straddling the end of the mapping (short), or past it.  */
		a.n = 0;
		as_const64(&a, 0x601000 + 17 - size);
		as_u8(&a, ax_op_ref8 + k);
		as_u8(&a, ax_op_end);
		cr_assert_eq(run_code(&ctx, a.b, a.n, &r), -pse_fault);
	}
}

Test(ax_eval, reg_reads_by_gdb_regno)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	int64_t r;

	fake_set_reg(&f, 6, 0x7fffffffe630);
	fake_set_reg(&f, 17, 0x246);
	cr_assert_eq(run_code(&ctx, CODE(0x26, 0, 6, 0x26, 0, 17, ax_op_add,
					 0x27), &r), 0);
	cr_assert_eq(r, 0x7fffffffe630 + 0x246);
	cr_assert_eq(f.reg_reads, 2);
	/* The regno operand is 16 bits, big-endian: 0x0106 is not 6.  */
	cr_assert_eq(run_code(&ctx, CODE(0x26, 1, 6, 0x27), &r), -pse_range);
	ctx.read_reg = NULL;
	cr_assert_eq(run_code(&ctx, CODE(0x26, 0, 6, 0x27), &r),
		     -pse_unsupported);
	ctx.read_mem = NULL;
	cr_assert_eq(run_code(&ctx, CODE(0x22, 0, 0x17, 0x27), &r),
		     -pse_unsupported);
}

Test(ax_eval, stack_shuffles)
{
	/* 1 2 swap sub => 2-1 */
	EXPECT(0, 1, 0x22, 1, 0x22, 2, ax_op_swap, ax_op_sub, 0x27);
	EXPECT(0, 25, 0x22, 5, ax_op_dup, ax_op_mul, 0x27);
	EXPECT(0, 5, 0x22, 5, 0x22, 6, ax_op_pop, 0x27);
	/* pick 0 is dup; pick 2 copies the third entry from the top.  */
	EXPECT(0, 16, 0x22, 4, ax_op_pick, 0, ax_op_mul, 0x27);
	EXPECT(0, 10, 0x22, 10, 0x22, 20, 0x22, 30, ax_op_pick, 2, 0x27);
	/* 1 2 3 rot => 3 1 2, read from the top down.  */
	EXPECT(0, 2, 0x22, 1, 0x22, 2, 0x22, 3, ax_op_rot, 0x27);
	EXPECT(0, 1, 0x22, 1, 0x22, 2, 0x22, 3, ax_op_rot, ax_op_pop, 0x27);
	EXPECT(0, 3, 0x22, 1, 0x22, 2, 0x22, 3, ax_op_rot, ax_op_pop,
	       ax_op_pop, 0x27);
}

Test(ax_eval, jumps)
{
	/* 0: const8 C; 2: if_goto 8; 5: const8 11; 7: end; 8: const8 22; end */
	for (unsigned c = 0; c < 3; c++)
		EXPECT(0, c ? 22 : 11, 0x22, c, 0x20, 0, 8, 0x22, 11, 0x27,
		       0x22, 22, 0x27);
	/* if_goto pops its operand either way.  */
	EXPECT(0, 7, 0x22, 7, 0x22, 0, 0x20, 0, 7, 0x27);
	EXPECT(0, 2, 0x21, 0, 5, 0x22, 1, 0x22, 2, 0x27);
	/* A target past the end is only an error when taken.  */
	EXPECT(0, 3, 0x22, 0, 0x20, 0xff, 0xff, 0x22, 3, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, 0x20, 0xff, 0xff, 0x22, 3, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, 0x21, 0, 7, 0x27, 0x27);
	EXPECT(0, 1, 0x22, 1, 0x21, 0, 5, 0x27);
}

Test(ax_eval, trace_opcodes_only_consume_their_operands)
{
	/* trace: addr size => ; tracenz likewise.  */
	EXPECT(0, 5, 0x22, 5, 0x22, 1, 0x22, 2, ax_op_trace, 0x27);
	EXPECT(0, 5, 0x22, 5, 0x22, 1, 0x22, 2, ax_op_tracenz, 0x27);
	/* trace_quick SIZE: addr => addr; tracev N: no stack effect.  */
	EXPECT(0, 9, 0x22, 9, ax_op_trace_quick, 4, 0x27);
	EXPECT(0, 9, 0x22, 9, ax_op_tracev, 0, 1, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, ax_op_trace, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, ax_op_tracenz, 0x27);
	EXPECT(-pse_invalid, 0, ax_op_trace_quick, 4, 0x27);
}

/* What every opcode byte does after three entries, followed by 0x27
   bytes (operands if it takes any, else `end`).  */
Test(ax_eval, every_opcode_byte_is_classified)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);

	for (unsigned op = 0; op < 256; op++) {
		uint8_t code[16] = { 0x22, 1, 0x22, 2, 0x22, 3, (uint8_t) op };
		int64_t r;
		int want;

		memset(code + 7, 0x27, sizeof(code) - 7);
		switch (op) {
		case ax_op_float: case ax_op_ref_float: case ax_op_ref_double:
		case ax_op_ref_long_double: case ax_op_l_to_d:
		case ax_op_d_to_l: case ax_op_trace16:
			want = -pse_unsupported;
			break;
		case ax_op_getv: case ax_op_setv:
			want = -pse_notfound;
			break;
		case ax_op_ref8: case ax_op_ref16: case ax_op_ref32:
		case ax_op_ref64:
			want = -pse_fault;    /* address 3: nothing mapped */
			break;
		case ax_op_reg:
			want = -pse_range;    /* register 0x2727 */
			break;
		case ax_op_goto: case ax_op_if_goto: /* to 0x2727 */
		case ax_op_pick:                     /* 39 deep */
		case ax_op_printf:          /* a 0x2727-byte format */
			want = -pse_invalid;
			break;
		default:
			want = op >= ax_op_add && op <= ax_op_rot &&
			       op != ax_op_invalid2 ? 0 : -pse_invalid;
		}
		cr_assert_eq(run_code(&ctx, code, sizeof(code), &r), want,
			     "op %#x", op);
	}
}

Test(ax_eval, truncated_operands)
{
	static const struct { uint8_t op; unsigned imm; } ops[] = {
		{ ax_op_const8, 1 }, { ax_op_const16, 2 }, { ax_op_const32, 4 },
		{ ax_op_const64, 8 }, { ax_op_reg, 2 }, { ax_op_if_goto, 2 },
		{ ax_op_goto, 2 }, { ax_op_ext, 1 }, { ax_op_zero_ext, 1 },
		{ ax_op_pick, 1 }, { ax_op_trace_quick, 1 }, { ax_op_tracev, 2 },
	};
	struct ax_context ctx = { 0 };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		for (unsigned have = 0; have < ops[i].imm; have++) {
			/* A value on the stack first, so only the operand is
			   missing; a 0x27 operand byte must not pass as end.  */
			uint8_t code[12] = { 0x22, 1, ops[i].op };
			int64_t r = 77;

			memset(code + 3, 0x27, have);
			cr_assert_eq(run_code(&ctx, code, 3 + have, &r),
				     -pse_invalid, "op %#x with %u operand bytes",
				     ops[i].op, have);
			cr_assert_eq(r, 77);
		}
}

Test(ax_eval, malformed_programs_fail)
{
	EXPECT(-pse_invalid, 0, 0x22, 1);            /* no end */
	EXPECT(-pse_invalid, 0, 0x27);               /* empty stack */
	EXPECT(-pse_invalid, 0, ax_op_add, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, ax_op_add, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, ax_op_swap, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, 0x22, 2, ax_op_rot, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, ax_op_pick, 1, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, ax_op_pick, 255, 0x27);
	EXPECT(-pse_invalid, 0, ax_op_pop, 0x27);
	EXPECT(-pse_invalid, 0, ax_op_dup, 0x27);
	EXPECT(-pse_invalid, 0, ax_op_log_not, 0x27);
	EXPECT(-pse_invalid, 0, ax_op_if_goto, 0, 0, 0x27);
	EXPECT(-pse_invalid, 0, 0x22, 1, ax_op_pop, 0x27);
	/* Division by zero, every flavour.  */
	for (uint8_t op = ax_op_div_signed; op <= ax_op_rem_unsigned; op++)
		EXPECT(-pse_range, 0, 0x22, 9, 0x22, 0, op, 0x27);
}

Test(ax_eval, stack_depth_limit)
{
	struct ax_context ctx = { 0 };

	for (unsigned depth = AX_STACK_MAX - 1; depth <= AX_STACK_MAX + 1;
	     depth++) {
		struct as a = { .n = 0 };
		int64_t r = 0;

		for (unsigned i = 0; i < depth; i++) {
			as_u8(&a, ax_op_const8);
			as_u8(&a, i);
		}
		as_u8(&a, ax_op_end);
		cr_assert_eq(run_code(&ctx, a.b, a.n, &r),
			     depth <= AX_STACK_MAX ? 0 : -pse_nospace,
			     "depth %u", depth);
		if (depth <= AX_STACK_MAX)
			cr_assert_eq(r, depth - 1);
		/* dup and pick grow the stack too.  */
		a.b[a.n - 1] = ax_op_dup;
		as_u8(&a, ax_op_end);
		cr_assert_eq(run_code(&ctx, a.b, a.n, &r),
			     depth < AX_STACK_MAX ? 0 : -pse_nospace);
		a.b[a.n - 2] = ax_op_pick;
		a.b[a.n - 1] = 0;
		as_u8(&a, ax_op_end);
		cr_assert_eq(run_code(&ctx, a.b, a.n, &r),
			     depth < AX_STACK_MAX ? 0 : -pse_nospace);
	}
}

Test(ax_eval, step_limit_stops_loops)
{
	struct ax_context ctx = { 0 };
	unsigned ok = (AX_MAX_STEPS - 2) / 4;

	EXPECT(-pse_toolong, 0, 0x21, 0, 0);
	EXPECT(-pse_toolong, 0, 0x22, 1, 0x20, 0, 0);
	/* A countdown loop: 0: const16 N; 3: const8 1; sub; dup;
	   if_goto 3; end.  It runs 2 + 4N opcodes: fine up to the limit.  */
	for (unsigned n = ok - 1; n <= ok + 1; n++) {
		int64_t r = 5;

		cr_assert_eq(run_code(&ctx, CODE(0x23, (uint8_t) (n >> 8),
						 (uint8_t) n, 0x22, 1, ax_op_sub,
						 ax_op_dup, 0x20, 0, 3, 0x27),
				      &r),
			     n <= ok ? 0 : -pse_toolong, "n %u", n);
		cr_assert_eq(r, n <= ok ? 0 : 5);
	}
}

/* Random bytecode must end in a result or one of the documented errors,
   with ASan/UBSan watching for anything worse.  */
Test(ax_eval, random_bytecode_never_crashes)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct fake_region *m = fake_map(&f, 0, 64);
	uint64_t seed = 0x9e3779b97f4a7c15;
	unsigned results = 0;

	for (unsigned i = 0; i < 64; i++)
		m->bytes[i] = (uint8_t) (i * 7);
	for (unsigned i = 0; i < 32; i++)
		fake_set_reg(&f, i, i * 3);
	for (unsigned iter = 0; iter < 20000; iter++) {
		struct as a = { .n = 1 + iter % 40 };
		int64_t r;
		int err;

		for (size_t k = 0; k < a.n; k++) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			/* Mostly real opcodes, else small operands.  */
			a.b[k] = (uint8_t) (seed >> 59 & 1 ? (seed >> 33) % 0x36
							   : (seed >> 40) % 8);
		}
		err = run_code(&ctx, a.b, a.n, &r);
		cr_assert(err == 0 || err == -pse_invalid ||
			  err == -pse_nospace || err == -pse_range ||
			  err == -pse_toolong || err == -pse_unsupported ||
			  err == -pse_notfound || err == -pse_fault,
			  "iteration %u: %d", iter, err);
		results += !err;
	}
	/* The generator is not so hostile that nothing ever evaluates.  */
	cr_assert_gt(results, 0);
}
