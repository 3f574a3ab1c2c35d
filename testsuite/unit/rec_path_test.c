/* rec_find_program: PROG found along PATH as execvp finds it, and the
   cause named when it cannot be run.  */
#include "rec/recorder.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void make_file(const char *sub, const char *name, mode_t mode)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	chmod(path, mode);
}

static void setup(void)
{
	strcpy(dir, "/tmp/rec_path_XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(rec_path, .init = setup, .fini = teardown);

Test(rec_path, the_first_runnable_one_along_path)
{
	char path[256], why[512], want[128], *file;

	make_file("a", "prog", 0644);      /* not executable: passed over */
	make_file("b", "prog", 0755);
	make_file("c", "prog", 0755);
	snprintf(path, sizeof(path), "%s/none:%s/a:%s/b:%s/c", dir, dir, dir,
		 dir);
	cr_assert_eq(rec_find_program("prog", path, &file, why, sizeof(why)),
		     0);
	snprintf(want, sizeof(want), "%s/b/prog", dir);
	cr_assert_str_eq(file, want);
	free(file);
}

Test(rec_path, one_not_runnable_is_named_when_none_is)
{
	char path[256], why[512], *file;

	make_file("a", "prog", 0644);
	snprintf(path, sizeof(path), "%s/a:%s/none", dir, dir);
	cr_assert_eq(rec_find_program("prog", path, &file, why, sizeof(why)),
		     -EACCES);
	cr_assert_null(file);
	cr_assert(strstr(why, "/a/prog is not executable"), "%s", why);
}

Test(rec_path, not_found_names_the_path)
{
	char why[512], *file;

	cr_assert_eq(rec_find_program("nothing-like-it", "/nonexistent-dir",
				      &file, why, sizeof(why)), -ENOENT);
	cr_assert_str_eq(why, "nothing-like-it: not found in PATH "
			 "(/nonexistent-dir)");
}

Test(rec_path, a_name_with_a_slash_is_not_searched)
{
	char path[256], why[512], *file;

	make_file("a", "prog", 0755);
	snprintf(path, sizeof(path), "%s/a", dir);
	cr_assert_eq(rec_find_program("./prog", path, &file, why, sizeof(why)),
		     -ENOENT);
	cr_assert_str_eq(why, "./prog: no such file");
	cr_assert_eq(rec_find_program(dir, NULL, &file, why, sizeof(why)),
		     -EISDIR);
	cr_assert(strstr(why, "is a directory"), "%s", why);
}

Test(rec_path, an_empty_entry_is_the_current_directory)
{
	char sub[128], why[512], *file;

	make_file("a", "prog", 0755);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	cr_assert_eq(chdir(sub), 0);
	cr_assert_eq(rec_find_program("prog", "/nonexistent-dir:", &file,
				      why, sizeof(why)), 0);
	cr_assert_str_eq(file, "./prog");
	free(file);
}

Test(rec_path, a_missing_interpreter_is_named)
{
	char path[256], why[512];

	make_file("a", "script", 0755);
	snprintf(path, sizeof(path), "%s/a/script", dir);
	rec_exec_error(path, ENOENT, why, sizeof(why));
	cr_assert(strstr(why, "its interpreter /bin/sh (its #! line) was "
			 "not found"), "%s", why);
}
