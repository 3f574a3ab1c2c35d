/* The amd64 GNU/Linux target description: one register table from which
   both target.xml and the register numbers of the remote protocol come.
   The features present follow XCR0 the way GDB's own amd64 Linux
   descriptions do: core, sse, linux, segments always; avx, mpx, avx512
   and pkeys when their XSAVE components are enabled.  */
#ifndef XML_TDESC_AMD64_H
#define XML_TDESC_AMD64_H

#include <stdint.h>

struct ps_buf;

/* XCR0 bits (XSAVE components) that select features.  */
enum tdesc_amd64_xcr0 {
	tdesc_xcr0_x87 = 1u << 0,
	tdesc_xcr0_sse = 1u << 1,
	tdesc_xcr0_avx = 1u << 2,
	tdesc_xcr0_bndregs = 1u << 3,
	tdesc_xcr0_bndcsr = 1u << 4,
	tdesc_xcr0_opmask = 1u << 5,
	tdesc_xcr0_zmm_hi256 = 1u << 6,
	tdesc_xcr0_hi16_zmm = 1u << 7,
	tdesc_xcr0_pkru = 1u << 9,

	tdesc_xcr0_mpx = tdesc_xcr0_bndregs | tdesc_xcr0_bndcsr,
	tdesc_xcr0_avx512 = tdesc_xcr0_opmask | tdesc_xcr0_zmm_hi256 |
		tdesc_xcr0_hi16_zmm,
};

/* What a register is, independent of where an OS keeps it: the register
   cache maps each class to its ptrace or XSAVE storage.  */
enum tdesc_amd64_class {
	tdesc_gpr,        /* index: 0-15 rax..r15 in tdesc order, 16 rip,
			     17 eflags, 18-23 cs ss ds es fs gs */
	tdesc_st,         /* index: st0-st7 */
	tdesc_x87ctl,     /* index: enum tdesc_amd64_x87ctl */
	tdesc_xmm,        /* index: xmm0-xmm31 */
	tdesc_mxcsr,
	tdesc_orig_rax,
	tdesc_seg_base,   /* index: 0 fs_base, 1 gs_base */
	tdesc_ymmh,       /* index: ymm0h-ymm31h (bits 128-255) */
	tdesc_bnd,        /* index: bnd0raw-bnd3raw */
	tdesc_bndcsr,     /* index: 0 bndcfgu, 1 bndstatus */
	tdesc_k,          /* index: k0-k7 */
	tdesc_zmmh,       /* index: zmm0h-zmm31h (bits 256-511) */
	tdesc_pkru,
};

enum tdesc_amd64_x87ctl {
	tdesc_fctrl, tdesc_fstat, tdesc_ftag, tdesc_fiseg,
	tdesc_fioff, tdesc_foseg, tdesc_fooff, tdesc_fop,
};

struct tdesc_reg {
	const char *name;
	unsigned bitsize;
	const char *type;        /* a tdesc type name */
	const char *group;       /* "float", "vector" or NULL */
	enum tdesc_amd64_class cls;
	unsigned index;          /* within the class */
};

/* The number of registers for XCR0.  */
unsigned tdesc_amd64_nregs(uint64_t xcr0);

/* Register REGNO (the remote protocol number) for XCR0, or NULL.  */
const struct tdesc_reg *tdesc_amd64_reg(uint64_t xcr0, unsigned regno);

/* The number of register NAME for XCR0, or -pse_notfound.  */
int tdesc_amd64_regno(uint64_t xcr0, const char *name);

/* Append the document ANNEX ("target.xml", the only one: it is
   self-contained) for XCR0 to OUT; -pse_notfound for any other annex.  */
int tdesc_amd64_xml(uint64_t xcr0, const char *annex, struct ps_buf *out);

#endif
