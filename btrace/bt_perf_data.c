/* The perf.data file writer: see bt_perf_data.h.  */
#include "btrace/bt_perf_data.h"
#include "common/ps_array.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* perf's struct perf_file_header: magic, size, attr_size, then the
   attrs, data and event_types sections, then the feature bitmap.  */
#define BT_PERF_HEADER_SIZE 104
#define BT_PERF_MAGIC "PERFILE2"

struct bt_perf_section {
	uint64_t offset;
	uint64_t size;
};

void bt_perf_buf_init(struct bt_perf_buf *buf)
{
	memset(buf, 0, sizeof(*buf));
}

void bt_perf_buf_fini(struct bt_perf_buf *buf)
{
	free(buf->data);
	memset(buf, 0, sizeof(*buf));
}

void bt_perf_buf_put(struct bt_perf_buf *buf, const void *data, size_t size)
{
	if (buf->failed)
		return;
	if (PS_ARRAY_RESERVE(buf->data, buf->cap, buf->len + size)) {
		buf->failed = 1;
		return;
	}
	if (data)
		memcpy(buf->data + buf->len, data, size);
	else
		memset(buf->data + buf->len, 0, size);
	buf->len += size;
}

void bt_perf_buf_u32(struct bt_perf_buf *buf, uint32_t value)
{
	bt_perf_buf_put(buf, &value, sizeof(value));
}

void bt_perf_buf_u64(struct bt_perf_buf *buf, uint64_t value)
{
	bt_perf_buf_put(buf, &value, sizeof(value));
}

void bt_perf_buf_align(struct bt_perf_buf *buf, size_t align)
{
	if (buf->len % align)
		bt_perf_buf_put(buf, NULL, align - buf->len % align);
}

void bt_perf_buf_string(struct bt_perf_buf *buf, const char *str)
{
	size_t len = strlen(str) + 1;
	size_t padded = (len + 63) / 64 * 64;

	bt_perf_buf_u32(buf, (uint32_t) padded);
	bt_perf_buf_put(buf, str, len);
	bt_perf_buf_put(buf, NULL, padded - len);
}

static int bt_perf_io_error(struct bt_perf_data *pd, struct bt_diag *diag,
			    const char *what)
{
	return bt_diag_set(diag, bte_io, 0, 0, "cannot %s %s: %s", what,
			   pd->path, strerror(errno ? errno : EIO));
}

static int bt_perf_write(struct bt_perf_data *pd, const void *data,
			 size_t size, struct bt_diag *diag)
{
	errno = 0;
	if (size && fwrite(data, 1, size, pd->file) != size)
		return bt_perf_io_error(pd, diag, "write");
	return 0;
}

int bt_perf_data_open(struct bt_perf_data *pd, const char *path,
		      const struct perf_event_attr *attr, const uint64_t *ids,
		      size_t nids, struct bt_diag *diag)
{
	struct bt_perf_section ids_section;
	struct stat st;
	int fd, errcode;

	memset(pd, 0, sizeof(*pd));
	if (!path || !*path || !attr)
		return bt_diag_set(diag, bte_invalid, 0, 0, "no output file");
	pd->path = strdup(path);
	pd->tmp = malloc(strlen(path) + 16);
	if (!pd->path || !pd->tmp) {
		bt_perf_data_fini(pd);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	/* A directory would only fail at the rename, after all the work.  */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		errcode = bt_perf_io_error(pd, diag, "write");
		bt_perf_data_fini(pd);
		return errcode;
	}
	sprintf(pd->tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(pd->tmp);
	if (fd < 0) {
		errcode = bt_perf_io_error(pd, diag, "create");
		free(pd->tmp);
		pd->tmp = NULL;
		bt_perf_data_fini(pd);
		return errcode;
	}
	fchmod(fd, 0600);   /* perf refuses files others may write */
	pd->file = fdopen(fd, "w");
	if (!pd->file) {
		errcode = bt_perf_io_error(pd, diag, "open");
		close(fd);
		bt_perf_data_fini(pd);
		return errcode;
	}

	/* The header is written last, over these zeros.  */
	{
		uint8_t zeros[BT_PERF_HEADER_SIZE] = { 0 };

		errcode = bt_perf_write(pd, zeros, sizeof(zeros), diag);
	}
	ids_section.offset = BT_PERF_HEADER_SIZE;
	ids_section.size = nids * sizeof(uint64_t);
	if (!errcode)
		errcode = bt_perf_write(pd, ids, ids_section.size, diag);
	pd->attrs_offset = ids_section.offset + ids_section.size;
	pd->attrs_size = attr->size + sizeof(ids_section);
	if (!errcode)
		errcode = bt_perf_write(pd, attr, attr->size, diag);
	if (!errcode)
		errcode = bt_perf_write(pd, &ids_section, sizeof(ids_section),
					diag);
	pd->data_offset = pd->attrs_offset + pd->attrs_size;
	if (errcode < 0)
		bt_perf_data_fini(pd);
	return errcode;
}

int bt_perf_data_record(struct bt_perf_data *pd, const void *record,
			size_t size, struct bt_diag *diag)
{
	int errcode;

	if (size % 8 || size > UINT16_MAX)
		return bt_diag_set(diag, bte_internal, 0, 0,
				   "bad perf record size %zu", size);
	errcode = bt_perf_write(pd, record, size, diag);
	if (!errcode)
		pd->data_size += size;
	return errcode;
}

int bt_perf_data_payload(struct bt_perf_data *pd, const void *payload,
			 size_t size, struct bt_diag *diag)
{
	static const uint8_t pad[8];
	int errcode = bt_perf_write(pd, payload, size, diag);

	if (!errcode && size % 8)
		errcode = bt_perf_write(pd, pad, 8 - size % 8, diag);
	if (!errcode)
		pd->data_size += (size + 7) / 8 * 8;
	return errcode;
}

int bt_perf_data_feature(struct bt_perf_data *pd, int bit, const void *data,
			 size_t size, struct bt_diag *diag)
{
	uint8_t *copy;

	if (bit <= 0 || bit >= btpf_max ||
	    pd->nfeat >= sizeof(pd->feat) / sizeof(pd->feat[0]) ||
	    (pd->nfeat && pd->feat[pd->nfeat - 1].bit >= bit))
		return bt_diag_set(diag, bte_internal, 0, 0,
				   "bad perf header feature %d", bit);
	copy = malloc(size ? size : 1);
	if (!copy)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	if (size)
		memcpy(copy, data, size);
	pd->feat[pd->nfeat].bit = bit;
	pd->feat[pd->nfeat].data = copy;
	pd->feat[pd->nfeat].size = size;
	pd->nfeat++;
	pd->features[bit / 64] |= 1ull << (bit % 64);
	return 0;
}

int bt_perf_data_commit(struct bt_perf_data *pd, struct bt_diag *diag)
{
	struct bt_perf_section table[16];
	uint64_t at = pd->data_offset + pd->data_size;
	struct bt_perf_buf header;
	int errcode = 0;

	/* The feature table sits right after the data; the bodies follow.  */
	at += pd->nfeat * sizeof(table[0]);
	for (size_t i = 0; i < pd->nfeat; i++) {
		table[i].offset = at;
		table[i].size = pd->feat[i].size;
		at += pd->feat[i].size;
	}
	errcode = bt_perf_write(pd, table, pd->nfeat * sizeof(table[0]), diag);
	for (size_t i = 0; !errcode && i < pd->nfeat; i++)
		errcode = bt_perf_write(pd, pd->feat[i].data, pd->feat[i].size,
					diag);
	if (errcode)
		return errcode;

	bt_perf_buf_init(&header);
	bt_perf_buf_put(&header, BT_PERF_MAGIC, 8);
	bt_perf_buf_u64(&header, BT_PERF_HEADER_SIZE);
	bt_perf_buf_u64(&header, pd->attrs_size);
	bt_perf_buf_u64(&header, pd->attrs_offset);
	bt_perf_buf_u64(&header, pd->attrs_size);
	bt_perf_buf_u64(&header, pd->data_offset);
	bt_perf_buf_u64(&header, pd->data_size);
	bt_perf_buf_u64(&header, 0);   /* event_types: unused */
	bt_perf_buf_u64(&header, 0);
	bt_perf_buf_put(&header, pd->features, sizeof(pd->features));
	if (header.failed) {
		bt_perf_buf_fini(&header);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	errno = 0;
	if (fseek(pd->file, 0, SEEK_SET) != 0)
		errcode = bt_perf_io_error(pd, diag, "seek in");
	if (!errcode)
		errcode = bt_perf_write(pd, header.data, header.len, diag);
	bt_perf_buf_fini(&header);
	if (errcode)
		return errcode;

	errno = 0;
	if (fflush(pd->file) != 0 || ferror(pd->file))
		errcode = bt_perf_io_error(pd, diag, "write");
	if (fclose(pd->file) != 0 && !errcode)
		errcode = bt_perf_io_error(pd, diag, "write");
	pd->file = NULL;
	if (!errcode && rename(pd->tmp, pd->path) != 0)
		errcode = bt_perf_io_error(pd, diag, "rename to");
	if (!errcode) {
		free(pd->tmp);
		pd->tmp = NULL;
	}
	return errcode;
}

void bt_perf_data_fini(struct bt_perf_data *pd)
{
	if (pd->file)
		fclose(pd->file);
	if (pd->tmp)
		unlink(pd->tmp);
	for (size_t i = 0; i < pd->nfeat; i++)
		free(pd->feat[i].data);
	free(pd->tmp);
	free(pd->path);
	memset(pd, 0, sizeof(*pd));
}
