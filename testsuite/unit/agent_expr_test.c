#include "server/agent_expr.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A fake stopped thread: a few memory regions and a register file, with
   counters so tests can tell what the evaluator looked at.  */
struct fake_region {
	uint64_t addr;
	size_t len;
	uint8_t bytes[256];
};

struct fake {
	struct fake_region mem[4];
	size_t nmem;
	uint64_t regs[80];
	bool reg_ok[80];
	unsigned mem_reads, reg_reads;
};

static long fake_read_mem(void *data, uint64_t addr, void *buf, size_t len)
{
	struct fake *f = data;

	f->mem_reads++;
	for (size_t i = 0; i < f->nmem; i++) {
		struct fake_region *r = &f->mem[i];

		if (addr < r->addr || addr - r->addr >= r->len)
			continue;
		size_t off = addr - r->addr, n = r->len - off;

		if (n > len)
			n = len;
		memcpy(buf, r->bytes + off, n);
		return (long) n;   /* short at a region's end, like a fault */
	}
	return -pse_fault;
}

static int fake_read_reg(void *data, unsigned regno, uint64_t *value)
{
	struct fake *f = data;

	f->reg_reads++;
	if (regno >= 80 || !f->reg_ok[regno])
		return -pse_range;
	*value = f->regs[regno];
	return 0;
}

static struct fake_region *fake_map(struct fake *f, uint64_t addr,
				    size_t len)
{
	struct fake_region *r = &f->mem[f->nmem++];

	cr_assert_leq(f->nmem, 4);
	cr_assert_leq(len, sizeof(r->bytes));
	r->addr = addr;
	r->len = len;
	return r;
}

/* Store V little-endian in SIZE bytes at ADDR, inside a mapped region.  */
static void fake_put(struct fake *f, uint64_t addr, uint64_t v, size_t size)
{
	for (size_t i = 0; i < f->nmem; i++) {
		struct fake_region *r = &f->mem[i];

		if (addr >= r->addr && addr + size <= r->addr + r->len) {
			for (size_t k = 0; k < size; k++)
				r->bytes[addr - r->addr + k] = (uint8_t) (v >> 8 * k);
			return;
		}
	}
	cr_assert_fail("fake_put outside the fake memory: %lx",
		       (unsigned long) addr);
}

static void fake_set_reg(struct fake *f, unsigned regno, uint64_t v)
{
	f->regs[regno] = v;
	f->reg_ok[regno] = true;
}

static struct ax_context fake_ctx(struct fake *f)
{
	return (struct ax_context) {
		.read_mem = fake_read_mem, .read_reg = fake_read_reg, .data = f,
	};
}

/* A tiny assembler, so operands are written as numbers, big-endian.  */
struct as {
	uint8_t b[AX_MAX_LEN];
	size_t n;
};

static void as_u8(struct as *a, unsigned v) { a->b[a->n++] = (uint8_t) v; }

static void as_be(struct as *a, uint64_t v, unsigned size)
{
	while (size--)
		as_u8(a, (unsigned) (v >> 8 * size) & 0xff);
}

static void as_op1(struct as *a, unsigned op, unsigned arg)
{
	as_u8(a, op);
	as_u8(a, arg);
}

static void as_op2(struct as *a, unsigned op, unsigned arg)
{
	as_u8(a, op);
	as_be(a, arg, 2);
}

static void as_const64(struct as *a, uint64_t v)
{
	as_u8(a, ax_op_const64);
	as_be(a, v, 8);
}

static int as_run(const struct as *a, const struct ax_context *ctx,
		  int64_t *out)
{
	struct ax_expr *e;
	int err;

	cr_assert_eq(ax_alloc(a->b, a->n, &e), 0);
	err = ax_eval(e, ctx, out);
	ax_free(e);
	return err;
}

static int run_bytes(const uint8_t *code, size_t len, int64_t *out)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct as a = { .n = len };

	memcpy(a.b, code, len);
	return as_run(&a, &ctx, out);
}

#define RUN(out, ...) \
	run_bytes((const uint8_t[]) { __VA_ARGS__ }, \
		  sizeof((const uint8_t[]) { __VA_ARGS__ }), out)

/* Parsing "X<len>,<hex>".  */

Test(ax_parse, one_item_and_position)
{
	const char *t = "X3,22Fe27;X1,27", *p = t;
	struct ax_expr *e = NULL;

	cr_assert_eq(ax_parse(&p, t + strlen(t), &e), 0);
	cr_assert_eq(e->len, 3);
	cr_assert_eq(e->bytes[0], 0x22);
	cr_assert_eq(e->bytes[1], 0xfe);
	cr_assert_eq(e->bytes[2], 0x27);
	cr_assert_eq(p, t + 9);
	ax_free(e);
}

Test(ax_parse, malformed_items_leave_input)
{
	static const struct { const char *text; int err; } cases[] = {
		{ "", -pse_invalid },
		{ "Y3,220327", -pse_invalid },
		{ "X,27", -pse_invalid },
		{ "X1", -pse_invalid },
		{ "X1;27", -pse_invalid },
		{ "X3,2203", -pse_invalid },      /* fewer bytes than said */
		{ "X2,22z7", -pse_badhex },
		{ "X10001,", -pse_toolong },
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

Test(ax_parse, end_bounds_the_item)
{
	const char *t = "X2,2227", *p = t;
	struct ax_expr *e;

	/* The digits are there, but past END.  */
	cr_assert_eq(ax_parse(&p, t + 5, &e), -pse_invalid);
	cr_assert_eq(ax_parse(&p, t + 7, &e), 0);
	ax_free(e);
}

Test(ax_parse, empty_expression_parses_but_fails_to_run)
{
	const char *t = "X0,", *p = t;
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct ax_expr *e;
	int64_t r = 42;

	cr_assert_eq(ax_parse(&p, t + 3, &e), 0);
	cr_assert_eq(e->len, 0);
	cr_assert_eq(ax_eval(e, &ctx, &r), -pse_invalid);
	cr_assert_eq(r, 42);
	ax_free(e);
}

/* Opcodes, one by one.  */

static uint64_t ref_binary(unsigned op, uint64_t a, uint64_t b)
{
	int64_t sa = (int64_t) a, sb = (int64_t) b;

	switch (op) {
	case ax_op_add: return a + b;
	case ax_op_sub: return a - b;
	case ax_op_mul: return a * b;
	case ax_op_div_signed:
		return sb == -1 ? -a : (uint64_t) (sa / sb);
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
	static const unsigned ops[] = {
		ax_op_add, ax_op_sub, ax_op_mul, ax_op_div_signed,
		ax_op_div_unsigned, ax_op_rem_signed, ax_op_rem_unsigned,
		ax_op_lsh, ax_op_rsh_signed, ax_op_rsh_unsigned,
		ax_op_bit_and, ax_op_bit_or, ax_op_bit_xor, ax_op_equal,
		ax_op_less_signed, ax_op_less_unsigned,
	};
	static const uint64_t vals[] = {
		0, 1, 2, 3, 7, 63, 64, 65, 0xff, 0x80000000, 0xffffffff,
		(uint64_t) -1, (uint64_t) -2, (uint64_t) -7, (uint64_t) INT64_MIN,
		INT64_MAX, 0x0123456789abcdef,
	};
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	size_t nv = sizeof(vals) / sizeof(vals[0]);

	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
		for (size_t i = 0; i < nv; i++)
			for (size_t j = 0; j < nv; j++) {
				struct as a = { .n = 0 };
				int64_t r = 0;
				bool div = ops[o] >= ax_op_div_signed &&
					   ops[o] <= ax_op_rem_unsigned;

				as_const64(&a, vals[i]);
				as_const64(&a, vals[j]);
				as_u8(&a, ops[o]);
				as_u8(&a, ax_op_end);
				if (div && !vals[j]) {
					cr_assert_eq(as_run(&a, &ctx, &r),
						     -pse_range);
					continue;
				}
				cr_assert_eq(as_run(&a, &ctx, &r), 0);
				cr_assert_eq((uint64_t) r,
					     ref_binary(ops[o], vals[i], vals[j]),
					     "op %#x %lx %lx", ops[o],
					     (unsigned long) vals[i],
					     (unsigned long) vals[j]);
			}
}

Test(ax_eval, operand_order_by_hand)
{
	int64_t r;

	/* a b => a-b, a/b, a%b, a<b: the deeper entry is the left operand.  */
	cr_assert_eq(RUN(&r, 0x22, 7, 0x22, 10, ax_op_sub, 0x27), 0);
	cr_assert_eq(r, -3);
	cr_assert_eq(RUN(&r, 0x22, 0xf9, 0x16, 8, 0x22, 2,
			 ax_op_div_signed, 0x27), 0);
	cr_assert_eq(r, -3);    /* -7 / 2 truncates toward zero */
	cr_assert_eq(RUN(&r, 0x22, 0xf9, 0x16, 8, 0x22, 2,
			 ax_op_rem_signed, 0x27), 0);
	cr_assert_eq(r, -1);
	cr_assert_eq(RUN(&r, 0x22, 0xf9, 0x22, 2, ax_op_div_unsigned, 0x27), 0);
	cr_assert_eq(r, 124);   /* 0xf9 was not sign-extended */
	cr_assert_eq(RUN(&r, 0x22, 1, 0x22, 2, ax_op_less_signed, 0x27), 0);
	cr_assert_eq(r, 1);
	cr_assert_eq(RUN(&r, 0x22, 0xff, 0x16, 8, 0x22, 2,
			 ax_op_less_unsigned, 0x27), 0);
	cr_assert_eq(r, 0);     /* -1 is huge unsigned */
	cr_assert_eq(RUN(&r, 0x22, 1, 0x22, 4, ax_op_lsh, 0x27), 0);
	cr_assert_eq(r, 16);
	cr_assert_eq(RUN(&r, 0x22, 0x80, 0x16, 8, 0x22, 4,
			 ax_op_rsh_signed, 0x27), 0);
	cr_assert_eq(r, -8);
}

Test(ax_eval, int64_min_div_minus_one_does_not_trap)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct as a = { .n = 0 };
	int64_t r = 0;

	as_const64(&a, (uint64_t) INT64_MIN);
	as_const64(&a, (uint64_t) -1);
	as_u8(&a, ax_op_div_signed);
	as_u8(&a, ax_op_end);
	cr_assert_eq(as_run(&a, &ctx, &r), 0);
	cr_assert_eq(r, INT64_MIN);
	a.b[a.n - 2] = ax_op_rem_signed;
	cr_assert_eq(as_run(&a, &ctx, &r), 0);
	cr_assert_eq(r, 0);
}

Test(ax_eval, unary_operators)
{
	int64_t r;

	cr_assert_eq(RUN(&r, 0x22, 0, ax_op_log_not, 0x27), 0);
	cr_assert_eq(r, 1);
	cr_assert_eq(RUN(&r, 0x22, 9, ax_op_log_not, 0x27), 0);
	cr_assert_eq(r, 0);
	cr_assert_eq(RUN(&r, 0x22, 0x0f, ax_op_bit_not, 0x27), 0);
	cr_assert_eq(r, ~(int64_t) 0x0f);
}

Test(ax_eval, ext_and_zero_ext_every_width)
{
	static const uint64_t vals[] = {
		0, 1, 0x7f, 0x80, 0xff, 0xdc, 0x8000, 0xffff1234,
		0x80000000, 0x123456789abcdef0, (uint64_t) -1, (uint64_t) INT64_MIN,
	};
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (unsigned n = 0; n <= 70; n++) {
			uint64_t v = vals[i], sx, zx;
			struct as a = { .n = 0 };
			int64_t r;

			if (n >= 64) {
				sx = zx = v;
			} else if (!n) {
				sx = zx = 0;
			} else {
				sx = (uint64_t) ((int64_t) (v << (64 - n)) >>
						 (64 - n));
				zx = (v << (64 - n)) >> (64 - n);
			}
			as_const64(&a, v);
			as_op1(&a, ax_op_ext, n);
			as_u8(&a, ax_op_end);
			cr_assert_eq(as_run(&a, &ctx, &r), 0);
			cr_assert_eq((uint64_t) r, sx, "ext %u of %lx", n,
				     (unsigned long) v);
			a.b[9] = ax_op_zero_ext;
			cr_assert_eq(as_run(&a, &ctx, &r), 0);
			cr_assert_eq((uint64_t) r, zx, "zero_ext %u of %lx", n,
				     (unsigned long) v);
		}
}

Test(ax_eval, constants_are_big_endian_and_not_sign_extended)
{
	int64_t r;

	cr_assert_eq(RUN(&r, 0x22, 0xff, 0x27), 0);
	cr_assert_eq(r, 0xff);
	cr_assert_eq(RUN(&r, 0x23, 0x12, 0x34, 0x27), 0);
	cr_assert_eq(r, 0x1234);
	cr_assert_eq(RUN(&r, 0x24, 0x89, 0xab, 0xcd, 0xef, 0x27), 0);
	cr_assert_eq(r, 0x89abcdef);
	cr_assert_eq(RUN(&r, 0x25, 0x80, 0, 0, 0, 0, 0, 0, 1, 0x27), 0);
	cr_assert_eq((uint64_t) r, 0x8000000000000001);
}

Test(ax_eval, refs_read_little_endian_target_memory)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct fake_region *m = fake_map(&f, 0x601000, 16);
	static const unsigned ops[] = {
		ax_op_ref8, ax_op_ref16, ax_op_ref32, ax_op_ref64,
	};

	for (unsigned i = 0; i < 16; i++)
		m->bytes[i] = (uint8_t) (0xf1 + i * 0x11);
	for (unsigned k = 0; k < 4; k++) {
		unsigned size = 1u << k;

		for (unsigned off = 0; off + size <= 16; off++) {
			struct as a = { .n = 0 };
			uint64_t want = 0;
			int64_t r;

			for (unsigned b = 0; b < size; b++)
				want |= (uint64_t) m->bytes[off + b] << 8 * b;
			as_const64(&a, 0x601000 + off);
			as_u8(&a, ops[k]);
			as_u8(&a, ax_op_end);
			f.mem_reads = 0;
			cr_assert_eq(as_run(&a, &ctx, &r), 0);
			cr_assert_eq((uint64_t) r, want, "ref%u at +%u",
				     8 * size, off);
			cr_assert_eq(f.mem_reads, 1);
		}
		/* Straddling the end of the mapping, and past it.  */
		struct as a = { .n = 0 };
		int64_t r;

		as_const64(&a, 0x601000 + 17 - size);
		as_u8(&a, ops[k]);
		as_u8(&a, ax_op_end);
		cr_assert_eq(as_run(&a, &ctx, &r), -pse_fault);
	}
}

Test(ax_eval, reg_reads_by_gdb_regno)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	int64_t r;
	struct as a = { .n = 0 };

	fake_set_reg(&f, 6, 0x7fffffffe630);
	fake_set_reg(&f, 17, 0x246);
	as_op2(&a, ax_op_reg, 6);
	as_op2(&a, ax_op_reg, 17);
	as_u8(&a, ax_op_add);
	as_u8(&a, ax_op_end);
	cr_assert_eq(as_run(&a, &ctx, &r), 0);
	cr_assert_eq(r, 0x7fffffffe630 + 0x246);
	cr_assert_eq(f.reg_reads, 2);

	/* The regno operand is 16 bits, big-endian: 0x0106 is not 6.  */
	a.n = 0;
	as_op2(&a, ax_op_reg, 0x106);
	as_u8(&a, ax_op_end);
	cr_assert_eq(as_run(&a, &ctx, &r), -pse_range);

	ctx.read_reg = NULL;
	a.n = 0;
	as_op2(&a, ax_op_reg, 6);
	as_u8(&a, ax_op_end);
	cr_assert_eq(as_run(&a, &ctx, &r), -pse_unsupported);
	ctx.read_mem = NULL;
	a.n = 0;
	as_op1(&a, ax_op_const8, 0);
	as_u8(&a, ax_op_ref8);
	as_u8(&a, ax_op_end);
	cr_assert_eq(as_run(&a, &ctx, &r), -pse_unsupported);
}

Test(ax_eval, stack_shuffles)
{
	int64_t r;

	/* 1 2 swap sub => 2-1 */
	cr_assert_eq(RUN(&r, 0x22, 1, 0x22, 2, ax_op_swap, ax_op_sub, 0x27), 0);
	cr_assert_eq(r, 1);
	cr_assert_eq(RUN(&r, 0x22, 5, ax_op_dup, ax_op_mul, 0x27), 0);
	cr_assert_eq(r, 25);
	cr_assert_eq(RUN(&r, 0x22, 5, 0x22, 6, ax_op_pop, 0x27), 0);
	cr_assert_eq(r, 5);
	/* pick 0 is dup; pick 2 copies the third entry from the top.  */
	cr_assert_eq(RUN(&r, 0x22, 4, ax_op_pick, 0, ax_op_mul, 0x27), 0);
	cr_assert_eq(r, 16);
	cr_assert_eq(RUN(&r, 0x22, 10, 0x22, 20, 0x22, 30, ax_op_pick, 2,
			 0x27), 0);
	cr_assert_eq(r, 10);
	/* a b c rot => c a b: check all three positions.  */
	for (unsigned pos = 0; pos < 3; pos++) {
		static const int64_t want[3] = { 2, 1, 3 };
		uint8_t code[16] = { 0x22, 1, 0x22, 2, 0x22, 3, ax_op_rot };
		size_t n = 7;

		for (unsigned k = 0; k < pos; k++)
			code[n++] = ax_op_pop;
		code[n++] = 0x27;
		cr_assert_eq(run_bytes(code, n, &r), 0);
		cr_assert_eq(r, want[pos], "position %u", pos);
	}
}

Test(ax_eval, jumps)
{
	int64_t r;

	/* 0: const8 C; 2: if_goto 8; 5: const8 11; 7: end; 8: const8 22; end */
	for (unsigned c = 0; c < 3; c++) {
		cr_assert_eq(RUN(&r, 0x22, c, 0x20, 0, 8, 0x22, 11, 0x27,
				 0x22, 22, 0x27), 0);
		cr_assert_eq(r, c ? 22 : 11);
	}
	/* if_goto pops its operand either way.  */
	cr_assert_eq(RUN(&r, 0x22, 7, 0x22, 0, 0x20, 0, 7, 0x27), 0);
	cr_assert_eq(r, 7);
	cr_assert_eq(RUN(&r, 0x21, 0, 5, 0x22, 1, 0x22, 2, 0x27), 0);
	cr_assert_eq(r, 2);
	/* A target past the end is only an error when taken.  */
	cr_assert_eq(RUN(&r, 0x22, 0, 0x20, 0xff, 0xff, 0x22, 3, 0x27), 0);
	cr_assert_eq(r, 3);
	cr_assert_eq(RUN(&r, 0x22, 1, 0x20, 0xff, 0xff, 0x22, 3, 0x27),
		     -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, 0x21, 0, 7, 0x27, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, 0x21, 0, 5, 0x27), 0);
	cr_assert_eq(r, 1);
}

Test(ax_eval, trace_opcodes_only_consume_their_operands)
{
	int64_t r;

	/* trace: addr size => ; tracenz likewise.  */
	cr_assert_eq(RUN(&r, 0x22, 5, 0x22, 1, 0x22, 2, ax_op_trace, 0x27), 0);
	cr_assert_eq(r, 5);
	cr_assert_eq(RUN(&r, 0x22, 5, 0x22, 1, 0x22, 2, ax_op_tracenz, 0x27),
		     0);
	cr_assert_eq(r, 5);
	/* trace_quick SIZE: addr => addr; tracev N: no stack effect.  */
	cr_assert_eq(RUN(&r, 0x22, 9, ax_op_trace_quick, 4, 0x27), 0);
	cr_assert_eq(r, 9);
	cr_assert_eq(RUN(&r, 0x22, 9, ax_op_tracev, 0, 1, 0x27), 0);
	cr_assert_eq(r, 9);
	cr_assert_eq(RUN(&r, 0x22, 1, ax_op_trace, 0x27), -pse_invalid);
}

/* What every opcode byte does after three entries, followed by 0x27
   bytes (operands if it takes any, else `end`).  */
Test(ax_eval, every_opcode_byte_is_classified)
{
	for (unsigned op = 0; op < 256; op++) {
		uint8_t code[16] = { 0x22, 1, 0x22, 2, 0x22, 3, (uint8_t) op };
		int64_t r;
		int want;

		memset(code + 7, 0x27, sizeof(code) - 7);
		switch (op) {
		case ax_op_float: case ax_op_ref_float: case ax_op_ref_double:
		case ax_op_ref_long_double: case ax_op_l_to_d:
		case ax_op_d_to_l: case ax_op_trace16: case ax_op_printf:
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
			want = -pse_invalid;
			break;
		default:
			want = op >= ax_op_add && op <= ax_op_rot &&
			       op != ax_op_invalid2 ? 0 : -pse_invalid;
		}
		cr_assert_eq(run_bytes(code, sizeof(code), &r), want,
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

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		for (unsigned have = 0; have < ops[i].imm; have++) {
			/* A value on the stack first, so only the operand is
			   missing; a 0x27 operand byte must not pass as end.  */
			uint8_t code[12] = { 0x22, 1, ops[i].op };
			int64_t r = 77;

			memset(code + 3, 0x27, have);
			cr_assert_eq(run_bytes(code, 3 + have, &r), -pse_invalid,
				     "op %#x with %u operand bytes", ops[i].op,
				     have);
			cr_assert_eq(r, 77);
		}
}

Test(ax_eval, malformed_programs_fail)
{
	int64_t r = 77;

	cr_assert_eq(RUN(&r, 0x22, 1), -pse_invalid);            /* no end */
	cr_assert_eq(RUN(&r, 0x27), -pse_invalid);               /* empty */
	cr_assert_eq(RUN(&r, ax_op_add, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, ax_op_add, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, ax_op_swap, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, 0x22, 2, ax_op_rot, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, ax_op_pick, 1, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, ax_op_pick, 255, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, ax_op_pop, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, ax_op_dup, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, ax_op_log_not, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, ax_op_if_goto, 0, 0, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, ax_op_pop, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x00, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, 0x31, 0x27), -pse_invalid);
	cr_assert_eq(RUN(&r, 0x22, 1, 0xff, 0x27), -pse_invalid);
	cr_assert_eq(r, 77);
	/* Division by zero, every flavour.  */
	for (uint8_t op = ax_op_div_signed; op <= ax_op_rem_unsigned; op++)
		cr_assert_eq(RUN(&r, 0x22, 9, 0x22, 0, op, 0x27), -pse_range);
	cr_assert_eq(r, 77);
}

Test(ax_eval, stack_depth_limit)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);

	for (unsigned depth = AX_STACK_MAX - 1; depth <= AX_STACK_MAX + 1;
	     depth++) {
		struct as a = { .n = 0 };
		int64_t r = 0;

		for (unsigned i = 0; i < depth; i++)
			as_op1(&a, ax_op_const8, i & 0xff);
		as_u8(&a, ax_op_end);
		cr_assert_eq(as_run(&a, &ctx, &r),
			     depth <= AX_STACK_MAX ? 0 : -pse_nospace,
			     "depth %u", depth);
		if (depth <= AX_STACK_MAX)
			cr_assert_eq(r, (depth - 1) & 0xff);
		/* dup and pick grow the stack too.  */
		a.n--;
		as_u8(&a, ax_op_dup);
		as_u8(&a, ax_op_end);
		cr_assert_eq(as_run(&a, &ctx, &r),
			     depth < AX_STACK_MAX ? 0 : -pse_nospace);
		a.b[a.n - 2] = ax_op_pick;
		a.b[a.n - 1] = 0;
		as_u8(&a, ax_op_end);
		cr_assert_eq(as_run(&a, &ctx, &r),
			     depth < AX_STACK_MAX ? 0 : -pse_nospace);
	}
}

Test(ax_eval, step_limit_stops_loops)
{
	int64_t r = 5;

	cr_assert_eq(RUN(&r, 0x21, 0, 0), -pse_toolong);
	cr_assert_eq(RUN(&r, 0x22, 1, 0x20, 0, 0), -pse_toolong);
	cr_assert_eq(r, 5);

	/* A countdown loop: 0: const16 N; 3: const8 1; sub; dup;
	   if_goto 3; end.  It runs 2 + 4N opcodes: fine up to the limit.  */
	unsigned ok = (AX_MAX_STEPS - 2) / 4;

	for (unsigned n = ok - 1; n <= ok + 1; n++) {
		uint8_t code[] = { 0x23, (uint8_t) (n >> 8), (uint8_t) n,
				   0x22, 1, ax_op_sub,
				   ax_op_dup, 0x20, 0, 3, 0x27 };

		r = 5;
		cr_assert_eq(run_bytes(code, sizeof(code), &r),
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
			/* Mostly real opcodes and small operands.  */
			a.b[k] = (uint8_t) (seed >> 59 & 1 ? (seed >> 33) % 0x36
							   : (seed >> 40) % 8);
		}
		err = as_run(&a, &ctx, &r);
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

/* Real GDB 13.1 bytecode, captured from `set debug remote 1` against
   gdbserver for a -O0 program (x, y locals and p a parameter of f; g,
   gl, gp globals of struct { int x; short y; long z; unsigned char c; }):
     break f if x == 3
     break prog.c:8 if g == 7 && gp.y < 0      } one location: GDB
     break prog.c:8 if p->z == 300             } sends both conditions
   and likewise the other two packets.  `maint agent-eval` printed the
   same programs (e.g. reg 6 / const8 16 / add / const8 220 / ext 8 / add
   / ref32 / ext 32 / const8 3 / equal / end for x == 3).  */
static const char *const gdb_z0[] = {
	"Z0,555555555134,1;X12,26000622100222dc16080219162022031327",
	"Z0,55555555513c,1;X35,250000555555558010191620220713200015210032"
	"25000055555555802022040218161022001420002d2100322201210034220027"
	"X17,26000622100222d01608021a2208021a164023012c1327",
	"Z0,555555555134,1;X12,2500005555555580181a164022fd16081427"
	"X9,260005164022031327",
	"Z0,55555555513c,1;X42,26000622100222ec16080219162026000622100222"
	"dc1608021916202202041620130e20003f250000555555558020221002172300"
	"c81320003f2200210041220127X3c,26000622100222ec160802191620220613"
	"20001721003926000622100222d01608021a22040218161022fe160813200034"
	"210039220121003b220027",
};

#define RBP 0x7fffffffe630ull
#define G_ADDR 0x555555558010ull
#define GL_ADDR 0x555555558018ull
#define GP_ADDR 0x555555558020ull
#define OTHER_ADDR 0x555555558040ull   /* a second struct for p */

struct world {
	int x, y, g;
	long gl;
	uint64_t p, rdi;
	short py[2];            /* y field of gp, of the other struct */
	long pz[2];
	unsigned char pc;
};

static void world_load(struct fake *f, const struct world *w)
{
	memset(f, 0, sizeof(*f));
	fake_map(f, RBP - 0x30, 0x40);
	fake_map(f, 0x555555558000, 0x80);
	fake_set_reg(f, 6, RBP);
	fake_set_reg(f, 5, w->rdi);
	fake_put(f, RBP - 20, (uint32_t) w->x, 4);
	fake_put(f, RBP - 4, (uint32_t) w->y, 4);
	fake_put(f, RBP - 32, w->p, 8);
	fake_put(f, G_ADDR, (uint32_t) w->g, 4);
	fake_put(f, GL_ADDR, (uint64_t) w->gl, 8);
	for (int k = 0; k < 2; k++) {
		uint64_t s = k ? OTHER_ADDR : GP_ADDR;

		fake_put(f, s, 1, 4);
		fake_put(f, s + 4, (uint16_t) w->py[k], 2);
		fake_put(f, s + 8, (uint64_t) w->pz[k], 8);
		fake_put(f, s + 16, k ? 0 : w->pc, 1);
	}
}

/* The C meaning of each condition, in packet order.  */
static bool world_cond(const struct world *w, unsigned pkt, unsigned k)
{
	int p = w->p == OTHER_ADDR;

	switch (pkt * 2 + k) {
	case 0: return w->x == 3;
	case 2: return w->g == 7 && w->py[0] < 0;
	case 3: return w->pz[p] == 300;
	case 4: return w->gl < -3;
	case 5: return w->rdi == 3;
	case 6: return w->y != w->x * 2 || w->pc == 200;
	case 7: return w->y == 6 && w->py[p] == -2;
	}
	cr_assert_fail("no condition %u/%u", pkt, k);
	return false;
}

static void world_pick(struct world *w, unsigned i)
{
	static const int xs[] = { -3, 0, 3, 4 };
	static const long gls[] = { -5, -3, 0, INT64_MIN };

	w->x = xs[i % 4];
	w->y = (i / 4) % 3 == 0 ? w->x * 2 : (i / 4) % 3 == 1 ? 6 : -1;
	w->g = i / 12 % 2 ? 7 : 8;
	w->gl = gls[i / 24 % 4];
	w->p = i / 96 % 2 ? OTHER_ADDR : GP_ADDR;
	w->rdi = i % 5 == 0 ? 3 : 0x100000003;  /* high bits matter */
	w->py[0] = i / 3 % 2 ? -2 : 0;
	w->py[1] = i / 5 % 2 ? -2 : 7;
	w->pz[0] = i / 7 % 2 ? 300 : 301;
	w->pz[1] = i / 11 % 2 ? 300 : -300;
	w->pc = i / 13 % 2 ? 200 : 56;
}

static void parse_z0(const char *pkt, struct ax_cond_list *list,
		     uint64_t *addr)
{
	const char *p = pkt + 3, *end = pkt + strlen(pkt);
	uint64_t kind;

	cr_assert(!strncmp(pkt, "Z0,", 3));
	cr_assert_eq(ps_hex_parse_u64(&p, end, addr), 0);
	cr_assert_eq(*p++, ',');
	cr_assert_eq(ps_hex_parse_u64(&p, end, &kind), 0);
	cr_assert_eq(kind, 1);
	cr_assert_eq(ax_conds_parse_z(list, *addr, p, end), 0, "%s", pkt);
}

Test(ax_gdb, captured_conditions_evaluate_as_c_does)
{
	unsigned seen_true[4] = { 0 }, seen_false[4] = { 0 };

	for (unsigned pkt = 0; pkt < 4; pkt++) {
		struct ax_cond_list list;
		uint64_t addr;

		ax_cond_list_init(&list);
		parse_z0(gdb_z0[pkt], &list, &addr);
		cr_assert_eq(ax_conds_count(&list, addr), pkt ? 2 : 1);
		for (unsigned i = 0; i < 192; i++) {
			struct world w;
			struct fake f;
			struct ax_context ctx = fake_ctx(&f);
			bool any = false;

			world_pick(&w, i);
			world_load(&f, &w);
			for (unsigned k = 0; k < list.entries[0].count; k++) {
				int64_t r = -1;
				bool want = world_cond(&w, pkt, k);

				cr_assert_eq(ax_eval(list.entries[0].exprs[k],
						     &ctx, &r), 0);
				cr_assert_eq(r, want, "packet %u cond %u world %u",
					     pkt, k, i);
				any |= want;
			}
			cr_assert_eq(ax_conds_eval(&list, addr, &ctx), any);
			seen_true[pkt] += any;
			seen_false[pkt] += !any;
		}
		ax_cond_list_fini(&list);
	}
	/* The worlds exercise both outcomes of every packet.  */
	for (unsigned pkt = 0; pkt < 4; pkt++)
		cr_assert(seen_true[pkt] && seen_false[pkt], "packet %u", pkt);
}

Test(ax_gdb, packet_matches_maint_agent_eval_listing)
{
	const char *t = strchr(gdb_z0[0], 'X'), *p = t;
	struct ax_expr *e;
	struct as a = { .n = 0 };

	as_op2(&a, ax_op_reg, 6);
	as_op1(&a, ax_op_const8, 16);
	as_u8(&a, ax_op_add);
	as_op1(&a, ax_op_const8, 220);
	as_op1(&a, ax_op_ext, 8);
	as_u8(&a, ax_op_add);
	as_u8(&a, ax_op_ref32);
	as_op1(&a, ax_op_ext, 32);
	as_op1(&a, ax_op_const8, 3);
	as_u8(&a, ax_op_equal);
	as_u8(&a, ax_op_end);
	cr_assert_eq(ax_parse(&p, t + strlen(t), &e), 0);
	cr_assert_eq(p, t + strlen(t));
	cr_assert_eq(e->len, a.n);
	cr_assert(!memcmp(e->bytes, a.b, a.n));
	ax_free(e);
}

/* `maint agent x == 3` is the collection form: it leaves nothing on the
   stack, so as a condition it is an error, which reports the stop.  */
Test(ax_gdb, collection_bytecode_is_an_error_and_stops)
{
	struct world w;
	struct fake f;
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;
	struct ax_expr *e;
	struct as a = { .n = 0 };
	int64_t r = 9;

	world_pick(&w, 1);       /* x == 0: the condition form is false */
	world_load(&f, &w);
	as_op2(&a, ax_op_reg, 6);
	as_op1(&a, ax_op_const8, 16);
	as_u8(&a, ax_op_add);
	as_op1(&a, ax_op_const8, 220);
	as_op1(&a, ax_op_ext, 8);
	as_u8(&a, ax_op_add);
	as_op1(&a, ax_op_trace_quick, 4);
	as_u8(&a, ax_op_ref32);
	as_op1(&a, ax_op_ext, 32);
	as_op1(&a, ax_op_const8, 3);
	as_u8(&a, ax_op_equal);
	as_u8(&a, ax_op_pop);
	as_u8(&a, ax_op_end);
	cr_assert_eq(as_run(&a, &ctx, &r), -pse_invalid);
	cr_assert_eq(r, 9);
	ax_cond_list_init(&list);
	cr_assert_eq(ax_alloc(a.b, a.n, &e), 0);
	cr_assert_eq(ax_conds_set(&list, 0x1000, &e, 1), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x1000, &ctx), 1);
	ax_cond_list_fini(&list);
}

/* The per-address lists.  */

static struct ax_expr *cond(int kind)
{
	/* 0: false, 1: true, 2: an error, 3: reads address 0 (false).  */
	static const uint8_t code[4][4] = {
		{ 0x22, 0, 0x27 }, { 0x22, 1, 0x27 }, { 0x27 },
		{ 0x22, 0, 0x17, 0x27 },
	};
	static const size_t len[4] = { 3, 3, 1, 4 };
	struct ax_expr *e;

	cr_assert_eq(ax_alloc(code[kind], len[kind], &e), 0);
	return e;
}

Test(ax_conds, report_rules)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;
	struct ax_expr *v[3];

	fake_map(&f, 0, 8);
	ax_cond_list_init(&list);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	v[0] = cond(0);
	cr_assert_eq(ax_conds_set(&list, 0x10, v, 1), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x11, &ctx), 1);
	v[0] = cond(0), v[1] = cond(3), v[2] = cond(1);
	cr_assert_eq(ax_conds_set(&list, 0x10, v, 3), 0);
	cr_assert_eq(ax_conds_count(&list, 0x10), 3);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	cr_assert_eq(f.mem_reads, 1);
	v[0] = cond(0), v[1] = cond(2);
	cr_assert_eq(ax_conds_set(&list, 0x10, v, 2), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	/* The first true condition decides; the rest are not run.  */
	v[0] = cond(1), v[1] = cond(3);
	f.mem_reads = 0;
	cr_assert_eq(ax_conds_set(&list, 0x10, v, 2), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x10, &ctx), 1);
	cr_assert_eq(f.mem_reads, 0);
	ax_cond_list_fini(&list);
}

Test(ax_conds, set_replaces_clear_forgets)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;
	struct ax_expr *v[2];

	ax_cond_list_init(&list);
	for (uint64_t addr = 0x100; addr < 0x120; addr++) {
		v[0] = cond(0);
		cr_assert_eq(ax_conds_set(&list, addr, v, 1), 0);
	}
	v[0] = cond(0), v[1] = cond(0);
	cr_assert_eq(ax_conds_set(&list, 0x105, v, 2), 0);
	cr_assert_eq(ax_conds_count(&list, 0x105), 2);
	v[0] = cond(1);
	cr_assert_eq(ax_conds_set(&list, 0x105, v, 1), 0);
	cr_assert_eq(ax_conds_count(&list, 0x105), 1);
	cr_assert_eq(ax_conds_eval(&list, 0x105, &ctx), 1);
	cr_assert_eq(ax_conds_set(&list, 0x106, NULL, 0), 0);
	cr_assert_eq(ax_conds_count(&list, 0x106), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x106, &ctx), 1);
	ax_conds_clear(&list, 0x100);
	ax_conds_clear(&list, 0x100);
	ax_conds_clear(&list, 0x5000);
	cr_assert_eq(ax_conds_eval(&list, 0x100, &ctx), 1);
	for (uint64_t addr = 0x101; addr < 0x120; addr++)
		if (addr != 0x105 && addr != 0x106)
			cr_assert_eq(ax_conds_eval(&list, addr, &ctx), 0,
				     "%lx", (unsigned long) addr);
	ax_conds_reset(&list);
	cr_assert_eq(ax_conds_count(&list, 0x101), 0);
	cr_assert_eq(ax_conds_eval(&list, 0x101, &ctx), 1);
	ax_cond_list_fini(&list);
}

static int parse_tail(struct ax_cond_list *list, uint64_t addr,
		      const char *tail)
{
	return ax_conds_parse_z(list, addr, tail, tail + strlen(tail));
}

Test(ax_conds, parse_z_tails)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	struct ax_cond_list list;

	ax_cond_list_init(&list);
	cr_assert_eq(parse_tail(&list, 1, ";X3,220027;X3,220127"), 0);
	cr_assert_eq(ax_conds_count(&list, 1), 2);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 1);
	cr_assert_eq(parse_tail(&list, 1, ";X3,220027X3,220027"), 0);
	cr_assert_eq(ax_conds_count(&list, 1), 2);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 0);
	/* Commands and unknown items are skipped, conditions kept.  */
	cr_assert_eq(parse_tail(&list, 1, ";cmds:0,X3,220127;X3,220027;zz"),
		     0);
	cr_assert_eq(ax_conds_count(&list, 1), 1);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 0);
	/* Malformed: an error, and the old conditions stay.  */
	cr_assert_eq(parse_tail(&list, 1, ";X3,220127;X3,2201"), -pse_invalid);
	cr_assert_eq(parse_tail(&list, 1, ";X3,220127;X2,zz27"), -pse_badhex);
	cr_assert_eq(parse_tail(&list, 1, "X3,220127"), -pse_invalid);
	cr_assert_eq(ax_conds_count(&list, 1), 1);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 0);
	/* A Z without conditions makes the address unconditional.  */
	cr_assert_eq(parse_tail(&list, 1, ""), 0);
	cr_assert_eq(ax_conds_count(&list, 1), 0);
	cr_assert_eq(ax_conds_eval(&list, 1, &ctx), 1);
	ax_cond_list_fini(&list);
}
