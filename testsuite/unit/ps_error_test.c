#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

Test(ps_error, every_code_has_its_own_text)
{
	for (int a = pse_ok; a <= pse_nospace; a++) {
		const char *ta = ps_errstr(-a);

		cr_assert_not_null(ta);
		cr_assert_str_neq(ta, "unknown error", "code %d", a);
		for (int b = pse_ok; b < a; b++)
			cr_assert_str_neq(ta, ps_errstr(-b),
					  "codes %d and %d share a text", a, b);
	}
}

Test(ps_error, sign_does_not_matter)
{
	for (int c = pse_ok; c <= pse_nospace; c++)
		cr_assert_str_eq(ps_errstr(c), ps_errstr(-c));
}

Test(ps_error, unknown_codes)
{
	cr_assert_str_eq(ps_errstr(pse_nospace + 1), "unknown error");
	cr_assert_str_eq(ps_errstr(-1000), "unknown error");
	cr_assert_str_eq(ps_errstr(-pse_eof), "connection closed");
}

Test(ps_error, proc_errnos)
{
	cr_assert_eq(ps_error_proc(ENOENT), -pse_noproc);
	cr_assert_eq(ps_error_proc(ESRCH), -pse_noproc);
	cr_assert_eq(ps_error_proc(EACCES), -pse_perm);
	cr_assert_eq(ps_error_proc(EPERM), -pse_perm);
	cr_assert_eq(ps_error_proc(ENOMEM), -pse_nomem);
	cr_assert_eq(ps_error_proc(EIO), -pse_io);
	cr_assert_eq(ps_error_proc(0), -pse_io);
}
