#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

Test(ps_buf, starts_empty_and_fini_resets)
{
	struct ps_buf b;

	ps_buf_init(&b);
	cr_assert_eq(b.len, 0);
	cr_assert_null(b.data);
	ps_buf_reset(&b);
	cr_assert_eq(ps_buf_puts(&b, "x"), 0);
	ps_buf_fini(&b);
	cr_assert_null(b.data);
	cr_assert_eq(b.len, 0);
	cr_assert_eq(b.cap, 0);
}

Test(ps_buf, append_grows_and_stays_terminated)
{
	struct ps_buf b;
	char want[5000];

	ps_buf_init(&b);
	for (int i = 0; i < 5000; i++) {
		want[i] = (char) ('a' + i % 26);
		cr_assert_eq(ps_buf_putc(&b, want[i]), 0);
		cr_assert_eq(b.len, (size_t) i + 1);
		cr_assert_eq(b.data[b.len], '\0');
		cr_assert_gt(b.cap, b.len);
	}
	cr_assert(!memcmp(b.data, want, sizeof(want)));
	ps_buf_fini(&b);
}

Test(ps_buf, binary_data_with_nul)
{
	struct ps_buf b;

	ps_buf_init(&b);
	cr_assert_eq(ps_buf_append(&b, "a\0b", 3), 0);
	cr_assert_eq(ps_buf_append(&b, NULL, 0), 0);
	cr_assert_eq(b.len, 3);
	cr_assert(!memcmp(b.data, "a\0b", 4));
	ps_buf_fini(&b);
}

Test(ps_buf, reset_keeps_storage)
{
	struct ps_buf b;
	char *data;

	ps_buf_init(&b);
	ps_buf_puts(&b, "hello");
	data = b.data;
	ps_buf_reset(&b);
	cr_assert_eq(b.len, 0);
	cr_assert_str_eq(b.data, "");
	cr_assert_eq(b.data, data);
	ps_buf_fini(&b);
}

Test(ps_buf, printf_long_and_appending)
{
	struct ps_buf b;
	char big[1000];

	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ps_buf_init(&b);
	cr_assert_eq(ps_buf_puts(&b, "T05"), 0);
	cr_assert_eq(ps_buf_printf(&b, "thread:p%x.%x;", 0x1a2b, 0x1a2c), 0);
	cr_assert_str_eq(b.data, "T05thread:p1a2b.1a2c;");
	cr_assert_eq(ps_buf_printf(&b, "%s", big), 0);
	cr_assert_eq(b.len, 21 + 999);
	cr_assert_str_eq(b.data + 21, big);
	cr_assert_eq(ps_buf_printf(&b, "%s", ""), 0);
	cr_assert_eq(b.len, 21 + 999);
	ps_buf_fini(&b);
}

Test(ps_buf, put_hex)
{
	struct ps_buf b;
	const unsigned char data[] = { 0x00, 0x7f, 0x80, 0xff, 0x0a };

	ps_buf_init(&b);
	ps_buf_putc(&b, 'm');
	cr_assert_eq(ps_buf_put_hex(&b, data, sizeof(data)), 0);
	cr_assert_str_eq(b.data, "m007f80ff0a");
	cr_assert_eq(b.len, 11);
	ps_buf_fini(&b);
}

Test(ps_buf, put_xml_escapes_specials)
{
	struct ps_buf b;

	ps_buf_init(&b);
	cr_assert_eq(ps_buf_put_xml(&b, "a<b>&\"c'd"), 0);
	cr_assert_str_eq(b.data, "a&lt;b&gt;&amp;&quot;c&apos;d");
	ps_buf_reset(&b);
	cr_assert_eq(ps_buf_put_xml(&b, ""), 0);
	cr_assert_eq(b.len, 0);
	ps_buf_fini(&b);
}

Test(ps_buf, impossible_sizes_fail_cleanly)
{
	struct ps_buf b;

	ps_buf_init(&b);
	ps_buf_puts(&b, "abc");
	cr_assert_eq(ps_buf_reserve(&b, SIZE_MAX), -pse_nomem);
	cr_assert_eq(ps_buf_reserve(&b, SIZE_MAX / 2), -pse_nomem);
	cr_assert_eq(ps_buf_put_hex(&b, "", SIZE_MAX / 2), -pse_nomem);
	cr_assert_eq(b.len, 3);
	cr_assert_str_eq(b.data, "abc");
	ps_buf_fini(&b);
}
