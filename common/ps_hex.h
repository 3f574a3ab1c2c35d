/* Hex digits as the remote protocol uses them.  */
#ifndef PS_HEX_H
#define PS_HEX_H

#include <stddef.h>
#include <stdint.h>

/* The value of hex digit C, or -1.  */
int ps_hex_digit(int c);

/* Write 2*LEN lowercase hex digits for DATA to OUT (not terminated).  */
void ps_hex_encode(char *out, const void *data, size_t len);

/* Decode 2*LEN digits from TEXT into OUT; -pse_badhex on a non-digit.  */
int ps_hex_decode(void *out, const char *text, size_t len);

/* Parse a hex number from *TEXT up to END (at least one digit, at most 64
   bits) and advance *TEXT past it.  */
int ps_hex_parse_u64(const char **text, const char *end, uint64_t *value);

/* The modulo-256 sum of LEN bytes: the RSP checksum.  */
uint8_t ps_checksum(const void *data, size_t len);

#endif
