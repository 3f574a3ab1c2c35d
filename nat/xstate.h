/* The standard (non-compacted) XSAVE image that PTRACE_GETREGSET
   NT_X86_XSTATE returns: the FXSAVE legacy region, the XSAVE header and
   the extended components at the offsets CPUID leaf 0xD gives.  */
#ifndef NAT_XSTATE_H
#define NAT_XSTATE_H

#include <stddef.h>
#include <stdint.h>

enum {
	xstate_ncomp = 10,              /* components up to PKRU */

	/* FXSAVE legacy region (64-bit format).  */
	fxsave_fcw = 0,
	fxsave_fsw = 2,
	fxsave_ftw = 4,                 /* the abridged tag byte */
	fxsave_fop = 6,
	fxsave_fip = 8,
	fxsave_fcs = 12,
	fxsave_fdp = 16,
	fxsave_fds = 20,
	fxsave_mxcsr = 24,
	fxsave_st = 32,                 /* 8 registers, 16 bytes apart */
	fxsave_xmm = 160,               /* 16 registers, 16 bytes apart */
	fxsave_size = 512,

	/* The kernel's software bytes: the XCR0 it enabled for user space.  */
	xstate_sw_xcr0 = 464,
	xstate_header_bv = 512,         /* XSTATE_BV */
	xstate_header_comp = 520,       /* XCOMP_BV: 0 in the standard form */
	xstate_legacy_size = 576,       /* legacy region and header */

	fcw_init = 0x037f,
	mxcsr_init = 0x1f80,
};

/* Where each component lives in the standard form, from CPUID.  */
struct xstate_layout {
	uint32_t offset[xstate_ncomp];
	uint32_t size[xstate_ncomp];
};

/* Fill LAYOUT for the components in XCR0 (x87 and SSE are fixed).  */
void xstate_layout_init(struct xstate_layout *layout, uint64_t xcr0);

uint64_t xstate_load64(const uint8_t *p);
void xstate_store64(uint8_t *p, uint64_t v);

/* The tag word GDB's ftag shows (2 bits per physical register: 0 valid,
   1 zero, 2 special, 3 empty), rebuilt from an FXSAVE image's abridged
   tag byte, its TOP and the register contents.  */
uint16_t xstate_ftag_full(const uint8_t *fxsave);

/* The abridged tag byte for FTAG: a register is in use unless empty.  */
uint8_t xstate_ftag_abridged(uint16_t ftag);

#endif
