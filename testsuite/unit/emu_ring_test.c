/* The trace ring: wrap semantics and reads from the oldest PSB.  */
#include "nat/emu/emu_ring.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>

static const uint8_t psb[16] = {
	2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
};

Test(ring, too_small)
{
	struct emu_ring ring;

	cr_expect_eq(emu_ring_init(&ring, 16), -pse_invalid);
}

Test(ring, unwrapped_read_all_is_everything)
{
	struct emu_ring ring;
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(emu_ring_init(&ring, 128), 0);
	emu_ring_write(&ring, "abc", 3);
	emu_ring_write(&ring, "defg", 4);
	cr_expect_eq(emu_ring_fill(&ring), 7);
	cr_expect_eq(emu_ring_wraps(&ring), 0);
	cr_assert_eq(emu_ring_read_all(&ring, &out), 0);
	cr_expect_eq(out.len, 7);
	cr_expect_arr_eq(out.data, "abcdefg", 7);
	emu_ring_fini(&ring);
	ps_buf_fini(&out);
}

Test(ring, wrapped_read_starts_at_oldest_psb)
{
	struct emu_ring ring;
	struct ps_buf out;
	uint8_t filler[40];

	memset(filler, 0x55, sizeof(filler));
	ps_buf_init(&out);
	cr_assert_eq(emu_ring_init(&ring, 100), 0);
	/* 16 + 40 + 16 + 40 + 16 + 40 = 168 bytes: the first PSB and part
	   of its filler are overwritten.  */
	for (int i = 0; i < 3; i++) {
		emu_ring_write(&ring, psb, sizeof(psb));
		filler[0] = (uint8_t) i;
		emu_ring_write(&ring, filler, sizeof(filler));
	}
	cr_expect_eq(emu_ring_wraps(&ring), 1);
	cr_expect_eq(emu_ring_fill(&ring), 100);
	cr_assert_eq(emu_ring_read_all(&ring, &out), 0);
	/* The ring holds [68, 168): the second PSB (at 56) lost its first
	   bytes, so the oldest whole one is the third (at 112).  */
	cr_expect_eq(out.len, 56);
	cr_expect_arr_eq(out.data, psb, sizeof(psb));
	cr_expect_eq((uint8_t) out.data[16], 2, "the third PSB's filler");
	emu_ring_fini(&ring);
	ps_buf_fini(&out);
}

Test(ring, wrapped_without_psb_reads_nothing)
{
	struct emu_ring ring;
	struct ps_buf out;
	uint8_t filler[200];

	memset(filler, 0x11, sizeof(filler));
	ps_buf_init(&out);
	cr_assert_eq(emu_ring_init(&ring, 64), 0);
	emu_ring_write(&ring, filler, sizeof(filler));
	cr_assert_eq(emu_ring_read_all(&ring, &out), 0);
	cr_expect_eq(out.len, 0);
	emu_ring_fini(&ring);
	ps_buf_fini(&out);
}

Test(ring, read_new)
{
	struct emu_ring ring;
	struct ps_buf out;
	uint8_t filler[100];

	memset(filler, 0x22, sizeof(filler));
	ps_buf_init(&out);
	cr_assert_eq(emu_ring_init(&ring, 64), 0);
	emu_ring_write(&ring, "xy", 2);
	cr_assert_eq(emu_ring_read_new(&ring, &out), 0);
	cr_expect_eq(out.len, 2);
	emu_ring_write(&ring, "z", 1);
	ps_buf_reset(&out);
	cr_assert_eq(emu_ring_read_new(&ring, &out), 0);
	cr_expect_eq(out.len, 1);
	cr_expect_eq(out.data[0], 'z');
	ps_buf_reset(&out);
	cr_assert_eq(emu_ring_read_new(&ring, &out), 0);
	cr_expect_eq(out.len, 0, "nothing new");
	emu_ring_write(&ring, filler, sizeof(filler));
	cr_expect_eq(emu_ring_read_new(&ring, &out), -pse_range);
	emu_ring_fini(&ring);
	ps_buf_fini(&out);
}
