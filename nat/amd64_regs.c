#include "nat/amd64_regs.h"
#include "xml/tdesc_amd64.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif

/* The user_regs_struct slots of tdesc_gpr's indexes, in tdesc order.  */
static const size_t gpr_offset[] = {
	offsetof(struct user_regs_struct, rax),
	offsetof(struct user_regs_struct, rbx),
	offsetof(struct user_regs_struct, rcx),
	offsetof(struct user_regs_struct, rdx),
	offsetof(struct user_regs_struct, rsi),
	offsetof(struct user_regs_struct, rdi),
	offsetof(struct user_regs_struct, rbp),
	offsetof(struct user_regs_struct, rsp),
	offsetof(struct user_regs_struct, r8),
	offsetof(struct user_regs_struct, r9),
	offsetof(struct user_regs_struct, r10),
	offsetof(struct user_regs_struct, r11),
	offsetof(struct user_regs_struct, r12),
	offsetof(struct user_regs_struct, r13),
	offsetof(struct user_regs_struct, r14),
	offsetof(struct user_regs_struct, r15),
	offsetof(struct user_regs_struct, rip),
	offsetof(struct user_regs_struct, eflags),
	offsetof(struct user_regs_struct, cs),
	offsetof(struct user_regs_struct, ss),
	offsetof(struct user_regs_struct, ds),
	offsetof(struct user_regs_struct, es),
	offsetof(struct user_regs_struct, fs),
	offsetof(struct user_regs_struct, gs),
};

/* Where an FXSAVE field of the x87 control registers is, and its size.  */
static const struct { uint8_t offset, size; } x87ctl_field[] = {
	[tdesc_fctrl] = { fxsave_fcw, 2 }, [tdesc_fstat] = { fxsave_fsw, 2 },
	[tdesc_ftag] = { fxsave_ftw, 1 },  [tdesc_fiseg] = { fxsave_fcs, 2 },
	[tdesc_fioff] = { fxsave_fip, 4 }, [tdesc_foseg] = { fxsave_fds, 2 },
	[tdesc_fooff] = { fxsave_fdp, 4 }, [tdesc_fop] = { fxsave_fop, 2 },
};

enum {
	comp_x87, comp_sse, comp_avx, comp_bndregs, comp_bndcsr, comp_opmask,
	comp_zmm_hi256, comp_hi16_zmm, comp_pkru = 9,
};

static int errno_code(void)
{
	switch (errno) {
	case ESRCH: return -pse_nothread;
	case EINVAL: case EFAULT: return -pse_invalid;
	case EPERM: case EACCES: return -pse_perm;
	default: return -pse_io;
	}
}

static uint8_t *xbuf(struct amd64_regs *regs)
{
	return (uint8_t *) regs->xsave;
}

static const uint8_t *cxbuf(const struct amd64_regs *regs)
{
	return (const uint8_t *) regs->xsave;
}

/* XSTATE_BV: which components hold more than their init state.  An
   FXSAVE image has no header; all of it is live.  */
static uint64_t xstate_bv(const struct amd64_regs *regs)
{
	if (!regs->has_xstate)
		return 1u << comp_x87 | 1u << comp_sse;
	return xstate_load64(cxbuf(regs) + xstate_header_bv);
}

void amd64_regs_init(struct amd64_regs *regs)
{
	memset(regs, 0, offsetof(struct amd64_regs, xsave));
}

int amd64_regs_fetch(struct amd64_regs *regs, pid_t tid)
{
	struct iovec iov = { regs->xsave, sizeof(regs->xsave) };

	amd64_regs_init(regs);
	if (ptrace(PTRACE_GETREGS, tid, 0, &regs->gpr) < 0)
		return errno_code();
	if (ptrace(PTRACE_GETREGSET, tid, (void *) NT_X86_XSTATE, &iov) == 0) {
		regs->has_xstate = true;
		regs->xsave_len = iov.iov_len;
		regs->xcr0 = xstate_load64(xbuf(regs) + xstate_sw_xcr0);
	} else if (errno == EINVAL || errno == ENODEV) {
		/* A kernel or CPU without XSAVE: the FXSAVE image is all.  */
		if (ptrace(PTRACE_GETFPREGS, tid, 0, regs->xsave) < 0)
			return errno_code();
		regs->xsave_len = fxsave_size;
		regs->xcr0 = 1u << comp_x87 | 1u << comp_sse;
	} else {
		return errno_code();
	}
	xstate_layout_init(&regs->layout, regs->xcr0);
	regs->valid = true;
	return 0;
}

int amd64_regs_store(struct amd64_regs *regs, pid_t tid)
{
	if (!regs->valid)
		return 0;
	if (regs->gpr_dirty) {
		if (ptrace(PTRACE_SETREGS, tid, 0, &regs->gpr) < 0)
			return errno_code();
		regs->gpr_dirty = false;
	}
	if (regs->xsave_dirty) {
		struct iovec iov = { regs->xsave, regs->xsave_len };
		long rc;

		if (regs->has_xstate)
			rc = ptrace(PTRACE_SETREGSET, tid, (void *) NT_X86_XSTATE,
				    &iov);
		else
			rc = ptrace(PTRACE_SETFPREGS, tid, 0, regs->xsave);
		if (rc < 0)
			return errno_code();
		regs->xsave_dirty = false;
	}
	return 0;
}

void amd64_regs_invalidate(struct amd64_regs *regs)
{
	regs->valid = false;
	regs->gpr_dirty = false;
	regs->xsave_dirty = false;
}

uint64_t amd64_regs_xcr0(const struct amd64_regs *regs)
{
	return regs->xcr0;
}

int amd64_host_xcr0(pid_t tid, uint64_t *xcr0)
{
	uint64_t buf[fxsave_size / 8 + 8];   /* legacy region and header */
	struct iovec iov = { buf, sizeof(buf) };

	if (ptrace(PTRACE_GETREGSET, tid, (void *) NT_X86_XSTATE, &iov) == 0) {
		*xcr0 = xstate_load64((uint8_t *) buf + xstate_sw_xcr0);
		return 0;
	}
	if (errno == EINVAL || errno == ENODEV) {
		*xcr0 = 1u << comp_x87 | 1u << comp_sse;
		return 0;
	}
	return errno_code();
}

/* The XSAVE component and byte offset of a register kept as plain bytes
   in the image, or -1 for those that need converting.  */
static int locate(const struct amd64_regs *regs, const struct tdesc_reg *r,
		  unsigned *offset)
{
	const uint32_t *off = regs->layout.offset;
	unsigned i = r->index, hi = i - 16;
	int comp;

	switch (r->cls) {
	case tdesc_st:
		comp = comp_x87, *offset = fxsave_st + 16 * i;
		break;
	case tdesc_xmm:
		if (i < 16)
			comp = comp_sse, *offset = fxsave_xmm + 16 * i;
		else
			comp = comp_hi16_zmm, *offset = off[comp] + 64 * hi;
		break;
	case tdesc_ymmh:
		if (i < 16)
			comp = comp_avx, *offset = off[comp] + 16 * i;
		else
			comp = comp_hi16_zmm, *offset = off[comp] + 64 * hi + 16;
		break;
	case tdesc_zmmh:
		if (i < 16)
			comp = comp_zmm_hi256, *offset = off[comp] + 32 * i;
		else
			comp = comp_hi16_zmm, *offset = off[comp] + 64 * hi + 32;
		break;
	case tdesc_k:
		comp = comp_opmask, *offset = off[comp] + 8 * i;
		break;
	case tdesc_bnd:
		comp = comp_bndregs, *offset = off[comp] + 16 * i;
		break;
	case tdesc_bndcsr:
		comp = comp_bndcsr, *offset = off[comp] + 8 * i;
		break;
	case tdesc_pkru:
		comp = comp_pkru, *offset = off[comp];
		break;
	default:
		return -1;
	}
	return comp;
}

/* Is COMP's image for a register of LEN bytes at OFFSET present?  */
static bool comp_present(const struct amd64_regs *regs, int comp,
			 unsigned offset, size_t len)
{
	if (!(regs->xcr0 & (1ull << comp)) || offset + len > regs->xsave_len)
		return false;
	return comp < 2 || regs->layout.offset[comp] != 0;
}

static uint64_t x87ctl_value(const struct amd64_regs *regs, unsigned which)
{
	const uint8_t *x = cxbuf(regs);
	uint64_t v = 0;

	if (!(xstate_bv(regs) & (1u << comp_x87)))
		return which == tdesc_fctrl ? fcw_init :
			which == tdesc_ftag ? 0xffff : 0;
	if (which == tdesc_ftag)
		return xstate_ftag_full(x);
	memcpy(&v, x + x87ctl_field[which].offset, x87ctl_field[which].size);
	return which == tdesc_fop ? (v & 0x7ff) : v;
}

static uint32_t mxcsr_value(const struct amd64_regs *regs)
{
	uint32_t v;

	if (!(xstate_bv(regs) & (1u << comp_sse | 1u << comp_avx)))
		return mxcsr_init;
	memcpy(&v, cxbuf(regs) + fxsave_mxcsr, sizeof(v));
	return v;
}

static const size_t *other_gpr(unsigned cls, unsigned index)
{
	static const size_t orig_rax =
		offsetof(struct user_regs_struct, orig_rax);
	static const size_t bases[] = {
		offsetof(struct user_regs_struct, fs_base),
		offsetof(struct user_regs_struct, gs_base),
	};

	if (cls == tdesc_orig_rax)
		return &orig_rax;
	if (cls == tdesc_seg_base && index < 2)
		return &bases[index];
	if (cls == tdesc_gpr && index < sizeof(gpr_offset) / sizeof(gpr_offset[0]))
		return &gpr_offset[index];
	return NULL;
}

/* REGNO's description and size in bytes, for a valid register cache.  */
static int lookup(const struct amd64_regs *regs, unsigned regno,
		  const struct tdesc_reg **r, size_t *len)
{
	if (!regs->valid)
		return -pse_invalid;
	*r = tdesc_amd64_reg(regs->xcr0, regno);
	if (!*r)
		return -pse_range;
	*len = (*r)->bitsize / 8;
	return 0;
}

int amd64_regs_read(const struct amd64_regs *regs, unsigned regno,
		    void *out, size_t size)
{
	const struct tdesc_reg *r;
	const size_t *gpr;
	size_t len;
	unsigned offset;
	int comp, err = lookup(regs, regno, &r, &len);

	if (err < 0)
		return err;
	if (size < len)
		return -pse_invalid;

	gpr = other_gpr(r->cls, r->index);
	if (gpr) {
		memcpy(out, (const uint8_t *) &regs->gpr + *gpr, len);
		return (int) len;
	}
	if (r->cls == tdesc_x87ctl) {
		uint32_t v = (uint32_t) x87ctl_value(regs, r->index);

		memcpy(out, &v, len);
		return (int) len;
	}
	if (r->cls == tdesc_mxcsr) {
		uint32_t v = mxcsr_value(regs);

		memcpy(out, &v, len);
		return (int) len;
	}
	comp = locate(regs, r, &offset);
	if (comp < 0)
		return -pse_internal;
	if (!comp_present(regs, comp, offset, len) ||
	    !(xstate_bv(regs) & (1ull << comp)))
		memset(out, 0, len);
	else
		memcpy(out, cxbuf(regs) + offset, len);
	return (int) len;
}

/* Put COMP into its init state in the image and mark it in use, so that
   writing one register of it leaves the others as they were shown.  */
static void comp_activate(struct amd64_regs *regs, int comp)
{
	uint8_t *x = xbuf(regs);
	uint64_t bv = xstate_bv(regs);

	if (bv & (1ull << comp))
		return;
	if (comp == comp_x87) {
		memset(x, 0, fxsave_mxcsr);
		x[fxsave_fcw] = fcw_init & 0xff;
		x[fxsave_fcw + 1] = fcw_init >> 8;
		memset(x + fxsave_st, 0, 8 * 16);
	} else if (comp == comp_sse) {
		memset(x + fxsave_xmm, 0, 16 * 16);
	} else {
		memset(x + regs->layout.offset[comp], 0, regs->layout.size[comp]);
	}
	/* MXCSR belongs to SSE and AVX both: it was shown as its init value.  */
	if ((comp == comp_sse || comp == comp_avx) &&
	    !(bv & (1u << comp_sse | 1u << comp_avx))) {
		uint32_t init = mxcsr_init;

		memcpy(x + fxsave_mxcsr, &init, sizeof(init));
	}
	xstate_store64(x + xstate_header_bv, bv | 1ull << comp);
}

static void write_x87ctl(struct amd64_regs *regs, unsigned which,
			 uint32_t v)
{
	uint8_t *x = xbuf(regs);
	unsigned off = x87ctl_field[which].offset;

	comp_activate(regs, comp_x87);
	if (which == tdesc_ftag) {
		x[off] = xstate_ftag_abridged((uint16_t) v);
		return;
	}
	if (which == tdesc_fop) {
		uint16_t old;

		memcpy(&old, x + off, sizeof(old));
		v = (v & 0x7ff) | (old & 0xf800u);
	}
	memcpy(x + off, &v, x87ctl_field[which].size);
}

int amd64_regs_write(struct amd64_regs *regs, unsigned regno,
		     const void *in, size_t size)
{
	const struct tdesc_reg *r;
	const size_t *gpr;
	size_t len;
	unsigned offset;
	int comp, err = lookup(regs, regno, &r, &len);

	if (err < 0)
		return err;
	if (size != len)
		return -pse_invalid;

	gpr = other_gpr(r->cls, r->index);
	if (gpr) {
		memcpy((uint8_t *) &regs->gpr + *gpr, in, len);
		regs->gpr_dirty = true;
		return 0;
	}
	if (r->cls == tdesc_x87ctl || r->cls == tdesc_mxcsr) {
		uint32_t v;

		memcpy(&v, in, sizeof(v));
		if (r->cls == tdesc_x87ctl) {
			write_x87ctl(regs, r->index, v);
		} else {
			if (!(xstate_bv(regs) & (1u << comp_sse | 1u << comp_avx)))
				comp_activate(regs, comp_sse);
			memcpy(xbuf(regs) + fxsave_mxcsr, &v, sizeof(v));
		}
		regs->xsave_dirty = true;
		return 0;
	}
	comp = locate(regs, r, &offset);
	if (comp < 0)
		return -pse_internal;
	if (!comp_present(regs, comp, offset, len))
		return -pse_unsupported;
	comp_activate(regs, comp);
	memcpy(xbuf(regs) + offset, in, len);
	regs->xsave_dirty = true;
	return 0;
}

int amd64_regs_g_packet(const struct amd64_regs *regs, struct ps_buf *hex)
{
	unsigned n;

	if (!regs->valid)
		return -pse_invalid;
	n = tdesc_amd64_nregs(regs->xcr0);
	for (unsigned regno = 0; regno < n; regno++) {
		uint8_t value[64];
		int len = amd64_regs_read(regs, regno, value, sizeof(value));
		int err;

		if (len < 0)
			return len;
		err = ps_buf_put_hex(hex, value, (size_t) len);
		if (err < 0)
			return err;
	}
	return 0;
}

int amd64_regs_G_packet(struct amd64_regs *regs, const char *hex,
			size_t len)
{
	unsigned n;
	size_t total = 0;

	if (!regs->valid)
		return -pse_invalid;
	n = tdesc_amd64_nregs(regs->xcr0);
	for (unsigned regno = 0; regno < n; regno++)
		total += tdesc_amd64_reg(regs->xcr0, regno)->bitsize / 8;
	if (len != 2 * total)
		return -pse_invalid;
	for (size_t i = 0; i < len; i++)
		if (ps_hex_digit((unsigned char) hex[i]) < 0)
			return -pse_invalid;

	/* Only what differs: writing a register marks its XSAVE component
	   in use, which unchanged values must not do.  */
	for (unsigned regno = 0; regno < n; regno++) {
		uint8_t cur[64], value[64];
		int size = amd64_regs_read(regs, regno, cur, sizeof(cur));
		int err;

		if (size < 0)
			return size;
		err = ps_hex_decode(value, hex, (size_t) size);
		if (err < 0)
			return err;
		hex += 2 * size;
		if (memcmp(cur, value, (size_t) size)) {
			err = amd64_regs_write(regs, regno, value, (size_t) size);
			if (err < 0)
				return err;
		}
	}
	return 0;
}

uint64_t amd64_regs_pc(const struct amd64_regs *regs)
{
	return regs->gpr.rip;
}

void amd64_regs_set_pc(struct amd64_regs *regs, uint64_t pc)
{
	regs->gpr.rip = pc;
	regs->gpr_dirty = true;
}

uint64_t amd64_regs_sp(const struct amd64_regs *regs)
{
	return regs->gpr.rsp;
}

void amd64_regs_set_sp(struct amd64_regs *regs, uint64_t sp)
{
	regs->gpr.rsp = sp;
	regs->gpr_dirty = true;
}
