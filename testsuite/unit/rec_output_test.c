/* Snapshot files: FILE, FILE.1, ... (how each is written is the bundle
   writer's, bt_bundle_file_test.c).  */
#include "rec/recorder.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

Test(rec_output, names_count_from_the_plain_file)
{
	char *a = rec_output_name("x.ptb", 0), *b = rec_output_name("x.ptb", 1),
	     *c = rec_output_name("dir/x.ptb", 12);

	cr_assert_str_eq(a, "x.ptb");
	cr_assert_str_eq(b, "x.ptb.1");
	cr_assert_str_eq(c, "dir/x.ptb.12");
	free(a);
	free(b);
	free(c);
}
