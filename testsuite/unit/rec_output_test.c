/* Snapshot files: FILE, FILE.1, ...; a write is whole or nothing, and a
   failure says the errno that caused it.  */
#include "rec/recorder.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	if (d)
		closedir(d);
	return n;
}

Test(rec_output, a_write_replaces_the_file_whole)
{
	char dir[] = "/tmp/rec_output_XXXXXX", path[64], back[16];
	struct stat st;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.ptb", dir);
	cr_assert_eq(rec_output_write(path, "first version", 13), 0);
	cr_assert_eq(rec_output_write(path, "second", 6), 0);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_assert_eq(fread(back, 1, sizeof(back), f), 6);
	fclose(f);
	cr_assert_eq(memcmp(back, "second", 6), 0);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0644);
	/* No temporary file stays behind.  */
	cr_assert_eq(entries(dir), 1);
	unlink(path);
	rmdir(dir);
}

Test(rec_output, failures_name_their_cause_and_leave_nothing)
{
	char dir[] = "/tmp/rec_output_XXXXXX", path[96];

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/missing/s.ptb", dir);
	cr_assert_eq(rec_output_write(path, "x", 1), -ENOENT);
	cr_assert_eq(rec_output_write(dir, "x", 1), -EISDIR);
	if (access("/dev/full", W_OK) == 0)
		cr_assert_eq(rec_output_write("/dev/full", "x", 1), -ENOSPC);
	cr_assert_eq(entries(dir), 0);
	rmdir(dir);
}
