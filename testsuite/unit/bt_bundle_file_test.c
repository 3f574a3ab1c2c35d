/* The one bundle file writer: a write is whole or nothing, a failure
   says the errno that caused it, and it leaves no temporary file.  */
#include "btrace/bt_bundle_file.h"
#include "btrace/ptbundle.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static size_t read_back(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f, "%s", path);
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

Test(bt_bundle_file, a_write_replaces_the_file_whole)
{
	char dir[] = "/tmp/bt_bundle_file_XXXXXX", path[64], back[16];
	struct stat st;
	mode_t old = umask(077);

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.ptb", dir);
	cr_assert_eq(bt_bundle_file_put(path, "first version", 13), 0);
	cr_assert_eq(bt_bundle_file_put(path, "second", 6), 0);
	umask(old);
	cr_assert_eq(read_back(path, back, sizeof(back)), 6);
	cr_assert_eq(memcmp(back, "second", 6), 0);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0644);
	/* No temporary file stays behind.  */
	cr_assert_eq(entries(dir), 1);
	unlink(path);
	rmdir(dir);
}

Test(bt_bundle_file, a_link_replaces_the_file_it_names)
{
	char dir[] = "/tmp/bt_bundle_file_XXXXXX", path[64], link[64],
	     back[16];
	struct stat st;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.ptb", dir);
	snprintf(link, sizeof(link), "%s/l.ptb", dir);
	cr_assert_eq(bt_bundle_file_put(path, "old", 3), 0);
	cr_assert_eq(symlink(path, link), 0);
	cr_assert_eq(bt_bundle_file_put(link, "new", 3), 0);
	cr_assert_eq(lstat(link, &st), 0);
	cr_assert(S_ISLNK(st.st_mode), "the link stays a link");
	cr_assert_eq(read_back(path, back, sizeof(back)), 3);
	cr_assert_eq(memcmp(back, "new", 3), 0);
	cr_assert_eq(entries(dir), 2);
	unlink(link);
	unlink(path);
	rmdir(dir);
}

Test(bt_bundle_file, a_device_is_written_in_place)
{
	struct stat before, after;

	cr_assert_eq(stat("/dev/null", &before), 0);
	cr_assert_eq(bt_bundle_file_put("/dev/null", "x", 1), 0);
	cr_assert_eq(stat("/dev/null", &after), 0);
	cr_assert(S_ISCHR(after.st_mode));
	cr_assert_eq(before.st_ino, after.st_ino);
}

Test(bt_bundle_file, failures_name_their_cause_and_leave_nothing)
{
	char dir[] = "/tmp/bt_bundle_file_XXXXXX", path[96];

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/missing/s.ptb", dir);
	errno = 0;
	cr_assert_eq(bt_bundle_file_put(path, "x", 1), -bte_io);
	cr_assert_eq(errno, ENOENT);
	cr_assert_eq(bt_bundle_file_put(dir, "x", 1), -bte_io);
	cr_assert_eq(errno, EISDIR);
	if (access("/dev/full", W_OK) == 0) {
		cr_assert_eq(bt_bundle_file_put("/dev/full", "x", 1), -bte_io);
		cr_assert_eq(errno, ENOSPC);
	}
	cr_assert_eq(bt_bundle_file_put(NULL, "x", 1), -bte_invalid);
	cr_assert_eq(entries(dir), 0);
	rmdir(dir);
}
