#include "common/ps_hex.h"
#include "common/ps_error.h"

int ps_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void ps_hex_encode(char *out, const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *bytes = data;

	for (size_t i = 0; i < len; i++) {
		*out++ = digits[bytes[i] >> 4];
		*out++ = digits[bytes[i] & 0xf];
	}
}

int ps_hex_decode(void *out, const char *text, size_t len)
{
	uint8_t *bytes = out;

	for (size_t i = 0; i < len; i++) {
		int hi = ps_hex_digit((unsigned char) text[2 * i]);
		int lo = ps_hex_digit((unsigned char) text[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -pse_badhex;
		bytes[i] = (uint8_t) (hi << 4 | lo);
	}
	return 0;
}

int ps_hex_parse_u64(const char **text, const char *end, uint64_t *value)
{
	const char *p = *text;
	uint64_t v = 0;
	int digits = 0;

	for (; p < end; p++, digits++) {
		int d = ps_hex_digit((unsigned char) *p);

		if (d < 0)
			break;
		if (v >> 60)
			return -pse_range;
		v = v << 4 | (uint64_t) d;
	}
	if (!digits)
		return -pse_badhex;
	*text = p;
	*value = v;
	return 0;
}

uint8_t ps_checksum(const void *data, size_t len)
{
	const uint8_t *bytes = data;
	uint8_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += bytes[i];
	return sum;
}
