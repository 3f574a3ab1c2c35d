/* The bundle writer on its own, linked as the stub links it.  */
#include "btrace/ptbundle.h"
#include "btrace/bt_bundle_format.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static struct bt_bundle sample(struct bt_mapping *m, const uint8_t *trace,
			       size_t size)
{
	struct bt_bundle b;

	memset(&b, 0, sizeof(b));
	memset(m, 0, sizeof(*m));
	m->address = 0x400000;
	m->size = 0x1000;
	m->path = "/bin/true";
	m->prot = 5;
	b.format = btf_pt;
	b.pid = 1;
	b.tid = 2;
	b.trace = trace;
	b.trace_size = size;
	b.mappings = m;
	b.nmappings = 1;
	return b;
}

Test(bt_bundle_write, crc32_is_the_ieee_check_value)
{
	/* The standard's check value for "123456789".  */
	cr_assert_eq(bt_bundle_crc32(0, "123456789", 9), 0xcbf43926u);
	/* Incremental equals one-shot.  */
	cr_assert_eq(bt_bundle_crc32(bt_bundle_crc32(0, "1234", 4), "56789", 5),
		     0xcbf43926u);
}

Test(bt_bundle_write, header_fields_are_as_documented)
{
	static const uint8_t trace[] = { 2, 0x82, 2, 0x82 };
	struct bt_mapping m;
	struct bt_bundle b = sample(&m, trace, sizeof(trace));
	uint8_t *data;
	size_t size;
	uint32_t crc;

	cr_assert_eq(bt_bundle_encode(&b, &data, &size), 0);
	cr_assert_eq(memcmp(data, BT_BUNDLE_MAGIC, 8), 0);
	cr_assert_eq(le(data + 8, 2), BT_BUNDLE_VERSION);
	cr_assert_eq(le(data + 10, 2), BT_BUNDLE_HEADER_SIZE);
	cr_assert_eq(le(data + 16, 8), size);
	cr_assert_eq(le(data + 24, 4), 4, "format, thread, trace, 1 mapping");
	cr_assert_eq(size % 8, 0);

	crc = bt_bundle_crc32(0, data, BT_BUNDLE_CRC_OFFSET);
	crc = bt_bundle_crc32(crc, data + 32, size - 32);
	cr_assert_eq(le(data + BT_BUNDLE_CRC_OFFSET, 4), crc);

	/* The first record is the format record.  */
	cr_assert_eq(le(data + 32, 4), btr_format);
	cr_assert_eq(le(data + 36, 4), BT_FORMAT_PAYLOAD_SIZE);
	cr_assert_eq(le(data + 40, 4), btf_pt);
	free(data);
}

Test(bt_bundle_write, rejects_what_a_reader_would)
{
	struct bt_mapping m;
	struct bt_bundle b;
	uint8_t trace[24] = { 0 }, *data;
	size_t size;

	b = sample(&m, trace, sizeof(trace));
	b.format = btf_none;
	cr_assert_eq(bt_bundle_encode(&b, &data, &size), -bte_invalid);

	b = sample(&m, trace, sizeof(trace));
	b.format = btf_bts;   /* 24 bytes is not whole blocks */
	cr_assert_eq(bt_bundle_encode(&b, &data, &size), -bte_invalid);

	b = sample(&m, trace, sizeof(trace));
	m.path = "";
	cr_assert_eq(bt_bundle_encode(&b, &data, &size), -bte_invalid);

	b = sample(&m, trace, sizeof(trace));
	m.size = 0;
	cr_assert_eq(bt_bundle_encode(&b, &data, &size), -bte_invalid);

	b = sample(&m, trace, sizeof(trace));
	m.address = UINT64_MAX - 10;
	cr_assert_eq(bt_bundle_encode(&b, &data, &size), -bte_invalid);

	cr_assert_eq(bt_bundle_encode(NULL, &data, &size), -bte_invalid);
}

Test(bt_bundle_write, file_errors_are_io_errors)
{
	struct bt_mapping m;
	uint8_t trace[4] = { 0 };
	struct bt_bundle b = sample(&m, trace, sizeof(trace));

	cr_assert_eq(bt_bundle_write_file(&b, "/nonexistent-dir/x.ptb"),
		     -bte_io);
}
