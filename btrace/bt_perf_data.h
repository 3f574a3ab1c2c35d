/* A perf.data file writer (perf's tools/perf/Documentation/
   perf.data-file-format.txt): the file header, one attribute with its
   ids, a data section of records appended in order, and header feature
   sections.  It writes to a temporary file beside the output and renames
   it into place on commit, so a failure never leaves a partial perf.data.
   Layout: header | ids | attrs | data | feature table | features.  */
#ifndef BT_PERF_DATA_H
#define BT_PERF_DATA_H

#include "btrace/ptbtrace.h"

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Header feature bits (perf's HEADER_*), the ones the exporter writes.  */
enum bt_perf_feature {
	btpf_build_id = 2,
	btpf_hostname = 3,
	btpf_arch = 6,
	btpf_cpuid = 9,
	btpf_event_desc = 12,
	btpf_pmu_mappings = 16,
	btpf_max = 256,
};

struct bt_perf_data {
	FILE *file;
	char *path;               /* the output */
	char *tmp;                /* the temporary file, until commit */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t features[btpf_max / 64];
	/* Feature bodies, kept until commit (they follow the data).  */
	struct {
		int bit;
		uint8_t *data;
		size_t size;
	} feat[16];
	size_t nfeat;
};

/* Create a temporary file beside PATH and write the attribute ATTR with
   its NIDS ids.  Errors name PATH and the cause in DIAG.  */
int bt_perf_data_open(struct bt_perf_data *pd, const char *path,
		      const struct perf_event_attr *attr, const uint64_t *ids,
		      size_t nids, struct bt_diag *diag);

/* Append a record of SIZE bytes (a multiple of 8; its header's size says
   SIZE) to the data section.  */
int bt_perf_data_record(struct bt_perf_data *pd, const void *record,
			size_t size, struct bt_diag *diag);

/* Append the raw PAYLOAD of SIZE bytes that follows an AUXTRACE record,
   padded with zeros to a multiple of 8 (PT's PAD packet is 0x00).  */
int bt_perf_data_payload(struct bt_perf_data *pd, const void *payload,
			 size_t size, struct bt_diag *diag);

/* Add feature BIT's body (copied); bits must come in increasing order.  */
int bt_perf_data_feature(struct bt_perf_data *pd, int bit, const void *data,
			 size_t size, struct bt_diag *diag);

/* Write the features and the header, then rename the file into place.  */
int bt_perf_data_commit(struct bt_perf_data *pd, struct bt_diag *diag);

/* Drop the temporary file and free everything (after commit: frees).  */
void bt_perf_data_fini(struct bt_perf_data *pd);

/* A growable byte buffer for building feature bodies and records.  */
struct bt_perf_buf {
	uint8_t *data;
	size_t len, cap;
	int failed;               /* an allocation failed; len is stale */
};

void bt_perf_buf_init(struct bt_perf_buf *buf);
void bt_perf_buf_fini(struct bt_perf_buf *buf);
void bt_perf_buf_put(struct bt_perf_buf *buf, const void *data, size_t size);
void bt_perf_buf_u32(struct bt_perf_buf *buf, uint32_t value);
void bt_perf_buf_u64(struct bt_perf_buf *buf, uint64_t value);
/* Zeros up to the next multiple of ALIGN.  */
void bt_perf_buf_align(struct bt_perf_buf *buf, size_t align);
/* perf's header string: a u32 length, then STR and zeros to a multiple
   of 64 bytes (the length counts the padding).  */
void bt_perf_buf_string(struct bt_perf_buf *buf, const char *str);

#endif
