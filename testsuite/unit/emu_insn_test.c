/* Instruction classes as libipt's decoder sees them, from real bytes.  */
#include "nat/emu/emu_insn.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>

static struct emu_decoder *dec;

static void setup(void) { cr_assert_eq(emu_decoder_alloc(&dec), 0); }
static void teardown(void) { emu_decoder_free(dec); }

TestSuite(insn, .init = setup, .fini = teardown);

static struct emu_insn decode(const uint8_t *bytes, size_t len)
{
	struct emu_insn insn;

	cr_assert_eq(emu_insn_decode(dec, 0x1000, bytes, len, &insn), 0);
	return insn;
}

Test(insn, direct_branches_have_targets)
{
	uint8_t jmp8[] = { 0xeb, 0x10 }, jmp32[] = { 0xe9, 0x00, 0x01, 0, 0 },
		call[] = { 0xe8, 0xfb, 0xff, 0xff, 0xff };
	struct emu_insn i;

	i = decode(jmp8, 2);
	cr_expect_eq(i.iclass, emu_ic_jmp);
	cr_expect_eq(i.target, 0x1012);
	cr_expect(!emu_insn_is_stop(&i));
	i = decode(jmp32, 5);
	cr_expect_eq(i.target, 0x1105);
	i = decode(call, 5);
	cr_expect_eq(i.iclass, emu_ic_call);
	cr_expect_eq(i.target, 0x1000);
	cr_expect_eq(i.len, 5);
	cr_expect(!emu_insn_is_stop(&i));
}

Test(insn, stops_and_classes)
{
	uint8_t syscall[] = { 0x0f, 0x05 }, int3[] = { 0xcc },
		int80[] = { 0xcd, 0x80 }, ud2[] = { 0x0f, 0x0b },
		ret[] = { 0xc3 }, farjmp[] = { 0xff, 0x2c, 0x24 },
		iret[] = { 0x48, 0xcf }, nop[] = { 0x90 },
		xbegin[] = { 0xc7, 0xf8, 0, 0, 0, 0 };
	struct emu_insn i;

	i = decode(syscall, 2);
	cr_expect_eq(i.iclass, emu_ic_far_kernel);
	cr_expect(emu_insn_is_stop(&i));
	i = decode(int3, 1);
	cr_expect_eq(i.iclass, emu_ic_int3);
	i = decode(int80, 2);
	cr_expect_eq(i.iclass, emu_ic_far_kernel);
	i = decode(ud2, 2);
	cr_expect_eq(i.iclass, emu_ic_other);
	cr_expect(!emu_insn_is_stop(&i), "a fault is an async event");
	i = decode(ret, 1);
	cr_expect_eq(i.iclass, emu_ic_ret);
	cr_expect(i.emulable);
	i = decode(farjmp, 3);
	cr_expect_eq(i.iclass, emu_ic_far);
	i = decode(iret, 2);
	cr_expect_eq(i.iclass, emu_ic_far);
	i = decode(nop, 1);
	cr_expect(!emu_insn_is_stop(&i));
	i = decode(xbegin, 6);
	cr_expect(emu_insn_is_stop(&i), "transactions are stepped");
}

Test(insn, rep_string_instructions)
{
	uint8_t movsb[] = { 0xf3, 0xa4 }, stosq[] = { 0xf3, 0x48, 0xab },
		plain[] = { 0xa4 }, repne_scasb[] = { 0xf2, 0xae };

	cr_expect(decode(movsb, 2).rep);
	cr_expect(decode(stosq, 3).rep);
	cr_expect(!decode(plain, 1).rep);
	cr_expect(decode(repne_scasb, 2).rep);
}

Test(insn, avx512_lengths)
{
	/* vmovdqu64 zmm16, [rsi] (EVEX); vpcmpeqb k1, zmm16, [rdi+0x40] */
	uint8_t mov[] = { 0x62, 0xe1, 0xfe, 0x48, 0x6f, 0x06 },
		cmp[] = { 0x62, 0xb3, 0x7d, 0x40, 0x3f, 0x4f, 0x01, 0x00 };

	cr_expect_eq(decode(mov, 6).len, 6);
	cr_expect_eq(decode(mov, 6).iclass, emu_ic_other);
	cr_expect_eq(decode(cmp, 8).len, 8);
}

Test(insn, invalid_bytes)
{
	uint8_t bad[] = { 0x06 };   /* push es: invalid in 64-bit mode */
	struct emu_insn insn;

	cr_expect_eq(emu_insn_decode(dec, 0, bad, 1, &insn), -pse_invalid);
	cr_expect_eq(emu_insn_decode(dec, 0, (uint8_t[]) { 0xe8, 0 }, 2,
				     &insn), -pse_invalid, "truncated");
}

Test(insn, stack_effects)
{
	struct emu_insn i;

	i = decode((uint8_t[]) { 0x55 }, 1);                      /* push rbp */
	cr_expect_eq(i.fx, emu_fx_push);
	i = decode((uint8_t[]) { 0x5b }, 1);                      /* pop rbx */
	cr_expect_eq(i.fx, emu_fx_pop);
	cr_expect_eq(i.fx_reg, 3);
	i = decode((uint8_t[]) { 0x48, 0x83, 0xec, 0x28 }, 4);    /* sub rsp, 0x28 */
	cr_expect_eq(i.fx, emu_fx_rsp_add);
	cr_expect_eq(i.fx_disp, -0x28);
	i = decode((uint8_t[]) { 0x48, 0x89, 0xe5 }, 3);          /* mov rbp, rsp */
	cr_expect_eq(i.fx, emu_fx_rbp_rsp);
	i = decode((uint8_t[]) { 0xc9 }, 1);                      /* leave */
	cr_expect_eq(i.fx, emu_fx_leave);
	i = decode((uint8_t[]) { 0x89, 0x44, 0x24, 0x08 }, 4);    /* mov [rsp+8], eax */
	cr_expect_eq(i.fx, emu_fx_store);
	cr_expect_eq(i.fx_reg, 4);
	cr_expect_eq(i.fx_disp, 8);
	cr_expect_eq(i.fx_size, 4);
	i = decode((uint8_t[]) { 0x89, 0x07 }, 2);                /* mov [rdi], eax */
	cr_expect_eq(i.fx, emu_fx_unknown, "a store anywhere");
	i = decode((uint8_t[]) { 0x48, 0x89, 0xc4 }, 3);          /* mov rsp, rax */
	cr_expect_eq(i.fx, emu_fx_unknown);
	i = decode((uint8_t[]) { 0x01, 0xd8 }, 2);                /* add eax, ebx */
	cr_expect_eq(i.fx, emu_fx_none);
}

Test(insn, alu_summaries)
{
	struct emu_insn i;

	i = decode((uint8_t[]) { 0x83, 0xff, 0x01 }, 3);          /* cmp edi, 1 */
	cr_expect_eq(i.alu, emu_alu_cmp);
	cr_expect_eq(i.alu_dst, 7);
	cr_expect_eq(i.alu_src, emu_reg_none);
	cr_expect_eq(i.alu_imm, 1);
	cr_expect_eq(i.alu_width, 32);
	cr_expect(i.flag_writes);
	i = decode((uint8_t[]) { 0x8d, 0x7b, 0xff }, 3);          /* lea edi, [rbx-1] */
	cr_expect_eq(i.alu, emu_alu_other);
	cr_expect_eq(i.reg_writes, 1u << 7);
	cr_expect(!i.flag_writes);
	i = decode((uint8_t[]) { 0x0f, 0xa2 }, 2);                /* cpuid */
	cr_expect_eq(i.reg_writes, 0xf, "hidden operands count");
}

/* Every instruction that writes memory is a store to the RET shortcut:
   x87, SSE/AVX, masked, locked and string forms, with their real
   extent; those whose extent the operand does not bound (XSAVE's area,
   BT* with a register bit offset, scatters) are unknown.  */
Test(insn, every_memory_write_is_a_store)
{
	static const struct {
		const char *name;
		uint8_t bytes[8];
		uint8_t len;
		uint8_t fx;
		uint16_t size;
	} cases[] = {
		{ "fnstcw [rsp+0x26]", { 0xd9, 0x7c, 0x24, 0x26 }, 4,
		  emu_fx_store, 2 },
		{ "fstp tbyte [rsp]", { 0xdb, 0x3c, 0x24 }, 3, emu_fx_store, 10 },
		{ "fnstenv [rsp]", { 0xd9, 0x34, 0x24 }, 3, emu_fx_store, 28 },
		{ "fxsave [rsp]", { 0x0f, 0xae, 0x04, 0x24 }, 4, emu_fx_store,
		  512 },
		{ "movaps [rsp], xmm0", { 0x0f, 0x29, 0x04, 0x24 }, 4,
		  emu_fx_store, 16 },
		{ "vmovups [rsp], ymm0", { 0xc5, 0xfc, 0x11, 0x04, 0x24 }, 5,
		  emu_fx_store, 32 },
		{ "vmaskmovps [rsp], ymm1, ymm0",
		  { 0xc4, 0xe2, 0x75, 0x2e, 0x04, 0x24 }, 6, emu_fx_store, 32 },
		{ "vmovdqu8 [rsp]{k1}, zmm0",
		  { 0x62, 0xf1, 0x7f, 0x49, 0x7f, 0x04, 0x24 }, 7,
		  emu_fx_store, 64 },
		{ "cmpxchg [rsp], rax", { 0x48, 0x0f, 0xb1, 0x04, 0x24 }, 5,
		  emu_fx_store, 8 },
		{ "cmpxchg16b [rsp]", { 0x48, 0x0f, 0xc7, 0x0c, 0x24 }, 5,
		  emu_fx_store, 16 },
		{ "setz [rsp]", { 0x0f, 0x94, 0x04, 0x24 }, 4, emu_fx_store, 1 },
		{ "xsave [rsp]", { 0x0f, 0xae, 0x24, 0x24 }, 4, emu_fx_unknown },
		{ "xsavec [rsp]", { 0x0f, 0xc7, 0x24, 0x24 }, 4,
		  emu_fx_unknown },
		{ "bts [rsp], rax", { 0x48, 0x0f, 0xab, 0x04, 0x24 }, 5,
		  emu_fx_unknown },
		{ "pop [rsp]", { 0x8f, 0x04, 0x24 }, 3, emu_fx_unknown },
		{ "stosb", { 0xaa }, 1, emu_fx_unknown },
		{ "maskmovdqu", { 0x66, 0x0f, 0xf7, 0xc1 }, 4, emu_fx_unknown },
		{ "vpscatterdd", { 0x62, 0xf2, 0x7d, 0x49, 0xa0, 0x04, 0x8c },
		  7, emu_fx_unknown },
		{ "enter", { 0xc8, 0x10, 0x00, 0x00 }, 4, emu_fx_unknown },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct emu_insn insn = decode(cases[i].bytes, cases[i].len);

		cr_expect_eq(insn.fx, cases[i].fx, "%s: fx %u", cases[i].name,
			     insn.fx);
		if (cases[i].fx == emu_fx_store)
			cr_expect_eq(insn.fx_size, cases[i].size, "%s: size %u",
				     cases[i].name, insn.fx_size);
	}
}
