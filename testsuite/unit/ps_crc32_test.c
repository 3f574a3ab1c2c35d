#include <criterion/criterion.h>

#include "common/ps_crc32.h"

/* The catalogued check value of this CRC (CRC-32/MPEG-2).  */
Test(ps_crc32, check_value)
{
	cr_assert_eq(ps_crc32(0xffffffffu, "123456789", 9), 0x0376e6e7u);
}

Test(ps_crc32, empty_keeps_the_seed)
{
	cr_assert_eq(ps_crc32(0xffffffffu, "", 0), 0xffffffffu);
}

Test(ps_crc32, pieces_equal_the_whole)
{
	uint32_t crc = ps_crc32(0xffffffffu, "1234", 4);

	cr_assert_eq(ps_crc32(crc, "56789", 5), 0x0376e6e7u);
}
