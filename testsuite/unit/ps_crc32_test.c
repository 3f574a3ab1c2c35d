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

/* The table agrees with the definition, one bit at a time.  */
Test(ps_crc32, table_equals_bitwise)
{
	uint8_t bytes[256];
	uint32_t crc = 0xffffffffu;

	for (int i = 0; i < 256; i++)
		bytes[i] = (uint8_t) (i * 7 + 3);
	for (int i = 0; i < 256; i++) {
		crc ^= (uint32_t) bytes[i] << 24;
		for (int b = 0; b < 8; b++)
			crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u
						: crc << 1;
	}
	cr_assert_eq(ps_crc32(0xffffffffu, bytes, sizeof(bytes)), crc);
}
