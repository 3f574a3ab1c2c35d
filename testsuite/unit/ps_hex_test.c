#include "common/ps_hex.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(ps_hex, digit_agrees_with_strtol)
{
	for (int c = 0; c < 256; c++) {
		char s[2] = { (char) c, 0 };
		char *end;
		long v = strtol(s, &end, 16);
		int ok = c && end == s + 1 && c != '+' && c != '-' &&
			 c != ' ' && !(c >= '\t' && c <= '\r');

		cr_assert_eq(ps_hex_digit(c), ok ? v : -1, "char 0x%x", c);
	}
	cr_assert_eq(ps_hex_digit(-1), -1);
}

Test(ps_hex, encode_decode_round_trip)
{
	unsigned char data[256], back[256];
	char text[512];

	for (int i = 0; i < 256; i++)
		data[i] = (unsigned char) (i * 37 + 11);
	ps_hex_encode(text, data, sizeof(data));
	for (int i = 0; i < 256; i++) {
		char want[3];

		snprintf(want, sizeof(want), "%02x", data[i]);
		cr_assert(!memcmp(text + 2 * i, want, 2), "byte %d", i);
	}
	cr_assert_eq(ps_hex_decode(back, text, sizeof(back)), 0);
	cr_assert(!memcmp(back, data, sizeof(data)));
}

Test(ps_hex, decode_accepts_upper_case_and_rejects_junk)
{
	unsigned char out[2];

	cr_assert_eq(ps_hex_decode(out, "A0fF", 2), 0);
	cr_assert_eq(out[0], 0xa0);
	cr_assert_eq(out[1], 0xff);
	cr_assert_eq(ps_hex_decode(out, "0g", 1), -pse_badhex);
	cr_assert_eq(ps_hex_decode(out, "x0", 1), -pse_badhex);
}

Test(ps_hex, parse_u64_limits)
{
	const char *t = "ffffffffffffffff,", *p = t;
	uint64_t v = 1;

	cr_assert_eq(ps_hex_parse_u64(&p, t + strlen(t), &v), 0);
	cr_assert_eq(v, UINT64_MAX);
	cr_assert_eq(p, t + 16);

	t = "00000000000000000000000000012aB";
	p = t;
	cr_assert_eq(ps_hex_parse_u64(&p, t + strlen(t), &v), 0);
	cr_assert_eq(v, 0x12ab);
	cr_assert_eq(p, t + strlen(t));
}

Test(ps_hex, parse_u64_overflow_leaves_input)
{
	const char *t = "10000000000000000", *p = t;
	uint64_t v = 7;

	cr_assert_eq(ps_hex_parse_u64(&p, t + strlen(t), &v), -pse_range);
	cr_assert_eq(p, t);
	cr_assert_eq(v, 7);
}

Test(ps_hex, parse_u64_needs_a_digit)
{
	const char *t = ",5", *p = t;
	uint64_t v = 7;

	cr_assert_eq(ps_hex_parse_u64(&p, t + 2, &v), -pse_badhex);
	cr_assert_eq(p, t);
	cr_assert_eq(v, 7);
	cr_assert_eq(ps_hex_parse_u64(&p, t, &v), -pse_badhex);
}

Test(ps_hex, parse_u64_stops_at_end)
{
	const char *t = "12345", *p = t;
	uint64_t v;

	cr_assert_eq(ps_hex_parse_u64(&p, t + 2, &v), 0);
	cr_assert_eq(v, 0x12);
	cr_assert_eq(p, t + 2);
}

Test(ps_hex, checksum_is_sum_mod_256)
{
	unsigned char data[300];
	unsigned sum = 0;

	for (int i = 0; i < 300; i++) {
		data[i] = (unsigned char) (i * 7);
		sum += data[i];
	}
	cr_assert_eq(ps_checksum(data, sizeof(data)), sum % 256);
	cr_assert_eq(ps_checksum("OK", 2), 0x9a);
	cr_assert_eq(ps_checksum("", 0), 0);
}
