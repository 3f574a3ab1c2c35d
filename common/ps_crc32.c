#include "common/ps_crc32.h"

uint32_t ps_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	/* Bit by bit: qCRC covers a section or two, once per command, so
	   no table is worth its 1 KiB.  */
	while (len--) {
		crc ^= (uint32_t) *p++ << 24;
		for (int i = 0; i < 8; i++)
			crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u
						: crc << 1;
	}
	return crc;
}
