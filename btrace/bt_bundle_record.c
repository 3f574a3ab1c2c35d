/* What every record of a bundle is read with: its integers, its exact
   length, its strings, and the pages layout the pages (version 1) and
   memory (version 2) records share.  A leaf below both readers,
   bt_bundle.c and bt_bundle_v2.c, so that neither calls the other
   back.  */
#include "btrace/ptbundle.h"
#include "btrace/bt_bundle_format.h"
#include "btrace/bt_bundle_int.h"

#include <inttypes.h>
#include <string.h>

uint64_t bt_get_le(const uint8_t *p, int bytes)
{
	uint64_t value = 0;

	for (int i = bytes - 1; i >= 0; --i)
		value = (value << 8) | p[i];
	return value;
}

int bt_want_length(const struct bt_record *rec, uint32_t want,
		   const char *what, struct bt_diag *diag)
{
	if (rec->length != want)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset - 4,
				   "%s record has %" PRIu32 " bytes, expected "
				   "%" PRIu32, what, rec->length, want);
	return 0;
}

/* Copy LEN bytes of a name at OFFSET into the string pool, rejecting NULs
   so that the C string means what the file says.  */
int bt_take_string(const uint8_t *src, size_t len, size_t offset,
		   char **pool, const char *what, struct bt_diag *diag)
{
	if (memchr(src, 0, len))
		return bt_diag_set(diag, bte_bad_record, 1,
				   offset + (size_t) ((const uint8_t *)
						      memchr(src, 0, len) - src),
				   "NUL byte inside the %s", what);
	memcpy(*pool, src, len);
	(*pool)[len] = 0;
	*pool += len + 1;
	return 0;
}

int bt_parse_pages(struct bt_pages *pg, const struct bt_record *rec,
		   const uint8_t *copy, char **pool, struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	size_t nlen;

	if (rec->length < BT_PAGES_FIXED_SIZE)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset - 4,
				   "pages record has %" PRIu32 " bytes, at "
				   "least %d needed", rec->length,
				   BT_PAGES_FIXED_SIZE);

	pg->address = bt_get_le(p, 8);
	pg->size = bt_get_le(p + 8, 8);
	pg->prot = (uint32_t) bt_get_le(p + 16, 4);
	nlen = bt_get_le(p + 20, 2);

	if (!pg->size || pg->address + pg->size < pg->address)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 8,
				   "bad pages size 0x%" PRIx64 " at 0x%" PRIx64,
				   pg->size, pg->address);
	if (pg->prot & ~7u)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 16,
				   "unknown protection bits 0x%" PRIx32,
				   pg->prot);
	if (nlen > BT_MAX_NAME)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 20,
				   "pages name of %zu bytes (at most %d)",
				   nlen, BT_MAX_NAME);
	if (bt_get_le(p + 22, 2))
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 22,
				   "reserved pages field is not zero");
	if (pg->size > rec->length ||
	    BT_PAGES_FIXED_SIZE + nlen + pg->size != rec->length)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset - 4,
				   "pages record has %" PRIu32 " bytes, its "
				   "fields need %" PRIu64, rec->length,
				   (uint64_t) BT_PAGES_FIXED_SIZE + nlen
				   + pg->size);

	pg->bytes = copy + rec->offset + BT_PAGES_FIXED_SIZE + nlen;
	pg->name = *pool;
	return bt_take_string(p + BT_PAGES_FIXED_SIZE, nlen,
			      rec->offset + BT_PAGES_FIXED_SIZE, pool,
			      "pages name", diag);
}
