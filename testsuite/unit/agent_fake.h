/* Test support for the agent-expression tests: a fake stopped thread
   (memory regions and registers, with read counters), a tiny bytecode
   assembler, and helpers to run bytecode against them.  */
#ifndef TESTSUITE_UNIT_AGENT_FAKE_H
#define TESTSUITE_UNIT_AGENT_FAKE_H

#include "server/agent_expr.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
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

static inline long fake_read_mem(void *data, uint64_t addr, void *buf, size_t len)
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

static inline int fake_read_reg(void *data, unsigned regno, uint64_t *value)
{
	struct fake *f = data;

	f->reg_reads++;
	if (regno >= 80 || !f->reg_ok[regno])
		return -pse_range;
	*value = f->regs[regno];
	return 0;
}

static inline struct fake_region *fake_map(struct fake *f, uint64_t addr,
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
static inline void fake_put(struct fake *f, uint64_t addr, uint64_t v, size_t size)
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

static inline void fake_set_reg(struct fake *f, unsigned regno, uint64_t v)
{
	f->regs[regno] = v;
	f->reg_ok[regno] = true;
}

static inline struct ax_context fake_ctx(struct fake *f)
{
	return (struct ax_context) {
		.read_mem = fake_read_mem, .read_reg = fake_read_reg, .data = f,
	};
}

/* A tiny assembler for bytecode built at run time; operands big-endian.  */
struct as {
	uint8_t b[256];
	size_t n;
};

static inline void as_u8(struct as *a, unsigned v) { a->b[a->n++] = (uint8_t) v; }

static inline void as_const64(struct as *a, uint64_t v)
{
	as_u8(a, ax_op_const64);
	for (int k = 7; k >= 0; k--)
		as_u8(a, (unsigned) (v >> 8 * k) & 0xff);
}

static inline int run_code(const struct ax_context *ctx, const uint8_t *code,
		    size_t len, int64_t *out)
{
	struct ax_expr *e;
	int err;

	cr_assert_eq(ax_alloc(code, len, &e), 0);
	err = ax_eval(e, ctx, out);
	ax_free(e);
	return err;
}

/* Literal bytecode as the (pointer, length) pair run_code takes.  */
#define CODE(...) (const uint8_t[]) { __VA_ARGS__ }, \
	sizeof((const uint8_t[]) { __VA_ARGS__ })

/* Run bytecode with no memory or registers: it must fail with ERR, or
   for ERR 0 yield VAL; a failure must leave the result alone.  */
static inline void expect_run(const uint8_t *code, size_t len, int err,
		       int64_t val, int line)
{
	struct fake f = { 0 };
	struct ax_context ctx = fake_ctx(&f);
	int64_t r = 0x5a5a;
	int got = run_code(&ctx, code, len, &r);

	cr_assert_eq(got, err, "line %d: error %d", line, got);
	cr_assert_eq(r, err ? 0x5a5a : val, "line %d: result %ld", line,
		     (long) r);
}

#define EXPECT(err, val, ...) expect_run(CODE(__VA_ARGS__), err, val, __LINE__)

#endif
