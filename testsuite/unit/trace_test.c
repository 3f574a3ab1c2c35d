#include "common/trace.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdint.h>

Test(trace_blocks, push_keeps_order_and_grows)
{
	struct trace_blocks b;

	trace_blocks_init(&b);
	cr_expect_null(b.block);
	for (uint64_t i = 0; i < 1000; i++)
		cr_assert_eq(trace_blocks_push(&b, i * 16, i * 16 + 4), 0);
	cr_assert_eq(b.len, 1000);
	cr_expect_geq(b.cap, 1000);
	cr_expect_eq(b.block[0].begin, 0);
	cr_expect_eq(b.block[999].begin, 999 * 16);
	cr_expect_eq(b.block[999].end, 999 * 16 + 4);
	trace_blocks_fini(&b);
	cr_expect_null(b.block);
	cr_expect_eq(b.len, 0);
	cr_expect_eq(b.cap, 0);
}

Test(trace_blocks, reset_keeps_memory)
{
	struct trace_blocks b;
	struct trace_block *mem;

	trace_blocks_init(&b);
	cr_assert_eq(trace_blocks_push(&b, 1, 2), 0);
	mem = b.block;
	trace_blocks_reset(&b);
	cr_expect_eq(b.len, 0);
	cr_assert_eq(trace_blocks_push(&b, 3, 4), 0);
	cr_expect_eq(b.block, mem);
	cr_expect_eq(b.block[0].begin, 3);
	trace_blocks_fini(&b);
}

Test(trace_blocks, reserve_in_one_step_and_refuses_overflow)
{
	struct trace_blocks b;

	trace_blocks_init(&b);
	cr_assert_eq(trace_blocks_reserve(&b, 100), 0);
	cr_expect_geq(b.cap, 100);
	cr_expect_eq(b.len, 0);
	cr_expect_eq(trace_blocks_reserve(&b, SIZE_MAX / 2), -pse_nomem);
	cr_expect_geq(b.cap, 100, "a refused reserve keeps what was there");
	trace_blocks_fini(&b);
}
