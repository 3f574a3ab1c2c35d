#include <criterion/criterion.h>

#include "nat/xstate.h"

#include <string.h>

/* An 80-bit register image: 64-bit mantissa (explicit integer bit) and
   sign+exponent.  */
static void put_st(uint8_t *fx, unsigned st, uint64_t mantissa,
		   uint16_t sign_exp)
{
	uint8_t *p = fx + fxsave_st + 16 * st;

	memcpy(p, &mantissa, 8);
	memcpy(p + 8, &sign_exp, 2);
}

static void put_top(uint8_t *fx, unsigned top)
{
	uint16_t fsw = (uint16_t) (top << 11);

	memcpy(fx + fxsave_fsw, &fsw, 2);
}

Test(xstate, ftag_all_empty)
{
	uint8_t fx[512];

	memset(fx, 0xa5, sizeof(fx));   /* stale contents must not matter */
	fx[fxsave_ftw] = 0;
	cr_assert_eq(xstate_ftag_full(fx), 0xffff);
}

/* Six loads: st0 1.5, st1 -2.25, st2 a denormal, st3 +inf, st4 zero,
   st5 1.0; TOP 2, so st(i) is physical register 2+i.  By hand: physical
   0,1 empty (3,3), 2,3 valid (0,0), 4,5 special (2,2), 6 zero (1), 7
   valid (0): 0b00'01'10'10'00'00'11'11 = 0x1a0f.  */
Test(xstate, ftag_mixed_stack)
{
	uint8_t fx[512];

	memset(fx, 0, sizeof(fx));
	put_top(fx, 2);
	fx[fxsave_ftw] = 0xfc;
	put_st(fx, 0, 0xc000000000000000ull, 0x3fff);
	put_st(fx, 1, 0x9000000000000000ull, 0xc000);
	put_st(fx, 2, 0x0000000000000001ull, 0x0000);
	put_st(fx, 3, 0x8000000000000000ull, 0x7fff);
	put_st(fx, 4, 0, 0);
	put_st(fx, 5, 0x8000000000000000ull, 0x3fff);
	put_st(fx, 6, 0x1234, 0x4000);   /* stale: its register is empty */
	cr_assert_eq(xstate_ftag_full(fx), 0x1a0f);
	cr_assert_eq(xstate_ftag_abridged(0x1a0f), 0xfc);
}

/* TOP 7, one register: physical 7 holds st0.  Zero gives 1 << 14 on top
   of seven empty tags (0x3fff); a NaN 2 << 14; an unnormal (integer bit
   clear, exponent neither 0 nor max) is special too.  */
Test(xstate, ftag_single_register_at_top_7)
{
	uint8_t fx[512];

	memset(fx, 0, sizeof(fx));
	put_top(fx, 7);
	fx[fxsave_ftw] = 0x80;
	cr_assert_eq(xstate_ftag_full(fx), 0x7fff);
	put_st(fx, 0, 0xc000000000000000ull, 0xffff);
	cr_assert_eq(xstate_ftag_full(fx), 0xbfff);
	put_st(fx, 0, 0x4000000000000000ull, 0x3fff);
	cr_assert_eq(xstate_ftag_full(fx), 0xbfff);
	put_st(fx, 0, 0x8000000000000000ull, 0x3fff);
	cr_assert_eq(xstate_ftag_full(fx), 0x3fff);
}

Test(xstate, ftag_abridged)
{
	cr_assert_eq(xstate_ftag_abridged(0xffff), 0x00);
	cr_assert_eq(xstate_ftag_abridged(0x0000), 0xff);
	cr_assert_eq(xstate_ftag_abridged(0x5555), 0xff);   /* all zero */
	cr_assert_eq(xstate_ftag_abridged(0x7fff), 0x80);
	cr_assert_eq(xstate_ftag_abridged(0xfffe), 0x01);
}

static uint64_t host_xcr0(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t) hi << 32 | lo;
}

/* The architectural sizes, at offsets past the legacy region and header
   and without overlaps.  */
Test(xstate, layout_from_cpuid)
{
	static const uint32_t arch_size[xstate_ncomp] = {
		[2] = 256, [3] = 64, [4] = 16, [5] = 64, [6] = 512,
		[7] = 1024, [9] = 8,
	};
	uint64_t xcr0 = host_xcr0();
	struct xstate_layout lay;

	xstate_layout_init(&lay, xcr0);
	cr_assert_eq(lay.offset[1], fxsave_xmm);
	for (unsigned c = 2; c < xstate_ncomp; c++) {
		if (!(xcr0 & (1ull << c))) {
			cr_assert_eq(lay.offset[c], 0);
			continue;
		}
		cr_assert_geq(lay.offset[c], xstate_legacy_size, "comp %u", c);
		cr_assert_eq(lay.size[c], arch_size[c], "comp %u", c);
		for (unsigned d = 2; d < c; d++)
			if (xcr0 & (1ull << d))
				cr_assert(lay.offset[d] + lay.size[d] <= lay.offset[c] ||
					  lay.offset[c] + lay.size[c] <= lay.offset[d]);
	}
}

Test(xstate, load_store)
{
	uint8_t b[12] = { 0 };

	xstate_store64(b + 3, 0x0102030405060708ull);
	cr_assert_eq(b[3], 0x08);
	cr_assert_eq(b[10], 0x01);
	cr_assert_eq(xstate_load64(b + 3), 0x0102030405060708ull);
}
