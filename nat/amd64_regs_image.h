/* A thread's registers as bytes, for a crash bundle's core: what
   `ptstub record` saves and `ptstub --postmortem` serves back.  The
   layout (little-endian, this host's): the PTRACE_GETREGS image, u64
   XCR0, u32 1 if the XSAVE area is the NT_X86_XSTATE one (else FXSAVE),
   u32 its length, the area.  */
#ifndef NAT_AMD64_REGS_IMAGE_H
#define NAT_AMD64_REGS_IMAGE_H

#include "nat/amd64_regs.h"

#include <stddef.h>
#include <stdint.h>

/* The bytes REGS (fetched) take as an image.  */
size_t amd64_regs_image_size(const struct amd64_regs *regs);

/* Write the image of REGS into OUT, LEN bytes (at least the size).  */
int amd64_regs_image_write(const struct amd64_regs *regs, uint8_t *out,
			   size_t len);

/* Set REGS from an image of LEN bytes; -pse_invalid if it is not one.  */
int amd64_regs_image_read(struct amd64_regs *regs, const uint8_t *in,
			  size_t len);

#endif
