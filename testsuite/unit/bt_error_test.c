/* Error texts and diagnostics.  */
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(bt_error, every_code_has_its_own_text)
{
	for (int a = bte_ok; a <= bte_unsupported; ++a) {
		cr_assert_not_null(bt_errstr(a));
		cr_assert_str_eq(bt_errstr(a), bt_errstr(-a));
		cr_assert_str_neq(bt_errstr(a), "unknown error", "code %d", a);
		for (int b = bte_ok; b < a; ++b)
			cr_assert_str_neq(bt_errstr(a), bt_errstr(b));
	}
	cr_assert_str_eq(bt_errstr(bte_unsupported + 1), "unknown error");
	cr_assert_str_eq(bt_errstr(-1000), "unknown error");
}

Test(bt_error, diag_set_returns_the_negative_code)
{
	struct bt_diag diag;

	bt_diag_init(&diag);
	cr_assert_eq(diag.text[0], 0);
	cr_assert_eq(bt_diag_set(&diag, bte_truncated, 1, 0x40, "n=%d", 7),
		     -bte_truncated);
	cr_assert_str_eq(diag.text, "n=7");
	cr_assert_eq(diag.offset, 0x40);
	cr_assert(diag.has_offset);
	/* Without a diag the code still comes back.  */
	cr_assert_eq(bt_diag_set(NULL, bte_io, 0, 0, "x"), -bte_io);
}

Test(bt_error, long_texts_are_cut_not_overrun)
{
	struct bt_diag diag;
	char big[1000];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	bt_diag_set(&diag, bte_invalid, 0, 0, "%s", big);
	cr_assert_eq(strlen(diag.text), sizeof(diag.text) - 1);
}

Test(bt_error, print_names_prefix_and_offset)
{
	struct bt_diag diag;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	bt_diag_set(&diag, bte_bad_checksum, 1, 0x1c, "checksum mismatch");
	bt_diag_print(&diag, "a.ptb", out);
	bt_diag_set(&diag, bte_io, 0, 0, "no such file");
	bt_diag_print(&diag, NULL, out);
	fclose(out);
	cr_assert_str_eq(text, "a.ptb: at offset 0x1c: checksum mismatch\n"
			 "no such file\n");
	free(text);
}
