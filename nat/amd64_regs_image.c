#include "nat/amd64_regs_image.h"
#include "common/ps_error.h"

#include <string.h>

#define IMAGE_FIXED (sizeof(struct user_regs_struct) + 16)

size_t amd64_regs_image_size(const struct amd64_regs *regs)
{
	return IMAGE_FIXED + regs->xsave_len;
}

int amd64_regs_image_write(const struct amd64_regs *regs, uint8_t *out,
			   size_t len)
{
	uint32_t flag = regs->has_xstate, xlen = (uint32_t) regs->xsave_len;
	uint8_t *p = out;

	if (!regs->valid)
		return -pse_invalid;
	if (len < amd64_regs_image_size(regs))
		return -pse_range;
	memcpy(p, &regs->gpr, sizeof(regs->gpr));
	p += sizeof(regs->gpr);
	memcpy(p, &regs->xcr0, 8);
	memcpy(p + 8, &flag, 4);
	memcpy(p + 12, &xlen, 4);
	memcpy(p + 16, regs->xsave, regs->xsave_len);
	return 0;
}

int amd64_regs_image_read(struct amd64_regs *regs, const uint8_t *in,
			  size_t len)
{
	uint32_t flag, xlen;
	const uint8_t *p = in + sizeof(regs->gpr);

	if (len < IMAGE_FIXED)
		return -pse_invalid;
	memcpy(&flag, p + 8, 4);
	memcpy(&xlen, p + 12, 4);
	if (flag > 1 || xlen > sizeof(regs->xsave) || xlen < 512 ||
	    len != IMAGE_FIXED + xlen)
		return -pse_invalid;
	amd64_regs_init(regs);
	memcpy(&regs->gpr, in, sizeof(regs->gpr));
	memcpy(&regs->xcr0, p, 8);
	regs->has_xstate = flag;
	regs->xsave_len = xlen;
	memcpy(regs->xsave, p + 16, xlen);
	xstate_layout_init(&regs->layout, regs->xcr0);
	regs->valid = true;
	return 0;
}
