/* The perf.data writer: the layout perf reads (header, ids, attrs, data,
   feature table), padding, and that failures leave no file behind.  */
#define _GNU_SOURCE
#include "btrace/bt_perf_data.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void make_dir(void)
{
	strcpy(dir, "/tmp/bt_perf_data_testXXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

/* The number of entries in DIR (the temporary files left, say).  */
static int dir_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(bt_perf_data, .init = make_dir, .fini = remove_dir);

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long len;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc((size_t) len + 1);
	cr_assert_eq(fread(data, 1, (size_t) len, f), (size_t) len);
	fclose(f);
	*size = (size_t) len;
	return data;
}

static uint64_t u64_at(const uint8_t *data, size_t offset)
{
	uint64_t v;

	memcpy(&v, data + offset, sizeof(v));
	return v;
}

Test(bt_perf_data, layout_is_what_perf_reads)
{
	struct perf_event_attr attr = { .type = 8, .size = sizeof(attr),
					.config = 0x2001 };
	uint64_t ids[2] = { 11, 12 };
	struct bt_perf_data pd;
	struct bt_diag diag;
	struct perf_event_header rec = { .type = 3, .size = 16 };
	uint8_t record[16] = { 0 };
	const uint8_t payload[5] = { 1, 2, 3, 4, 5 };
	char path[128];
	uint8_t *data;
	size_t size;
	uint64_t attrs, data_off, data_size, at;

	snprintf(path, sizeof(path), "%s/out.data", dir);
	memcpy(record, &rec, sizeof(rec));
	cr_assert_eq(bt_perf_data_open(&pd, path, &attr, ids, 2, &diag), 0);
	cr_assert_eq(bt_perf_data_record(&pd, record, sizeof(record), &diag),
		     0);
	cr_assert_eq(bt_perf_data_payload(&pd, payload, sizeof(payload),
					  &diag), 0);
	cr_assert_eq(bt_perf_data_feature(&pd, btpf_build_id, "abcd", 4,
					  &diag), 0);
	cr_assert_eq(bt_perf_data_feature(&pd, btpf_event_desc, "xy", 2,
					  &diag), 0);
	/* Out of order: perf reads the table in bit order.  */
	cr_assert_eq(bt_perf_data_feature(&pd, btpf_arch, "z", 1, &diag),
		     -bte_internal);
	cr_assert_eq(bt_perf_data_commit(&pd, &diag), 0, "%s", diag.text);
	bt_perf_data_fini(&pd);
	cr_assert_eq(dir_entries(), 1, "the temporary file is left");

	data = slurp(path, &size);
	cr_assert_eq(memcmp(data, "PERFILE2", 8), 0);
	cr_assert_eq(u64_at(data, 8), 104);
	cr_assert_eq(u64_at(data, 16), sizeof(attr) + 16);
	/* ids right after the header, then the attribute pointing at them */
	cr_assert_eq(u64_at(data, 104), 11);
	cr_assert_eq(u64_at(data, 112), 12);
	attrs = u64_at(data, 24);
	cr_assert_eq(attrs, 120);
	cr_assert_eq(u64_at(data, 32), sizeof(attr) + 16);
	cr_assert_eq(memcmp(data + attrs, &attr, sizeof(attr)), 0);
	cr_assert_eq(u64_at(data, attrs + sizeof(attr)), 104);
	cr_assert_eq(u64_at(data, attrs + sizeof(attr) + 8), 16);
	data_off = u64_at(data, 40);
	data_size = u64_at(data, 48);
	cr_assert_eq(data_off, attrs + sizeof(attr) + 16);
	cr_assert_eq(data_size, 16 + 8, "the payload is padded to 8");
	cr_assert_eq(memcmp(data + data_off, record, 16), 0);
	cr_assert_eq(memcmp(data + data_off + 16, payload, 5), 0);
	cr_assert_eq(data[data_off + 21] | data[data_off + 22] |
		     data[data_off + 23], 0);
	/* features bitmap at 72: bits 2 and 12 */
	cr_assert_eq(u64_at(data, 72), (1ull << 2) | (1ull << 12));
	cr_assert_eq(u64_at(data, 80) | u64_at(data, 88) | u64_at(data, 96),
		     0);
	/* the table follows the data; the bodies follow the table */
	at = data_off + data_size;
	cr_assert_eq(u64_at(data, at), at + 32);
	cr_assert_eq(u64_at(data, at + 8), 4);
	cr_assert_eq(u64_at(data, at + 16), at + 36);
	cr_assert_eq(u64_at(data, at + 24), 2);
	cr_assert_eq(memcmp(data + at + 32, "abcdxy", 6), 0);
	cr_assert_eq(size, at + 38);
	free(data);
}

Test(bt_perf_data, records_must_be_aligned)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct bt_perf_data pd;
	struct bt_diag diag;
	char path[128];
	uint8_t record[12] = { 0 };

	snprintf(path, sizeof(path), "%s/out.data", dir);
	cr_assert_eq(bt_perf_data_open(&pd, path, &attr, NULL, 0, &diag), 0);
	cr_assert_eq(bt_perf_data_record(&pd, record, sizeof(record), &diag),
		     -bte_internal);
	bt_perf_data_fini(&pd);
	cr_assert_eq(dir_entries(), 0, "an abandoned write left a file");
}

Test(bt_perf_data, a_directory_or_missing_directory_is_refused)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct bt_perf_data pd;
	struct bt_diag diag;
	char path[128];

	cr_assert_eq(bt_perf_data_open(&pd, dir, &attr, NULL, 0, &diag),
		     -bte_io);
	cr_assert_not_null(strstr(diag.text, "Is a directory"), "%s",
			   diag.text);
	snprintf(path, sizeof(path), "%s/none/out.data", dir);
	cr_assert_eq(bt_perf_data_open(&pd, path, &attr, NULL, 0, &diag),
		     -bte_io);
	cr_assert_not_null(strstr(diag.text, "No such file"), "%s",
			   diag.text);
	cr_assert_eq(dir_entries(), 0);
}

Test(bt_perf_data, an_existing_file_is_replaced_only_on_commit)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct bt_perf_data pd;
	struct bt_diag diag;
	char path[128];
	uint8_t *data;
	size_t size;
	FILE *f;

	snprintf(path, sizeof(path), "%s/out.data", dir);
	f = fopen(path, "w");
	fputs("old", f);
	fclose(f);
	cr_assert_eq(bt_perf_data_open(&pd, path, &attr, NULL, 0, &diag), 0);
	bt_perf_data_fini(&pd);
	data = slurp(path, &size);
	cr_assert_eq(size, 3, "an abandoned write touched the output");
	free(data);
	cr_assert_eq(dir_entries(), 1);
}

Test(bt_perf_data, strings_are_padded_to_64_bytes)
{
	struct bt_perf_buf buf;
	uint32_t len;

	bt_perf_buf_init(&buf);
	bt_perf_buf_string(&buf, "x86_64");
	cr_assert_eq(buf.len, 4 + 64);
	memcpy(&len, buf.data, 4);
	cr_assert_eq(len, 64);
	cr_assert_str_eq((const char *) buf.data + 4, "x86_64");
	bt_perf_buf_align(&buf, 8);
	cr_assert_eq(buf.len, 72);
	bt_perf_buf_fini(&buf);
}
