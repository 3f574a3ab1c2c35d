/* What every record of a bundle is read with: little-endian integers,
   exact lengths with the offset of the record's length field, strings
   with no NUL inside, and the pages layout with its checks.  */
#include "btrace/ptbundle.h"
#include "btrace/bt_bundle_format.h"
#include "btrace/bt_bundle_int.h"

#include <criterion/criterion.h>
#include <string.h>

Test(bt_bundle_record, integers_are_little_endian)
{
	static const uint8_t p[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	cr_assert_eq(bt_get_le(p, 2), 0x0201);
	cr_assert_eq(bt_get_le(p, 8), 0x0807060504030201ull);
}

Test(bt_bundle_record, a_wrong_length_names_its_field)
{
	struct bt_record rec = { .type = btr_time, .length = 12,
				 .offset = 100 };
	struct bt_diag diag;

	bt_diag_init(&diag);
	cr_assert_eq(bt_want_length(&rec, 12, "time", &diag), 0);
	cr_assert_eq(bt_want_length(&rec, 16, "time", &diag),
		     -bte_bad_record);
	cr_assert(diag.has_offset);
	cr_assert_eq(diag.offset, 96);
	cr_assert_str_eq(diag.text, "time record has 12 bytes, expected 16");
}

Test(bt_bundle_record, strings_go_to_the_pool_without_nul)
{
	char pool[16], *at = pool;
	struct bt_diag diag;

	bt_diag_init(&diag);
	cr_assert_eq(bt_take_string((const uint8_t *) "abc", 3, 40, &at,
				    "path", &diag), 0);
	cr_assert_str_eq(pool, "abc");
	cr_assert_eq(at, pool + 4);
	cr_assert_eq(bt_take_string((const uint8_t *) "a\0c", 3, 40, &at,
				    "path", &diag), -bte_bad_record);
	cr_assert_eq(diag.offset, 41);
	cr_assert_str_eq(diag.text, "NUL byte inside the path");
}

/* A pages record: ADDRESS, SIZE, PROT, the name "[vdso]", SIZE bytes.  */
static size_t pages_record(uint8_t *out, uint32_t prot)
{
	uint64_t address = 0x7000, size = 4;

	memset(out, 0, 64);
	memcpy(out, &address, 8);
	memcpy(out + 8, &size, 8);
	memcpy(out + 16, &prot, 4);
	out[20] = 6;
	memcpy(out + BT_PAGES_FIXED_SIZE, "[vdso]", 6);
	memcpy(out + BT_PAGES_FIXED_SIZE + 6, "\x90\x90\xc3\xcc", 4);
	return BT_PAGES_FIXED_SIZE + 6 + 4;
}

Test(bt_bundle_record, pages_are_checked_and_read)
{
	uint8_t copy[8 + 64];
	char pool[16], *at = pool;
	struct bt_record rec = { .type = btr_pages, .offset = 8,
				 .payload = copy + 8 };
	struct bt_pages pg;
	struct bt_diag diag;

	bt_diag_init(&diag);
	rec.length = (uint32_t) pages_record(copy + 8, 5);
	cr_assert_eq(bt_parse_pages(&pg, &rec, copy, &at, &diag), 0,
		     "%s", diag.text);
	cr_assert_eq(pg.address, 0x7000);
	cr_assert_eq(pg.size, 4);
	cr_assert_eq(pg.prot, 5);
	cr_assert_str_eq(pg.name, "[vdso]");
	cr_assert_eq(memcmp(pg.bytes, "\x90\x90\xc3\xcc", 4), 0);

	at = pool;
	pages_record(copy + 8, 0x15);
	cr_assert_eq(bt_parse_pages(&pg, &rec, copy, &at, &diag),
		     -bte_bad_record);
	cr_assert_str_eq(diag.text, "unknown protection bits 0x15");
	at = pool;
	pages_record(copy + 8, 5);
	rec.length -= 1;
	cr_assert_eq(bt_parse_pages(&pg, &rec, copy, &at, &diag),
		     -bte_bad_record);
}
