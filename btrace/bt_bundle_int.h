/* The bundle reader's internals, shared by its version 1 records
   (bt_bundle.c) and the version 2 ones (bt_bundle_v2.c), which both
   read records with bt_bundle_record.c's helpers.  */
#ifndef BT_BUNDLE_INT_H
#define BT_BUNDLE_INT_H

#include "btrace/ptbundle.h"

#include <stddef.h>
#include <stdint.h>

/* What the reader allocates: the arrays and a copy of the input (traces,
   page bytes and NUL-terminated strings point into it).  */
struct bt_bundle_storage {
	struct bt_mapping *mappings;
	struct bt_pages *pages;
	struct bt_thread *threads;
	struct bt_core_thread *core_threads;
	struct bt_pages *core_pages;
	struct bt_sideband *sideband;
	size_t ncore_threads, ncore_pages, nsideband;
	uint8_t *copy;
	char *strings;
};

/* A record's payload, located and bounds-checked.  */
struct bt_record {
	uint32_t type;
	uint32_t length;
	size_t offset;            /* of the payload */
	const uint8_t *payload;
};

/* bt_bundle_record.c: a little-endian integer of BYTES bytes at P.  */
uint64_t bt_get_le(const uint8_t *p, int bytes);

int bt_want_length(const struct bt_record *rec, uint32_t want,
		   const char *what, struct bt_diag *diag);

/* Copy LEN bytes at SRC (OFFSET in the input) into the string pool as a
   C string; a NUL inside is an error naming WHAT.  */
int bt_take_string(const uint8_t *src, size_t len, size_t offset,
		   char **pool, const char *what, struct bt_diag *diag);

int bt_parse_pages(struct bt_pages *pg, const struct bt_record *rec,
		   const uint8_t *copy, char **pool, struct bt_diag *diag);

/* A trigger, process, regs, memory, auxv or sideband record.  */
int bt_parse_v2_record(struct bt_bundle *b, struct bt_bundle_storage *st,
		       const struct bt_record *rec, char **pool,
		       struct bt_diag *diag);

#endif
