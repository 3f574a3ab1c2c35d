/* The branch evaluator against hand-computed answers: every condition
   code against RFLAGS, JrCXZ and LOOPcc against RCX, and every operand
   form of indirect branches and returns, decoded from real bytes.  */
#include "nat/emu/emu_branch.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>

enum { CF = 1 << 0, PF = 1 << 2, ZF = 1 << 6, SF = 1 << 7, OF = 1 << 11 };

/* A little memory: 256 bytes at 0x10000.  */
static uint8_t memory[256];
static const uint64_t mem_base = 0x10000;

static int read_mem(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void) ctx;
	if (addr < mem_base || addr + len > mem_base + sizeof(memory))
		return -pse_fault;
	memcpy(buf, memory + (addr - mem_base), len);
	return 0;
}

static void put64(uint64_t addr, uint64_t value)
{
	memcpy(memory + (addr - mem_base), &value, 8);
}

static struct emu_decoder *dec;

static void setup(void)
{
	cr_assert_eq(emu_decoder_alloc(&dec), 0);
	memset(memory, 0, sizeof(memory));
}

static void teardown(void)
{
	emu_decoder_free(dec);
}

static struct emu_insn decode(const uint8_t *bytes, size_t len, uint64_t ip)
{
	struct emu_insn insn;

	cr_assert_eq(emu_insn_decode(dec, ip, bytes, len, &insn), 0);
	return insn;
}

TestSuite(branch, .init = setup, .fini = teardown);

struct cc_case { uint8_t cc; unsigned flags; bool taken; };

/* Written out by hand from the SDM's Jcc table.  */
static const struct cc_case cc_cases[] = {
	{ 0x0, OF, true }, { 0x0, 0, false },                /* jo */
	{ 0x1, 0, true }, { 0x1, OF, false },                /* jno */
	{ 0x2, CF, true }, { 0x2, ZF, false },               /* jb */
	{ 0x3, ZF, true }, { 0x3, CF, false },               /* jae */
	{ 0x4, ZF, true }, { 0x4, CF | SF, false },          /* je */
	{ 0x5, CF, true }, { 0x5, ZF, false },               /* jne */
	{ 0x6, ZF, true }, { 0x6, CF, true }, { 0x6, SF, false }, /* jbe */
	{ 0x7, 0, true }, { 0x7, CF, false }, { 0x7, ZF, false }, /* ja */
	{ 0x8, SF, true }, { 0x8, OF, false },               /* js */
	{ 0x9, OF, true }, { 0x9, SF, false },               /* jns */
	{ 0xa, PF, true }, { 0xa, ZF, false },               /* jp */
	{ 0xb, 0, true }, { 0xb, PF, false },                /* jnp */
	{ 0xc, SF, true }, { 0xc, OF, true }, { 0xc, SF | OF, false },
	{ 0xc, 0, false },                                    /* jl */
	{ 0xd, SF | OF, true }, { 0xd, 0, true }, { 0xd, SF, false },
	{ 0xd, OF, false },                                   /* jge */
	{ 0xe, ZF, true }, { 0xe, SF, true }, { 0xe, SF | OF, false },
	{ 0xe, 0, false },                                    /* jle */
	{ 0xf, 0, true }, { 0xf, SF | OF, true }, { 0xf, ZF, false },
	{ 0xf, OF, false },                                   /* jg */
};

Test(branch, jcc_rel8_every_condition)
{
	for (size_t i = 0; i < sizeof(cc_cases) / sizeof(cc_cases[0]); i++) {
		const struct cc_case *c = &cc_cases[i];
		uint8_t bytes[] = { (uint8_t) (0x70 | c->cc), 0x10 };
		struct emu_insn insn = decode(bytes, 2, 0x1000);
		struct user_regs_struct regs = { .eflags = c->flags | 0x202,
						 .rip = 0x1000 };
		struct emu_branch br;

		cr_assert_eq(insn.iclass, emu_ic_cond);
		cr_assert_eq(emu_branch_eval(&insn, &regs, read_mem, NULL, &br),
			     0);
		cr_expect_eq(br.taken, c->taken, "case %zu: cc %x flags %#x",
			     i, c->cc, c->flags);
		cr_expect_eq(regs.rip, c->taken ? 0x1012u : 0x1002u,
			     "case %zu", i);
	}
}

Test(branch, jcc_rel32_backwards)
{
	/* jne -0x100 from 0x2000 (6 bytes): 0x2006 - 0x100.  */
	uint8_t bytes[] = { 0x0f, 0x85, 0x00, 0xff, 0xff, 0xff };
	struct emu_insn insn = decode(bytes, 6, 0x2000);
	struct user_regs_struct regs = { .eflags = 0x202 };
	struct emu_branch br;

	cr_assert_eq(emu_branch_eval(&insn, &regs, read_mem, NULL, &br), 0);
	cr_assert(br.taken);
	cr_assert_eq(regs.rip, 0x1f06);
}

Test(branch, jrcxz_jecxz)
{
	uint8_t jrcxz[] = { 0xe3, 0x05 }, jecxz[] = { 0x67, 0xe3, 0x05 };
	struct emu_insn a = decode(jrcxz, 2, 0x100), b = decode(jecxz, 3, 0x100);
	struct user_regs_struct regs = { .rcx = 0 };
	struct emu_branch br;

	cr_assert_eq(emu_branch_eval(&a, &regs, read_mem, NULL, &br), 0);
	cr_expect(br.taken);
	cr_expect_eq(regs.rip, 0x107);
	regs.rcx = 0x100000000ull;   /* ECX is zero, RCX is not */
	cr_assert_eq(emu_branch_eval(&a, &regs, read_mem, NULL, &br), 0);
	cr_expect(!br.taken);
	cr_expect_eq(regs.rip, 0x102);
	cr_assert_eq(emu_branch_eval(&b, &regs, read_mem, NULL, &br), 0);
	cr_expect(br.taken);
	cr_expect_eq(regs.rip, 0x108);
	cr_expect_eq(regs.rcx, 0x100000000ull, "JrCXZ must not change RCX");
}

Test(branch, loop_family)
{
	uint8_t loop[] = { 0xe2, 0xfe }, loope[] = { 0xe1, 0xfe },
		loopne[] = { 0xe0, 0xfe };
	struct emu_insn l = decode(loop, 2, 0x500), le = decode(loope, 2, 0x500),
		ln = decode(loopne, 2, 0x500);
	struct user_regs_struct regs = { .rcx = 2 };
	struct emu_branch br;

	cr_assert_eq(emu_branch_eval(&l, &regs, read_mem, NULL, &br), 0);
	cr_expect(br.taken);
	cr_expect_eq(regs.rcx, 1);
	cr_expect_eq(regs.rip, 0x500);
	cr_assert_eq(emu_branch_eval(&l, &regs, read_mem, NULL, &br), 0);
	cr_expect(!br.taken);
	cr_expect_eq(regs.rcx, 0);
	cr_expect_eq(regs.rip, 0x502);

	regs.rcx = 5;
	regs.eflags = ZF;
	cr_assert_eq(emu_branch_eval(&le, &regs, read_mem, NULL, &br), 0);
	cr_expect(br.taken);
	cr_assert_eq(emu_branch_eval(&ln, &regs, read_mem, NULL, &br), 0);
	cr_expect(!br.taken);
	cr_expect_eq(regs.rcx, 3);
	regs.eflags = 0;
	cr_assert_eq(emu_branch_eval(&le, &regs, read_mem, NULL, &br), 0);
	cr_expect(!br.taken);
	cr_assert_eq(emu_branch_eval(&ln, &regs, read_mem, NULL, &br), 0);
	cr_expect(br.taken);
	cr_expect_eq(regs.rcx, 1);
	/* LOOP on RCX = 0 wraps to all ones and is taken.  */
	regs.rcx = 0;
	cr_assert_eq(emu_branch_eval(&l, &regs, read_mem, NULL, &br), 0);
	cr_expect(br.taken);
	cr_expect_eq(regs.rcx, ~0ull);
}

Test(branch, returns)
{
	uint8_t ret[] = { 0xc3 }, ret_imm[] = { 0xc2, 0x10, 0x00 },
		bnd_ret[] = { 0xf2, 0xc3 };
	struct emu_insn r = decode(ret, 1, 0x700), ri = decode(ret_imm, 3, 0x700),
		rb = decode(bnd_ret, 2, 0x700);
	struct user_regs_struct regs = { .rsp = mem_base + 0x40 };
	struct emu_branch br;

	put64(mem_base + 0x40, 0x401234);
	put64(mem_base + 0x48, 0x405678);
	put64(mem_base + 0x60, 0x409abc);
	cr_assert_eq(r.iclass, emu_ic_ret);
	cr_assert_eq(emu_branch_eval(&r, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x401234);
	cr_expect_eq(regs.rsp, mem_base + 0x48);
	cr_assert_eq(emu_branch_eval(&ri, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x405678);
	cr_expect_eq(regs.rsp, mem_base + 0x60);
	cr_assert_eq(emu_branch_eval(&rb, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x409abc);
	cr_expect_eq(regs.rsp, mem_base + 0x68);
}

Test(branch, return_from_unreadable_stack)
{
	uint8_t ret[] = { 0xc3 };
	struct emu_insn r = decode(ret, 1, 0x700);
	struct user_regs_struct regs = { .rsp = 0x99999000, .rip = 0x700 };
	struct emu_branch br;

	cr_expect_eq(emu_branch_eval(&r, &regs, read_mem, NULL, &br),
		     -pse_fault);
	cr_expect_eq(regs.rsp, 0x99999000, "registers must be unchanged");
	cr_expect_eq(regs.rip, 0x700);
}

Test(branch, register_operands)
{
	uint8_t jmp_rax[] = { 0xff, 0xe0 }, jmp_r11[] = { 0x41, 0xff, 0xe3 },
		call_rbx[] = { 0xff, 0xd3 }, notrack[] = { 0x3e, 0xff, 0xe0 },
		bnd_jmp[] = { 0xf2, 0xff, 0xe0 };
	struct user_regs_struct regs = { .rax = 0x1111, .r11 = 0x2222,
					 .rbx = 0x3333, .rsp = 0x8000 };
	struct emu_branch br;
	struct emu_insn i;

	i = decode(jmp_rax, 2, 0x10);
	cr_assert_eq(i.iclass, emu_ic_jmp_ind);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x1111);
	cr_expect(!br.push);
	i = decode(jmp_r11, 3, 0x10);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x2222);
	i = decode(call_rbx, 2, 0x10);
	cr_assert_eq(i.iclass, emu_ic_call_ind);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x3333);
	cr_expect(br.push);
	cr_expect_eq(br.push_addr, 0x7ff8);
	cr_expect_eq(br.push_value, 0x12);
	cr_expect_eq(regs.rsp, 0x7ff8);
	i = decode(notrack, 3, 0x10);
	cr_assert(i.emulable);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x1111);
	i = decode(bnd_jmp, 3, 0x10);
	cr_assert(i.emulable);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0x1111);
}

Test(branch, memory_operands)
{
	/* jmp [rax]; jmp [rax+rcx*8+0x10]; jmp [rip+0x20]; call [rsp+8] */
	uint8_t base[] = { 0xff, 0x20 },
		sib[] = { 0xff, 0x64, 0xc8, 0x10 },
		riprel[] = { 0xff, 0x25, 0x20, 0x00, 0x00, 0x00 },
		stack[] = { 0xff, 0x54, 0x24, 0x08 };
	struct user_regs_struct regs = { .rax = mem_base, .rcx = 3,
					 .rsp = mem_base + 0x80 };
	struct emu_branch br;
	struct emu_insn i;

	put64(mem_base, 0xa000);
	put64(mem_base + 0x10 + 24, 0xb000);
	put64(mem_base + 0x88, 0xc000);
	put64(mem_base + 0xa6, 0xd000);   /* rip-relative, see below */

	i = decode(base, 2, 0x10);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0xa000);
	i = decode(sib, 4, 0x10);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0xb000);
	/* At 0x10080, 6 bytes long: next 0x10086, +0x20 = 0x100a6.  */
	i = decode(riprel, 6, mem_base + 0x80);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0xd000);
	/* The operand is read with RSP before the push.  */
	i = decode(stack, 4, 0x40);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0xc000);
	cr_expect_eq(br.push_addr, mem_base + 0x78);
	cr_expect_eq(br.push_value, 0x44);
}

Test(branch, segment_bases)
{
	/* call fs:[0x28]; jmp gs:[rax+8] */
	uint8_t fs[] = { 0x64, 0xff, 0x14, 0x25, 0x28, 0x00, 0x00, 0x00 },
		gs[] = { 0x65, 0xff, 0x60, 0x08 };
	struct user_regs_struct regs = { .fs_base = mem_base + 0x10,
					 .gs_base = mem_base + 0x20,
					 .rax = 0x30, .rsp = mem_base + 0xf0 };
	struct emu_branch br;
	struct emu_insn i;

	put64(mem_base + 0x38, 0xf5000);
	put64(mem_base + 0x58, 0xf6000);
	i = decode(fs, 8, 0x10);
	cr_assert(i.emulable);
	cr_assert_eq(i.op.seg, emu_seg_fs);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0xf5000);
	i = decode(gs, 4, 0x10);
	cr_assert_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br), 0);
	cr_expect_eq(regs.rip, 0xf6000);
}

Test(branch, unprovable_forms_are_refused)
{
	/* 66h jmp ax (AMD truncates the IP); jmp [eax] (67h); far jmp. */
	uint8_t opsize[] = { 0x66, 0xff, 0xe0 }, addr32[] = { 0x67, 0xff, 0x20 };
	struct user_regs_struct regs = { .rax = mem_base };
	struct emu_branch br;
	struct emu_insn i;

	i = decode(opsize, 3, 0x10);
	cr_expect(!i.emulable);
	cr_expect_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br),
		     -pse_unsupported);
	i = decode(addr32, 3, 0x10);
	cr_expect(!i.emulable);
}

Test(branch, memory_fault_leaves_registers)
{
	uint8_t base[] = { 0xff, 0x20 };
	struct emu_insn i = decode(base, 2, 0x10);
	struct user_regs_struct regs = { .rax = 0x5, .rip = 0x10 };
	struct emu_branch br;

	cr_expect_eq(emu_branch_eval(&i, &regs, read_mem, NULL, &br),
		     -pse_fault);
	cr_expect_eq(regs.rip, 0x10);
}
