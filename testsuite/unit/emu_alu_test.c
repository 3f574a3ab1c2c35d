/* The Jcc shortcut's integer evaluator against hand-computed flags, and
   its refusal to know what it cannot.  */
#include "nat/emu/emu_alu.h"

#include <criterion/criterion.h>
#include <string.h>

enum { CF = 1 << 0, PF = 1 << 2, ZF = 1 << 6, SF = 1 << 7, OF = 1 << 11 };

static struct emu_decoder *dec;

static void setup(void) { cr_assert_eq(emu_decoder_alloc(&dec), 0); }
static void teardown(void) { emu_decoder_free(dec); }

TestSuite(alu, .init = setup, .fini = teardown);

static void run(struct emu_alu *alu, const uint8_t *bytes, size_t len)
{
	struct emu_insn insn;

	cr_assert_eq(emu_insn_decode(dec, 0x1000, bytes, len, &insn), 0);
	emu_alu_step(alu, &insn);
}

static struct emu_alu start(uint64_t rax, uint64_t rbx, uint64_t rflags)
{
	struct user_regs_struct regs;
	struct emu_alu alu;

	memset(&regs, 0, sizeof(regs));
	regs.rax = rax;
	regs.rbx = rbx;
	regs.eflags = rflags;
	emu_alu_init(&alu, &regs);
	return alu;
}

Test(alu, cmp_flags)
{
	/* cmp eax, ebx with 1 - 2: CF (borrow), SF, PF of 0xff.  */
	struct emu_alu a = start(1, 2, 0);
	run(&a, (uint8_t[]) { 0x39, 0xd8 }, 2);
	cr_assert(a.flags_known);
	cr_expect_eq(a.flags, CF | SF | PF);
	cr_expect_eq(a.r[0], 1, "cmp does not write");

	/* cmp eax, 0x80000000 with eax = 0x7fffffff: OF, SF, CF.  */
	a = start(0x7fffffff, 0, 0);
	run(&a, (uint8_t[]) { 0x3d, 0x00, 0x00, 0x00, 0x80 }, 5);
	cr_expect_eq(a.flags, OF | SF | CF | PF);

	/* cmp rax, rax: ZF PF.  */
	a = start(0x1234, 0, 0);
	run(&a, (uint8_t[]) { 0x48, 0x39, 0xc0 }, 3);
	cr_expect_eq(a.flags, ZF | PF);
}

Test(alu, add_sub_widths)
{
	/* add eax, 1 with eax = 0xffffffff: zero, carry; upper half 0. */
	struct emu_alu a = start(0x1ffffffffull, 0, 0);
	run(&a, (uint8_t[]) { 0x83, 0xc0, 0x01 }, 3);
	cr_expect_eq(a.r[0], 0);
	cr_expect_eq(a.flags, ZF | CF | PF);
	/* add rax, rbx: 0x7fff...ff + 1 overflows into the sign.  */
	a = start(0x7fffffffffffffffull, 1, 0);
	run(&a, (uint8_t[]) { 0x48, 0x01, 0xd8 }, 3);
	cr_expect_eq(a.r[0], 0x8000000000000000ull);
	cr_expect_eq(a.flags, OF | SF | PF);
	/* sub ebx, 3 with ebx = 3.  */
	a = start(0, 3, 0);
	run(&a, (uint8_t[]) { 0x83, 0xeb, 0x03 }, 3);
	cr_expect_eq(a.r[3], 0);
	cr_expect_eq(a.flags, ZF | PF);
}

Test(alu, logic_inc_dec)
{
	/* test eax, eax with 0x80: SF clear (32-bit), PF of 0x80 odd.  */
	struct emu_alu a = start(0x80, 0, CF | OF);
	run(&a, (uint8_t[]) { 0x85, 0xc0 }, 2);
	cr_expect_eq(a.flags, 0, "CF and OF are cleared");
	/* xor eax, eax: zero whatever eax was, even unknown.  */
	a.known &= (uint16_t) ~1u;
	run(&a, (uint8_t[]) { 0x31, 0xc0 }, 2);
	cr_expect(a.known & 1);
	cr_expect_eq(a.r[0], 0);
	cr_expect_eq(a.flags, ZF | PF);
	/* inc keeps CF; dec of 0x80000000 overflows.  */
	a = start(0x7fffffff, 0, CF);
	run(&a, (uint8_t[]) { 0xff, 0xc0 }, 2);
	cr_expect_eq(a.flags, OF | SF | CF | PF);
	a = start(0x80000000, 0, 0);
	run(&a, (uint8_t[]) { 0xff, 0xc8 }, 2);
	cr_expect_eq(a.r[0], 0x7fffffff);
	cr_expect_eq(a.flags, OF | PF);
}

Test(alu, unknowns_spread)
{
	/* mov eax, [rbx]: eax unknown; then cmp eax, 1: flags unknown.  */
	struct emu_alu a = start(1, 0x5000, 0);
	bool taken;
	struct emu_insn jz;

	run(&a, (uint8_t[]) { 0x8b, 0x03 }, 2);
	cr_expect(!(a.known & 1));
	run(&a, (uint8_t[]) { 0x83, 0xf8, 0x01 }, 3);
	cr_expect(!a.flags_known);
	cr_assert_eq(emu_insn_decode(dec, 0, (uint8_t[]) { 0x74, 0x02 }, 2,
				     &jz), 0);
	cr_expect(!emu_alu_cond(&a, &jz, &taken));
	/* mov ebx, eax (unknown) makes ebx unknown; a load into ecx leaves
	   the flags alone.  */
	a = start(1, 2, ZF);
	run(&a, (uint8_t[]) { 0x8b, 0x0b }, 2);
	cr_expect(a.flags_known);
	cr_assert(emu_alu_cond(&a, &jz, &taken));
	cr_expect(taken);
	/* imul is not modelled: its flags become unknown.  */
	run(&a, (uint8_t[]) { 0x0f, 0xaf, 0xc3 }, 3);
	cr_expect(!a.flags_known);
	cr_expect(!(a.known & 1));
}

Test(alu, loop_uses_rcx)
{
	struct emu_alu a = start(0, 0, 0);
	struct emu_insn loop;
	bool taken;

	a.r[1] = 2;
	cr_assert_eq(emu_insn_decode(dec, 0, (uint8_t[]) { 0xe2, 0xfe }, 2,
				     &loop), 0);
	cr_assert(emu_alu_cond(&a, &loop, &taken));
	cr_expect(taken);
	cr_expect_eq(a.r[1], 1);
	cr_assert(emu_alu_cond(&a, &loop, &taken));
	cr_expect(!taken);
	a.known &= (uint16_t) ~2u;
	cr_expect(!emu_alu_cond(&a, &loop, &taken), "RCX unknown");
}

Test(alu, records_replay_like_steps)
{
	struct emu_alu a = start(5, 7, 0), b = start(5, 7, 0);
	struct emu_insn insn;
	struct emu_alu_rec rec;
	/* add eax, ebx; jmp +0 (direct: changes nothing); call +0 */
	const uint8_t *code[] = { (uint8_t[]) { 0x01, 0xd8 },
				  (uint8_t[]) { 0xeb, 0x00 },
				  (uint8_t[]) { 0xe8, 0, 0, 0, 0 } };
	size_t lens[] = { 2, 2, 5 };

	for (int i = 0; i < 3; i++) {
		cr_assert_eq(emu_insn_decode(dec, 0x1000, code[i], lens[i],
					     &insn), 0);
		cr_expect(emu_alu_record(&insn, &rec));
		emu_alu_apply(&a, &rec);
		if (insn.iclass == emu_ic_other)
			emu_alu_step(&b, &insn);
		else if (insn.iclass == emu_ic_call)
			emu_alu_rsp(&b, -8);
	}
	cr_expect_eq(a.r[0], 12);
	cr_expect_eq(a.r[0], b.r[0]);
	cr_expect_eq(a.r[4], b.r[4]);
	cr_expect_eq(a.r[4], (uint64_t) -8);
	cr_expect_eq(a.flags, b.flags);
	cr_expect_eq(a.known, b.known);
	cr_assert_eq(emu_insn_decode(dec, 0, (uint8_t[]) { 0xc3 }, 1, &insn),
		     0);
	cr_expect(!emu_alu_record(&insn, &rec), "a return is not a record");
}
