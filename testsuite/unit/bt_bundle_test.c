/* The bundle reader: round trips, and every kind of damage rejected with
   a message naming the byte offset, never a crash (run under ASan).  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_bundle_format.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t build_id[] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3 };
static const uint8_t vdso[] = { 0x7f, 'E', 'L', 'F', 0, 1, 2, 3, 4 };
static const uint8_t pt[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02,
			      0x82, 0x02, 0x23 };

static void sample(struct bt_bundle *b, struct bt_mapping *m,
		   struct bt_pages *p)
{
	memset(b, 0, sizeof(*b));
	memset(m, 0, 2 * sizeof(*m));
	memset(p, 0, sizeof(*p));
	m[0] = (struct bt_mapping) { 0x555555554000, 0x2000, 0x1000, 5,
				     "/usr/bin/prog", build_id,
				     sizeof(build_id) };
	m[1] = (struct bt_mapping) { 0x7ffff7dd0000, 0x1000, 0, 5,
				     "/lib/x86_64-linux-gnu/libc.so.6", NULL,
				     0 };
	*p = (struct bt_pages) { 0x7ffff7fc1000, sizeof(vdso), 5, "[vdso]",
				 vdso };
	b->format = btf_pt;
	b->cpu = (struct bt_cpu) { btv_intel, 6, 0x55, 4 };
	b->buffer_size = 65536;
	b->pid = 100;
	b->tid = 101;
	b->pc = 0x555555555160;
	b->has_pc = 1;
	b->trace = pt;
	b->trace_size = sizeof(pt);
	b->mappings = m;
	b->nmappings = 2;
	b->pages = p;
	b->npages = 1;
}

static void encode(uint8_t **data, size_t *size)
{
	struct bt_bundle b;
	struct bt_mapping m[2];
	struct bt_pages p;

	sample(&b, m, &p);
	cr_assert_eq(bt_bundle_encode(&b, data, size), 0);
}

static void put_le(uint8_t *at, uint64_t v, int n)
{
	for (int i = 0; i < n; ++i)
		at[i] = (uint8_t) (v >> (8 * i));
}

/* Recompute the checksum so that damage reaches the record checks.  */
static void fix_crc(uint8_t *data, size_t size)
{
	uint32_t crc = bt_bundle_crc32(0, data, BT_BUNDLE_CRC_OFFSET);

	crc = bt_bundle_crc32(crc, data + 32, size - 32);
	put_le(data + BT_BUNDLE_CRC_OFFSET, crc, 4);
}

static int parse(const uint8_t *data, size_t size, struct bt_diag *diag)
{
	struct bt_bundle b;
	int status;

	bt_diag_init(diag);
	status = bt_bundle_parse(&b, data, size, diag);
	if (status == 0)
		bt_bundle_fini(&b);
	return status;
}

Test(bt_bundle, round_trip_keeps_every_field)
{
	struct bt_bundle in, out;
	struct bt_mapping m[2];
	struct bt_pages p;
	struct bt_diag diag;
	uint8_t *data;
	size_t size;

	sample(&in, m, &p);
	cr_assert_eq(bt_bundle_encode(&in, &data, &size), 0);
	cr_assert_eq(bt_bundle_parse(&out, data, size, &diag), 0, "%s",
		     diag.text);
	/* The reader keeps its own copy.  */
	memset(data, 0xaa, size);
	free(data);

	cr_assert_eq(out.format, in.format);
	cr_assert_eq(out.cpu.vendor, in.cpu.vendor);
	cr_assert_eq(out.cpu.family, in.cpu.family);
	cr_assert_eq(out.cpu.model, in.cpu.model);
	cr_assert_eq(out.cpu.stepping, in.cpu.stepping);
	cr_assert_eq(out.buffer_size, in.buffer_size);
	cr_assert_eq(out.pid, in.pid);
	cr_assert_eq(out.tid, in.tid);
	cr_assert_eq(out.pc, in.pc);
	cr_assert_eq(out.has_pc, 1);
	cr_assert_eq(out.trace_size, in.trace_size);
	cr_assert_eq(memcmp(out.trace, in.trace, in.trace_size), 0);
	cr_assert_eq(out.nmappings, 2);
	for (int i = 0; i < 2; ++i) {
		cr_assert_eq(out.mappings[i].address, m[i].address);
		cr_assert_eq(out.mappings[i].size, m[i].size);
		cr_assert_eq(out.mappings[i].offset, m[i].offset);
		cr_assert_eq(out.mappings[i].prot, m[i].prot);
		cr_assert_str_eq(out.mappings[i].path, m[i].path);
		cr_assert_eq(out.mappings[i].build_id_size,
			     m[i].build_id_size);
	}
	cr_assert_eq(memcmp(out.mappings[0].build_id, build_id,
			    sizeof(build_id)), 0);
	cr_assert_null(out.mappings[1].build_id);
	cr_assert_eq(out.npages, 1);
	cr_assert_eq(out.pages[0].address, p.address);
	cr_assert_eq(out.pages[0].size, p.size);
	cr_assert_str_eq(out.pages[0].name, "[vdso]");
	cr_assert_eq(memcmp(out.pages[0].bytes, vdso, sizeof(vdso)), 0);
	bt_bundle_fini(&out);
	cr_assert_null(out.storage);
}

Test(bt_bundle, every_truncation_is_rejected_with_its_offset)
{
	uint8_t *data, *copy;
	size_t size;
	struct bt_diag diag;

	encode(&data, &size);
	for (size_t len = 0; len < size; ++len) {
		/* An exact-size heap copy lets ASan catch any overread.  */
		copy = malloc(len ? len : 1);
		memcpy(copy, data, len);
		cr_assert_lt(parse(copy, len, &diag), 0, "length %zu", len);
		cr_assert(diag.text[0], "no message at length %zu", len);
		cr_assert(diag.has_offset, "no offset at length %zu", len);
		cr_assert_leq(diag.offset, len, "length %zu", len);
		free(copy);
	}
	free(data);
}

Test(bt_bundle, truncation_is_named_as_such)
{
	uint8_t *data;
	size_t size;
	struct bt_diag diag;

	encode(&data, &size);
	cr_assert_eq(parse(data, size - 1, &diag), -bte_truncated);
	cr_assert_eq(diag.offset, size - 1);
	cr_assert_not_null(strstr(diag.text, "truncated"), "%s", diag.text);
	cr_assert_eq(parse(data, 12, &diag), -bte_truncated);
	free(data);
}

Test(bt_bundle, every_flipped_byte_is_detected)
{
	uint8_t *data;
	size_t size;
	struct bt_diag diag;

	encode(&data, &size);
	for (size_t at = 0; at < size; ++at) {
		for (int bit = 0; bit < 8; bit += 3) {
			data[at] ^= (uint8_t) (1u << bit);
			cr_assert_lt(parse(data, size, &diag), 0,
				     "flip at %zu bit %d accepted", at, bit);
			cr_assert(diag.has_offset);
			cr_assert_lt(diag.offset, size + 1);
			data[at] ^= (uint8_t) (1u << bit);
		}
	}
	cr_assert_eq(parse(data, size, &diag), 0);
	free(data);
}

Test(bt_bundle, damage_behind_a_valid_checksum_never_crashes)
{
	uint8_t *data, *copy;
	size_t size;
	struct bt_diag diag;
	static const uint8_t values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	int rejected = 0;

	encode(&data, &size);
	copy = malloc(size);
	for (size_t at = 8; at < size; ++at) {
		if (at >= BT_BUNDLE_CRC_OFFSET && at < 32)
			continue;
		for (size_t v = 0; v < sizeof(values); ++v) {
			int status;

			memcpy(copy, data, size);
			if (copy[at] == values[v])
				continue;
			copy[at] = values[v];
			fix_crc(copy, size);
			status = parse(copy, size, &diag);
			if (status < 0) {
				rejected += 1;
				cr_assert(diag.has_offset || diag.text[0]);
				cr_assert_leq(diag.offset, size,
					      "offset %llu at %zu",
					      (unsigned long long) diag.offset,
					      at);
			}
		}
	}
	/* Lengths, counts, types and names are checked: most damage is.  */
	cr_assert_gt(rejected, 100, "only %d rejected", rejected);
	free(copy);
	free(data);
}

Test(bt_bundle, wrong_versions_name_the_version)
{
	uint8_t *data;
	size_t size;
	struct bt_diag diag;

	encode(&data, &size);
	for (unsigned int v = 0; v < 5; ++v) {
		if (v >= BT_BUNDLE_VERSION_MIN && v <= BT_BUNDLE_VERSION)
			continue;
		put_le(data + 8, v, 2);
		fix_crc(data, size);
		cr_assert_eq(parse(data, size, &diag), -bte_bad_version);
		cr_assert_eq(diag.offset, 8);
		char want[32];

		snprintf(want, sizeof(want), "version %u", v);
		cr_assert_not_null(strstr(diag.text, want), "%s", diag.text);
	}
	free(data);
}

Test(bt_bundle, checksum_and_magic_errors)
{
	uint8_t *data;
	size_t size;
	struct bt_diag diag;

	encode(&data, &size);
	data[size - 1] ^= 1;   /* padding or payload: the CRC catches it */
	cr_assert_eq(parse(data, size, &diag), -bte_bad_checksum);
	cr_assert_eq(diag.offset, BT_BUNDLE_CRC_OFFSET);
	data[size - 1] ^= 1;

	data[0] = 'X';
	cr_assert_eq(parse(data, size, &diag), -bte_bad_magic);
	cr_assert_eq(diag.offset, 0);
	cr_assert_eq(parse((const uint8_t *) "hello", 5, &diag),
		     -bte_bad_magic);
	free(data);
}

/* Records built by hand, for what the writer never produces.  */
struct raw {
	uint8_t data[1024];
	size_t len;
	uint32_t count;
};

static void raw_record(struct raw *r, uint32_t type, const void *payload,
		       uint32_t len)
{
	put_le(r->data + r->len, type, 4);
	put_le(r->data + r->len + 4, len, 4);
	memcpy(r->data + r->len + 8, payload, len);
	r->len += 8 + ((len + 7) & ~7u);
	r->count += 1;
}

static void raw_begin(struct raw *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->data, BT_BUNDLE_MAGIC, 8);
	/* Version 1's records: version 2 readers still take them.  */
	put_le(r->data + 8, 1, 2);
	put_le(r->data + 10, 32, 2);
	r->len = 32;
}

static void raw_standard(struct raw *r)
{
	uint8_t format[16] = { btf_pt }, thread[24] = { 1, 0, 0, 0, 1 };

	raw_record(r, btr_format, format, sizeof(format));
	raw_record(r, btr_thread, thread, sizeof(thread));
	raw_record(r, btr_trace, pt, sizeof(pt));
}

static int raw_parse(struct raw *r, struct bt_diag *diag)
{
	put_le(r->data + 16, r->len, 8);
	put_le(r->data + 24, r->count, 4);
	fix_crc(r->data, r->len);
	return parse(r->data, r->len, diag);
}

Test(bt_bundle, record_structure_errors_name_the_record)
{
	struct raw r;
	struct bt_diag diag;
	uint8_t format[16] = { btf_pt };
	uint8_t mapping[40] = { 0 };

	raw_begin(&r);
	raw_standard(&r);
	cr_assert_eq(raw_parse(&r, &diag), 0, "%s", diag.text);

	raw_begin(&r);
	raw_standard(&r);
	raw_record(&r, btr_format, format, sizeof(format));
	cr_assert_eq(raw_parse(&r, &diag), -bte_bad_record);
	cr_assert_not_null(strstr(diag.text, "second format"), "%s",
			   diag.text);
	cr_assert_eq(diag.offset, 32 + 24 + 32 + 24);

	raw_begin(&r);
	raw_record(&r, btr_format, format, sizeof(format));
	raw_record(&r, btr_trace, pt, sizeof(pt));
	cr_assert_eq(raw_parse(&r, &diag), -bte_bad_record);
	cr_assert_not_null(strstr(diag.text, "no thread"), "%s", diag.text);

	raw_begin(&r);
	raw_standard(&r);
	raw_record(&r, 99, format, 4);
	cr_assert_eq(raw_parse(&r, &diag), -bte_bad_record);
	cr_assert_not_null(strstr(diag.text, "type 99"), "%s", diag.text);

	/* A mapping whose path holds a NUL byte.  */
	raw_begin(&r);
	raw_standard(&r);
	put_le(mapping + 8, 0x1000, 8);
	put_le(mapping + 30, 8, 2);
	memcpy(mapping + 32, "/bin\0/sh", 8);
	raw_record(&r, btr_mapping, mapping, 40);
	cr_assert_eq(raw_parse(&r, &diag), -bte_bad_record);
	cr_assert_not_null(strstr(diag.text, "NUL"), "%s", diag.text);

	/* A mapping whose path length runs past its record.  */
	put_le(mapping + 30, 9, 2);
	raw_begin(&r);
	raw_standard(&r);
	raw_record(&r, btr_mapping, mapping, 40);
	cr_assert_eq(raw_parse(&r, &diag), -bte_bad_record);
	cr_assert_not_null(strstr(diag.text, "need"), "%s", diag.text);

	/* More records counted than present.  */
	raw_begin(&r);
	raw_standard(&r);
	r.count += 1;
	cr_assert_eq(raw_parse(&r, &diag), -bte_bad_record);
	cr_assert_eq(diag.offset, 24);
}

Test(bt_bundle, load_reads_what_write_file_wrote)
{
	struct bt_bundle in, out;
	struct bt_mapping m[2];
	struct bt_pages p;
	struct bt_diag diag;
	char path[] = "/tmp/bt_bundle_testXXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	sample(&in, m, &p);
	cr_assert_eq(bt_bundle_write_file(&in, path), 0);
	cr_assert_eq(bt_bundle_load(&out, path, &diag), 0, "%s", diag.text);
	cr_assert_eq(out.trace_size, sizeof(pt));
	cr_assert_str_eq(out.mappings[1].path, m[1].path);
	bt_bundle_fini(&out);
	unlink(path);

	cr_assert_eq(bt_bundle_load(&out, path, &diag), -bte_io);
	cr_assert_not_null(strstr(diag.text, path));
}
