/* The library's version: the header's macros, ptbtrace_version() and
   the package's version (configure.ac) must say the same, so that a
   release that bumps one and forgets another fails here.  */
#include "config.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <stdio.h>

Test(ptbtrace_version, the_library_says_the_package_version)
{
	cr_assert_str_eq(ptbtrace_version(), PACKAGE_VERSION);
	cr_assert_str_eq(PTBTRACE_VERSION, PACKAGE_VERSION);
}

Test(ptbtrace_version, the_numbers_spell_the_string)
{
	char text[64];

	snprintf(text, sizeof(text), "%d.%d.%d", PTBTRACE_VERSION_MAJOR,
		 PTBTRACE_VERSION_MINOR, PTBTRACE_VERSION_PATCH);
	cr_assert_str_eq(text, PTBTRACE_VERSION);
}
