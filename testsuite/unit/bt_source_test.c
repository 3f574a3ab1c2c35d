/* Source lines as GDB's print_source_lines prints them for the
   instruction history's /m and /s.  */
#define _GNU_SOURCE
#include "btrace/bt_source.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *print(struct bt_source *s, const char *path, int line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	bt_source_print_line(s, out, "shown.c", path, line);
	fclose(out);
	return text;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

Test(bt_source, lines_with_the_display_name)
{
	char path[] = "/tmp/bt_source_XXXXXX";
	struct bt_source *s;
	char *text;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	write_file(path, "int a;\n\treturn 1;\r\nx\001y\177\n");
	cr_assert_eq(bt_source_alloc(&s), 0);
	text = print(s, path, 2);
	cr_assert_str_eq(text, "shown.c:2\t\treturn 1;\n");
	free(text);
	/* Control characters as GDB shows them.  */
	text = print(s, path, 3);
	cr_assert_str_eq(text, "shown.c:3\tx^Ay^?\n");
	free(text);
	text = print(s, path, 9);
	cr_assert_str_eq(text, "Line number 9 out of range; shown.c has 3 "
			 "lines.\n");
	free(text);
	bt_source_free(s);
	unlink(path);
}

Test(bt_source, a_missing_file_errs_once_then_says_in)
{
	struct bt_source *s;
	char *text, *err = NULL;
	size_t len = 0;
	FILE *errs = open_memstream(&err, &len);

	cr_assert_eq(bt_source_alloc(&s), 0);
	bt_source_set_err(s, errs);
	/* The error goes to the error stream, as GDB's does.  */
	text = print(s, "/nonexistent/x.c", 4);
	fclose(errs);
	cr_assert_str_eq(text, "");
	cr_assert_str_eq(err, "4\tshown.c: No such file or directory.\n");
	free(text);
	free(err);
	text = print(s, "/nonexistent/x.c", 5);
	cr_assert_str_eq(text, "5\tin shown.c\n");
	free(text);
	bt_source_free(s);
	cr_assert_lt(bt_source_alloc(NULL), 0);
}
