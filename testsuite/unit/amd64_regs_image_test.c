/* Register images: what a crash bundle keeps of a thread's registers
   reads back as the same registers; anything else is refused.  */
#include "nat/amd64_regs_image.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static void sample(struct amd64_regs *r)
{
	amd64_regs_init(r);
	r->gpr.rax = 0x1122334455667788ull;
	r->gpr.rip = 0x401000;
	r->gpr.rsp = 0x7ffffffde000;
	r->xcr0 = 3;
	r->has_xstate = true;
	r->xsave_len = 1024;
	for (size_t i = 0; i < 128; i++)
		r->xsave[i] = i * 0x0101010101010101ull;
	xstate_layout_init(&r->layout, r->xcr0);
	r->valid = true;
}

Test(amd64_regs_image, round_trip)
{
	struct amd64_regs *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	size_t size;
	uint8_t *img;

	sample(a);
	size = amd64_regs_image_size(a);
	img = malloc(size);
	cr_assert_eq(amd64_regs_image_write(a, img, size), 0);
	cr_assert_eq(amd64_regs_image_read(b, img, size), 0);
	cr_assert(b->valid);
	cr_assert_eq(b->gpr.rax, a->gpr.rax);
	cr_assert_eq(amd64_regs_pc(b), 0x401000);
	cr_assert_eq(b->xcr0, 3);
	cr_assert_eq(b->xsave_len, 1024);
	cr_assert_eq(memcmp(b->xsave, a->xsave, 1024), 0);
	free(img);
	free(a);
	free(b);
}

Test(amd64_regs_image, bad_images_are_refused)
{
	struct amd64_regs *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	size_t size;
	uint8_t *img;

	sample(a);
	size = amd64_regs_image_size(a);
	img = malloc(size);
	cr_assert_eq(amd64_regs_image_write(a, img, size - 1), -pse_range);
	cr_assert_eq(amd64_regs_image_write(a, img, size), 0);
	cr_assert_eq(amd64_regs_image_read(b, img, size - 1), -pse_invalid);
	cr_assert_eq(amd64_regs_image_read(b, img, 10), -pse_invalid);
	img[sizeof(a->gpr) + 8] = 7;     /* the XSAVE flag */
	cr_assert_eq(amd64_regs_image_read(b, img, size), -pse_invalid);
	a->valid = false;
	cr_assert_eq(amd64_regs_image_write(a, img, size), -pse_invalid);
	free(img);
	free(a);
	free(b);
}
