/* The CRC GDB's qCRC packet asks for: CRC-32 with polynomial 0x04c11db7,
   most significant bit first, no reflection and no final xor (GDB's
   xcrc32; gdbserver starts it at 0xffffffff).  */
#ifndef COMMON_PS_CRC32_H
#define COMMON_PS_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC continued over LEN bytes at BUF.  */
uint32_t ps_crc32(uint32_t crc, const void *buf, size_t len);

#endif
