/* The code-cache translator on hand-written code: what a block keeps,
   how it ends, where RIP-relative operands point from the copy, and how
   each offset of the copy maps back.  */
#include "nat/emu/cc_xlate.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>

struct code {
	uint64_t base;
	const uint8_t *bytes;
	size_t len;
	uint64_t forbidden;   /* may_copy refuses this IP */
};

static long code_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct code *c = ctx;

	if (addr < c->base || addr >= c->base + c->len)
		return -pse_fault;
	if (len > c->base + c->len - addr)
		len = (size_t) (c->base + c->len - addr);
	memcpy(buf, c->bytes + (addr - c->base), len);
	return (long) len;
}

static bool code_may_copy(void *ctx, uint64_t ip)
{
	const struct code *c = ctx;

	return ip != c->forbidden;
}

static uint8_t out[cc_block_max_bytes];
static const uint64_t base = 0x401000, cache = 0x400000;

static int xlate(struct cc_block *blk, struct code *c)
{
	struct cc_xlate_env env = { code_read, c, code_may_copy };

	return cc_xlate(blk, &env, c->base, cache, out, sizeof(out));
}


/* mov rax,[rip+0x10]; test rax,rax; jz +5: two instructions copied (the
   load still reads the original's address), the Jcc's ways go to the
   fall-through and the target, offset 0 is the first instruction.  */
Test(cc_xlate, rip_relative_and_conditional)
{
	static const uint8_t bytes[] = {
		0x48, 0x8b, 0x05, 0x10, 0, 0, 0,
		0x48, 0x85, 0xc0,
		0x74, 0x05,
	};
	struct code c = { base, bytes, sizeof(bytes), 0 };
	struct cc_block blk;
	const struct cc_pos *pos;
	int32_t disp;

	cr_assert_eq(xlate(&blk, &c), 0);
	cr_expect_eq(blk.end, cc_end_cond);
	cr_expect_eq(blk.ncopied, 3);
	cr_expect_eq(blk.jcc_ip, base + 10);
	cr_expect_eq(blk.jcc_target, base + 12 + 5);
	cr_expect_eq(blk.ways[0].target, base + 12);
	cr_expect_eq(blk.ways[1].target, base + 17);
	cr_expect_eq(out[0], 0x48);
	memcpy(&disp, out + 3, 4);
	cr_expect_eq(cache + 7 + (int64_t) disp, base + 7 + 0x10,
		     "the copy reads %#llx",
		     (unsigned long long) (cache + 7 + (int64_t) disp));
	pos = cc_block_pos(&blk, 0);
	cr_assert_not_null(pos);
	cr_expect_eq(pos->kind, cc_pos_orig);
	cr_expect_eq(blk.insns[pos->insn].ip, base);
	pos = cc_block_pos(&blk, 7);
	cr_assert_not_null(pos);
	cr_expect_eq(blk.insns[pos->insn].ip, base + 7);
	cr_expect_eq(blk.insns[pos->insn].prev, base);
	/* The Jcc is a near Jcc to the taken way.  */
	cr_expect_eq(out[10], 0x0f);
	cr_expect_eq(out[11], 0x84);
	cc_block_fini(&blk);
}

/* call +0 (to the next instruction), then ret: the call is an edge
   with the push glue, the block ends in a return lookup.  */
Test(cc_xlate, call_pushes_and_return_is_looked_up)
{
	static const uint8_t bytes[] = {
		0xe8, 0, 0, 0, 0,
		0x90,
		0xc3,
	};
	struct code c = { base, bytes, sizeof(bytes), 0 };
	struct cc_block blk;
	const struct cc_pos *pos;
	uint32_t lo;

	cr_assert_eq(xlate(&blk, &c), 0);
	cr_expect_eq(blk.end, cc_end_ret);
	cr_expect_eq(blk.nedges, 1);
	cr_expect(blk.edges[0].call);
	cr_expect_eq(blk.edges[0].to, base + 5);
	cr_expect_eq(blk.ret_pop, 8);
	pos = cc_block_pos(&blk, 0);
	cr_assert_not_null(pos);
	cr_expect_eq(pos->kind, cc_pos_push);
	/* lea rsp,[rsp-8]; mov dword [rsp], lo: the original return.  */
	cr_expect_eq(out[0], 0x48);
	cr_expect_eq(out[1], 0x8d);
	memcpy(&lo, out + 8, 4);
	cr_expect_eq(lo, (uint32_t) (base + 5));
	cc_block_fini(&blk);
}

/* A system call first: nothing to copy, the ptrace engine's.  */
Test(cc_xlate, syscall_first_is_unsupported)
{
	static const uint8_t bytes[] = { 0x0f, 0x05, 0x90 };
	struct code c = { base, bytes, sizeof(bytes), 0 };
	struct cc_block blk;

	cr_expect_eq(xlate(&blk, &c), -pse_unsupported);
}

/* A GS access and a breakpoint of someone else's end the block before
   them, with an exit at their original IP.  */
Test(cc_xlate, gs_and_breakpoints_end_the_block)
{
	static const uint8_t gs[] = {
		0x90,
		0x65, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0,
	};
	static const uint8_t nops[] = { 0x90, 0x90, 0x90, 0xc3 };
	struct code c = { base, gs, sizeof(gs), 0 };
	struct cc_block blk;

	cr_assert_eq(xlate(&blk, &c), 0);
	cr_expect_eq(blk.end, cc_end_exit);
	cr_expect_eq(blk.ways[0].target, base + 1);
	cr_expect_not(blk.ways[0].link);
	cc_block_fini(&blk);

	c = (struct code) { base, nops, sizeof(nops), base + 2 };
	cr_assert_eq(xlate(&blk, &c), 0);
	cr_expect_eq(blk.end, cc_end_exit);
	cr_expect_eq(blk.ncopied, 2);
	cr_expect_eq(blk.ways[0].target, base + 2);
	cr_expect(blk.ways[0].link);
	cc_block_fini(&blk);
}

/* Too little room: -pse_range, so the caller takes another chunk.  */
Test(cc_xlate, no_room)
{
	static const uint8_t bytes[] = { 0x90, 0x90, 0x74, 0x00 };
	struct code c = { base, bytes, sizeof(bytes), 0 };
	struct cc_xlate_env env = { code_read, &c, code_may_copy };
	struct cc_block blk;

	cr_expect_eq(cc_xlate(&blk, &env, base, cache, out, 8), -pse_range);
}
