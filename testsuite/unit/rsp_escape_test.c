#include "server/rsp_escape.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>

Test(rsp_escape, special_bytes)
{
	const char *specials = "$#}*";

	for (int c = 0; c < 256; c++)
		cr_assert_eq(!!rsp_needs_escape((unsigned char) c),
			     c && strchr(specials, c) != NULL, "byte 0x%x", c);
}

Test(rsp_escape, each_special_is_escaped)
{
	const unsigned char in[] = { '$', '#', '}', '*', 'a', 0, 0x03, 0xff };
	const char want[] = "}\x04}\x03}]}\x0a" "a\0\x03\xff";
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(rsp_escape(&out, in, sizeof(in), 100), sizeof(in));
	cr_assert_eq(out.len, sizeof(want) - 1);
	cr_assert(!memcmp(out.data, want, out.len));
	ps_buf_fini(&out);
}

Test(rsp_escape, every_byte_round_trips)
{
	unsigned char in[256], back[512];
	struct ps_buf out;
	long n;

	for (int i = 0; i < 256; i++)
		in[i] = (unsigned char) i;
	ps_buf_init(&out);
	cr_assert_eq(rsp_escape(&out, in, sizeof(in), 1000), 256);
	cr_assert_eq(out.len, 256 + 4);
	for (size_t i = 0; i < out.len; i++)
		if (out.data[i] == '$' || out.data[i] == '#' || out.data[i] == '*')
			cr_assert_fail("raw 0x%x at %zu", out.data[i], i);
	n = rsp_unescape(back, out.data, out.len);
	cr_assert_eq(n, 256);
	cr_assert(!memcmp(back, in, 256));
	ps_buf_fini(&out);
}

/* The output budget is filled exactly, never splitting a pair.  */
Test(rsp_escape, max_out_cut)
{
	const char in[] = "ab$cd";
	struct ps_buf out;

	ps_buf_init(&out);
	for (size_t max = 0; max <= 8; max++) {
		size_t want_in = max <= 2 ? max : max == 3 ? 2 : max - 1;
		size_t want_out = want_in <= 2 ? want_in : want_in + 1;

		if (want_in > 5) {
			want_in = 5;
			want_out = 6;
		}
		ps_buf_reset(&out);
		ps_buf_puts(&out, "l");
		cr_assert_eq(rsp_escape(&out, in, 5, max), want_in, "max %zu", max);
		cr_assert_eq(out.len, 1 + want_out, "max %zu", max);
		cr_assert_leq(out.len - 1, max);
		cr_assert_eq(out.data[0], 'l');
		cr_assert_eq(out.data[out.len], '\0');
	}
	ps_buf_fini(&out);
}

Test(rsp_escape, empty_input)
{
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(rsp_escape(&out, "", 0, 10), 0);
	cr_assert_eq(out.len, 0);
	ps_buf_fini(&out);
}

Test(rsp_escape, unescape_in_place)
{
	char text[] = "X}\x03}]z";
	long n = rsp_unescape(text, text, strlen(text));

	cr_assert_eq(n, 4);
	cr_assert(!memcmp(text, "X#}z", 4));
}

Test(rsp_escape, lone_trailing_escape)
{
	char out[8];

	cr_assert_eq(rsp_unescape(out, "ab}", 3), -pse_invalid);
	cr_assert_eq(rsp_unescape(out, "}", 1), -pse_invalid);
	/* "}}" is an escaped byte 0x5d, not a lone escape.  */
	cr_assert_eq(rsp_unescape(out, "a}}", 3), 2);
	cr_assert_eq((unsigned char) out[1], '}' ^ 0x20);
	cr_assert_eq(rsp_unescape(out, "", 0), 0);
}
