/* Agent expressions: parsing GDB's "X<len>,<hex>" items, evaluating the
   bytecode for breakpoint conditions, and the per-address condition
   lists the Z0/Z1 handler and the stop logic share.  */
#include "server/agent_expr.h"
#include "server/agent_printf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int ax_alloc(const void *bytes, size_t len, struct ax_expr **out)
{
	struct ax_expr *expr;

	if (!out || (len && !bytes))
		return -pse_invalid;
	if (len > AX_MAX_LEN)
		return -pse_toolong;
	expr = malloc(sizeof(*expr) + len);
	if (!expr)
		return -pse_nomem;
	expr->len = len;
	if (len)
		memcpy(expr->bytes, bytes, len);
	*out = expr;
	return 0;
}

int ax_parse(const char **p, const char *end, struct ax_expr **out)
{
	struct ax_expr *expr;
	const char *q;
	uint64_t len;
	int err;

	if (!p || !*p || !end || !out)
		return -pse_invalid;
	q = *p;
	if (q >= end || *q != 'X')
		return -pse_invalid;
	q++;
	err = ps_hex_parse_u64(&q, end, &len);
	if (err < 0)
		return err == -pse_range ? -pse_toolong : -pse_invalid;
	if (q >= end || *q != ',')
		return -pse_invalid;
	q++;
	if (len > AX_MAX_LEN)
		return -pse_toolong;
	if ((uint64_t) (end - q) / 2 < len)
		return -pse_invalid;
	expr = malloc(sizeof(*expr) + len);
	if (!expr)
		return -pse_nomem;
	expr->len = len;
	err = ps_hex_decode(expr->bytes, q, len);
	if (err < 0) {
		free(expr);
		return err;
	}
	*p = q + 2 * len;
	*out = expr;
	return 0;
}

void ax_free(struct ax_expr *expr)
{
	free(expr);
}

/* What the evaluator needs to know about an opcode before running it:
   its operand bytes, how many stack entries it needs and leaves.  */
enum ax_op_kind {
	ax_kind_invalid,     /* not a bytecode at all */
	ax_kind_run,
	ax_kind_unsupported, /* gdbserver rejects these too */
	ax_kind_tsv,         /* trace-state variables: there are none */
};

struct ax_op_info {
	uint8_t kind;
	uint8_t imm;
	uint8_t pops;
	uint8_t pushes;
};

#define AX_RUN(op, imm, pops, pushes) \
	[op] = { ax_kind_run, imm, pops, pushes }
#define AX_UNSUPPORTED(op) [op] = { ax_kind_unsupported, 0, 0, 0 }

static const struct ax_op_info ax_ops[256] = {
	AX_UNSUPPORTED(ax_op_float),
	AX_RUN(ax_op_add, 0, 2, 1),
	AX_RUN(ax_op_sub, 0, 2, 1),
	AX_RUN(ax_op_mul, 0, 2, 1),
	AX_RUN(ax_op_div_signed, 0, 2, 1),
	AX_RUN(ax_op_div_unsigned, 0, 2, 1),
	AX_RUN(ax_op_rem_signed, 0, 2, 1),
	AX_RUN(ax_op_rem_unsigned, 0, 2, 1),
	AX_RUN(ax_op_lsh, 0, 2, 1),
	AX_RUN(ax_op_rsh_signed, 0, 2, 1),
	AX_RUN(ax_op_rsh_unsigned, 0, 2, 1),
	AX_RUN(ax_op_trace, 0, 2, 0),
	AX_RUN(ax_op_trace_quick, 1, 1, 1),
	AX_RUN(ax_op_log_not, 0, 1, 1),
	AX_RUN(ax_op_bit_and, 0, 2, 1),
	AX_RUN(ax_op_bit_or, 0, 2, 1),
	AX_RUN(ax_op_bit_xor, 0, 2, 1),
	AX_RUN(ax_op_bit_not, 0, 1, 1),
	AX_RUN(ax_op_equal, 0, 2, 1),
	AX_RUN(ax_op_less_signed, 0, 2, 1),
	AX_RUN(ax_op_less_unsigned, 0, 2, 1),
	AX_RUN(ax_op_ext, 1, 1, 1),
	AX_RUN(ax_op_ref8, 0, 1, 1),
	AX_RUN(ax_op_ref16, 0, 1, 1),
	AX_RUN(ax_op_ref32, 0, 1, 1),
	AX_RUN(ax_op_ref64, 0, 1, 1),
	AX_UNSUPPORTED(ax_op_ref_float),
	AX_UNSUPPORTED(ax_op_ref_double),
	AX_UNSUPPORTED(ax_op_ref_long_double),
	AX_UNSUPPORTED(ax_op_l_to_d),
	AX_UNSUPPORTED(ax_op_d_to_l),
	AX_RUN(ax_op_if_goto, 2, 1, 0),
	AX_RUN(ax_op_goto, 2, 0, 0),
	AX_RUN(ax_op_const8, 1, 0, 1),
	AX_RUN(ax_op_const16, 2, 0, 1),
	AX_RUN(ax_op_const32, 4, 0, 1),
	AX_RUN(ax_op_const64, 8, 0, 1),
	AX_RUN(ax_op_reg, 2, 0, 1),
	AX_RUN(ax_op_end, 0, 1, 1),
	AX_RUN(ax_op_dup, 0, 1, 2),
	AX_RUN(ax_op_pop, 0, 1, 0),
	AX_RUN(ax_op_zero_ext, 1, 1, 1),
	AX_RUN(ax_op_swap, 0, 2, 2),
	[ax_op_getv] = { ax_kind_tsv, 2, 0, 1 },
	[ax_op_setv] = { ax_kind_tsv, 2, 1, 1 },
	/* Recording (trace*) means nothing when only a value is wanted:
	   the operands are consumed as the opcode says, nothing else.  */
	AX_RUN(ax_op_tracev, 2, 0, 0),
	AX_RUN(ax_op_tracenz, 0, 2, 0),
	/* gdbserver never implemented trace16; match its refusal.  */
	AX_UNSUPPORTED(ax_op_trace16),
	/* pick's needs depend on its operand; fixed up when it runs.  */
	AX_RUN(ax_op_pick, 1, 1, 2),
	AX_RUN(ax_op_rot, 0, 3, 3),
	/* printf: nargs and the format's length, then the format; its
	   needs depend on nargs, fixed up when it runs.  */
	AX_RUN(ax_op_printf, 3, 2, 0),
};

/* Operands in the bytecode are big-endian.  */
static uint64_t ax_get_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Target memory is little-endian (x86-64).  */
static uint64_t ax_get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* Sign-extend from the low BITS bits; 64 or more leaves V alone, as
   gdbserver does, and a zero-bit field can only hold 0.  */
static uint64_t ax_sign_extend(uint64_t v, unsigned bits)
{
	uint64_t sign;

	if (bits >= 64)
		return v;
	if (!bits)
		return 0;
	sign = (uint64_t) 1 << (bits - 1);
	v &= ((uint64_t) 1 << bits) - 1;
	return (v ^ sign) - sign;
}

static uint64_t ax_zero_extend(uint64_t v, unsigned bits)
{
	if (bits >= 64)
		return v;
	return v & (((uint64_t) 1 << bits) - 1);
}

/* The binary operators: A is the deeper operand, B the top.  Division
   by zero is an error; INT64_MIN / -1 wraps instead of trapping as it
   would on the hardware.  Shift counts are taken mod 64, which is what
   gdbserver's shifts do on x86-64.  */
static int ax_binary(uint8_t op, uint64_t a, uint64_t b, uint64_t *out)
{
	int64_t sa = (int64_t) a, sb = (int64_t) b;

	switch (op) {
	case ax_op_add: *out = a + b; return 0;
	case ax_op_sub: *out = a - b; return 0;
	case ax_op_mul: *out = a * b; return 0;
	case ax_op_div_signed:
		if (!b)
			return -pse_range;
		*out = sb == -1 ? 0 - a : (uint64_t) (sa / sb);
		return 0;
	case ax_op_div_unsigned:
		if (!b)
			return -pse_range;
		*out = a / b;
		return 0;
	case ax_op_rem_signed:
		if (!b)
			return -pse_range;
		*out = sb == -1 ? 0 : (uint64_t) (sa % sb);
		return 0;
	case ax_op_rem_unsigned:
		if (!b)
			return -pse_range;
		*out = a % b;
		return 0;
	case ax_op_lsh: *out = a << (b & 63); return 0;
	case ax_op_rsh_signed: *out = (uint64_t) (sa >> (b & 63)); return 0;
	case ax_op_rsh_unsigned: *out = a >> (b & 63); return 0;
	case ax_op_bit_and: *out = a & b; return 0;
	case ax_op_bit_or: *out = a | b; return 0;
	case ax_op_bit_xor: *out = a ^ b; return 0;
	case ax_op_equal: *out = a == b; return 0;
	case ax_op_less_signed: *out = sa < sb; return 0;
	case ax_op_less_unsigned: *out = a < b; return 0;
	}
	return -pse_internal;
}

static int ax_ref(const struct ax_context *ctx, unsigned size, uint64_t *v)
{
	uint8_t buf[8];
	long got;

	if (!ctx->read_mem)
		return -pse_unsupported;
	got = ctx->read_mem(ctx->data, *v, buf, size);
	if (got != (long) size)
		return -pse_fault;
	*v = ax_get_le(buf, size);
	return 0;
}

static int ax_reg(const struct ax_context *ctx, unsigned regno, uint64_t *v)
{
	int err;

	if (!ctx->read_reg)
		return -pse_unsupported;
	err = ctx->read_reg(ctx->data, regno, v);
	if (err)
		return err < 0 ? err : -pse_internal;
	return 0;
}

/* printf: ST's top is the function, then the channel (both 0 from GDB,
   and meaningless in the stub: the output goes where gdbserver's
   goes, through ctx->print), then the arguments, the first on top.  */
static int ax_printf(const struct ax_context *ctx, const uint8_t *imm,
		     const uint64_t *st, size_t depth)
{
	size_t nargs = imm[0], slen = (size_t) ax_get_be(imm + 1, 2);
	const char *format = (const char *) imm + 3;
	uint64_t args[256];
	struct ps_buf text;
	int err;

	if (!slen || format[slen - 1] != '\0')
		return -pse_invalid;
	if (!ctx->print)
		return -pse_unsupported;
	for (size_t i = 0; i < nargs; i++)
		args[i] = st[depth - 3 - i];
	ps_buf_init(&text);
	err = ax_printf_format(format, args, nargs, ctx, &text);
	if (err == 0 && text.len)
		err = ctx->print(ctx->data, text.data, text.len);
	ps_buf_fini(&text);
	return err < 0 ? err : 0;
}

static int ax_jump(const struct ax_expr *expr, const uint8_t *imm,
		   size_t *pc)
{
	uint64_t target = ax_get_be(imm, 2);

	if (target >= expr->len)
		return -pse_invalid;
	*pc = target;
	return 0;
}

/* The stack is checked before each opcode runs, from the table, so the
   cases below can index it freely.  gdbserver tolerates popping one
   entry more than was pushed (its cached top starts as 0); that is an
   underflow here, since GDB never emits it.  */
int ax_eval(const struct ax_expr *expr, const struct ax_context *ctx,
	    int64_t *result)
{
	uint64_t st[AX_STACK_MAX];
	size_t depth = 0, pc = 0;
	unsigned long steps = 0;

	if (!expr || !ctx)
		return -pse_invalid;
	if (!expr->len)
		return -pse_invalid;

	for (;;) {
		const struct ax_op_info *info;
		const uint8_t *imm;
		size_t need, leave;
		uint8_t op;
		uint64_t v;
		int err;

		if (pc >= expr->len)
			return -pse_invalid;
		if (++steps > AX_MAX_STEPS)
			return -pse_toolong;
		op = expr->bytes[pc];
		info = &ax_ops[op];
		switch (info->kind) {
		case ax_kind_run:
			break;
		case ax_kind_unsupported:
			return -pse_unsupported;
		case ax_kind_tsv:
			return -pse_notfound;
		default:
			return -pse_invalid;
		}
		if (expr->len - pc - 1 < info->imm)
			return -pse_invalid;
		imm = &expr->bytes[pc + 1];
		pc += 1 + info->imm;

		need = info->pops;
		leave = info->pushes;
		if (op == ax_op_pick) {
			need = (size_t) imm[0] + 1;
			leave = need + 1;
		} else if (op == ax_op_printf) {
			size_t slen = (size_t) ax_get_be(imm + 1, 2);

			if (expr->len - pc < slen)
				return -pse_invalid;
			pc += slen;
			need = (size_t) imm[0] + 2;
		} else if (op == ax_op_end && !result) {
			need = leave = 0;
		}
		if (depth < need)
			return -pse_invalid;
		if (depth - need + leave > AX_STACK_MAX)
			return -pse_nospace;

		switch (op) {
		case ax_op_add: case ax_op_sub: case ax_op_mul:
		case ax_op_div_signed: case ax_op_div_unsigned:
		case ax_op_rem_signed: case ax_op_rem_unsigned:
		case ax_op_lsh: case ax_op_rsh_signed: case ax_op_rsh_unsigned:
		case ax_op_bit_and: case ax_op_bit_or: case ax_op_bit_xor:
		case ax_op_equal: case ax_op_less_signed:
		case ax_op_less_unsigned:
			err = ax_binary(op, st[depth - 2], st[depth - 1], &v);
			if (err < 0)
				return err;
			depth--;
			st[depth - 1] = v;
			break;

		case ax_op_log_not:
			st[depth - 1] = !st[depth - 1];
			break;
		case ax_op_bit_not:
			st[depth - 1] = ~st[depth - 1];
			break;
		case ax_op_ext:
			st[depth - 1] = ax_sign_extend(st[depth - 1], imm[0]);
			break;
		case ax_op_zero_ext:
			st[depth - 1] = ax_zero_extend(st[depth - 1], imm[0]);
			break;

		case ax_op_ref8: case ax_op_ref16:
		case ax_op_ref32: case ax_op_ref64:
			err = ax_ref(ctx, 1u << (op - ax_op_ref8),
				     &st[depth - 1]);
			if (err < 0)
				return err;
			break;

		case ax_op_if_goto:
			v = st[--depth];
			if (v) {
				err = ax_jump(expr, imm, &pc);
				if (err < 0)
					return err;
			}
			break;
		case ax_op_goto:
			err = ax_jump(expr, imm, &pc);
			if (err < 0)
				return err;
			break;

		case ax_op_const8: case ax_op_const16:
		case ax_op_const32: case ax_op_const64:
			st[depth++] = ax_get_be(imm, info->imm);
			break;

		case ax_op_reg:
			err = ax_reg(ctx, (unsigned) ax_get_be(imm, 2), &v);
			if (err < 0)
				return err;
			st[depth++] = v;
			break;

		case ax_op_end:
			if (result)
				*result = (int64_t) st[depth - 1];
			return 0;

		case ax_op_printf:
			err = ax_printf(ctx, imm, st, depth);
			if (err < 0)
				return err;
			depth -= (size_t) imm[0] + 2;
			break;

		case ax_op_dup:
			st[depth] = st[depth - 1];
			depth++;
			break;
		case ax_op_pop:
			depth--;
			break;
		case ax_op_swap:
			v = st[depth - 1];
			st[depth - 1] = st[depth - 2];
			st[depth - 2] = v;
			break;
		case ax_op_pick:
			st[depth] = st[depth - 1 - imm[0]];
			depth++;
			break;
		case ax_op_rot:
			/* a b c => c a b */
			v = st[depth - 1];
			st[depth - 1] = st[depth - 2];
			st[depth - 2] = st[depth - 3];
			st[depth - 3] = v;
			break;

		case ax_op_trace: case ax_op_tracenz:
			depth -= 2;
			break;
		case ax_op_trace_quick: case ax_op_tracev:
			break;

		default:
			return -pse_internal;
		}
	}
}
