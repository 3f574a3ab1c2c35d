#include "nat/xstate.h"

#include <cpuid.h>
#include <string.h>

void xstate_layout_init(struct xstate_layout *layout, uint64_t xcr0)
{
	memset(layout, 0, sizeof(*layout));
	layout->offset[0] = 0;
	layout->size[0] = 160;
	layout->offset[1] = fxsave_xmm;
	layout->size[1] = 256;

	/* Vendors differ (AMD puts PKRU right after AVX-512): ask CPUID.  */
	for (unsigned c = 2; c < xstate_ncomp; c++) {
		unsigned eax, ebx, ecx, edx;

		if (!(xcr0 & (1ull << c)))
			continue;
		if (!__get_cpuid_count(0xd, c, &eax, &ebx, &ecx, &edx))
			continue;
		layout->size[c] = eax;
		layout->offset[c] = ebx;
	}
}

uint64_t xstate_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

void xstate_store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* The tag of one 80-bit register that is in use.  */
static unsigned ftag_of(const uint8_t *raw)
{
	unsigned exponent = (raw[9] & 0x7fu) << 8 | raw[8];
	int integer = raw[7] & 0x80;
	uint64_t mantissa = xstate_load64(raw);

	if (exponent == 0x7fff)
		return 2;
	if (exponent == 0)
		return mantissa == 0 ? 1 : 2;
	return integer ? 0 : 2;
}

uint16_t xstate_ftag_full(const uint8_t *fxsave)
{
	unsigned top = (fxsave[fxsave_fsw + 1] >> 3) & 7;
	uint8_t abridged = fxsave[fxsave_ftw];
	uint16_t ftag = 0;

	/* Tags are by physical register; FXSAVE stores ST(i), which is
	   physical register (TOP + i) mod 8.  */
	for (unsigned phys = 0; phys < 8; phys++) {
		unsigned st = (phys + 8 - top) & 7;
		unsigned tag = 3;

		if (abridged & (1u << phys))
			tag = ftag_of(fxsave + fxsave_st + 16 * st);
		ftag |= (uint16_t) (tag << (2 * phys));
	}
	return ftag;
}

uint8_t xstate_ftag_abridged(uint16_t ftag)
{
	uint8_t abridged = 0;

	for (unsigned phys = 0; phys < 8; phys++)
		if (((ftag >> (2 * phys)) & 3) != 3)
			abridged |= (uint8_t) (1u << phys);
	return abridged;
}
