/* The trace bundle reader: validates every length, offset, count, the
   version and the checksum before anything is used.  */
#include "btrace/ptbundle.h"
#include "btrace/bt_bundle_format.h"
#include "btrace/bt_bundle_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void bt_bundle_fini(struct bt_bundle *bundle)
{
	struct bt_bundle_storage *st;

	if (!bundle)
		return;

	st = bundle->storage;
	if (st) {
		free(st->mappings);
		free(st->pages);
		free(st->threads);
		free(st->core_threads);
		free(st->core_pages);
		free(st->sideband);
		free(st->copy);
		free(st->strings);
		free(st);
	}
	memset(bundle, 0, sizeof(*bundle));
}

static int bt_check_header(const uint8_t *data, size_t size,
			   uint32_t *nrecords, unsigned *versionp,
			   struct bt_diag *diag)
{
	uint64_t total, version, hsize, flags;
	uint32_t crc, want;

	if (size < BT_BUNDLE_MAGIC_SIZE ||
	    memcmp(data, BT_BUNDLE_MAGIC, BT_BUNDLE_MAGIC_SIZE) != 0) {
		if (size < BT_BUNDLE_MAGIC_SIZE &&
		    memcmp(data, BT_BUNDLE_MAGIC, size) == 0)
			return bt_diag_set(diag, bte_truncated, 1, size,
					   "truncated: %zu bytes, a bundle "
					   "header has %d", size,
					   BT_BUNDLE_HEADER_SIZE);
		return bt_diag_set(diag, bte_bad_magic, 1, 0,
				   "not a trace bundle (bad magic)");
	}
	if (size < BT_BUNDLE_HEADER_SIZE)
		return bt_diag_set(diag, bte_truncated, 1, size,
				   "truncated: %zu bytes, a bundle header has "
				   "%d", size, BT_BUNDLE_HEADER_SIZE);

	version = bt_get_le(data + 8, 2);
	if (version < BT_BUNDLE_VERSION_MIN || version > BT_BUNDLE_VERSION)
		return bt_diag_set(diag, bte_bad_version, 1, 8,
				   "bundle version %" PRIu64 " is not "
				   "supported (this reader knows versions %d "
				   "to %d)", version, BT_BUNDLE_VERSION_MIN,
				   BT_BUNDLE_VERSION);
	*versionp = (unsigned) version;

	hsize = bt_get_le(data + 10, 2);
	if (hsize != BT_BUNDLE_HEADER_SIZE)
		return bt_diag_set(diag, bte_bad_record, 1, 10,
				   "header size %" PRIu64 ", expected %d",
				   hsize, BT_BUNDLE_HEADER_SIZE);

	flags = bt_get_le(data + 12, 4);
	if (flags != 0)
		return bt_diag_set(diag, bte_bad_record, 1, 12,
				   "unknown header flags 0x%" PRIx64, flags);

	total = bt_get_le(data + 16, 8);
	if (total > size)
		return bt_diag_set(diag, bte_truncated, 1, size,
				   "truncated: the header says %" PRIu64
				   " bytes, the input has %zu", total, size);
	if (total < size)
		return bt_diag_set(diag, bte_bad_record, 1, total,
				   "%zu bytes of trailing data after the "
				   "bundle's %" PRIu64, size - total, total);

	want = (uint32_t) bt_get_le(data + BT_BUNDLE_CRC_OFFSET, 4);
	crc = bt_bundle_crc32(0, data, BT_BUNDLE_CRC_OFFSET);
	crc = bt_bundle_crc32(crc, data + BT_BUNDLE_HEADER_SIZE,
			      size - BT_BUNDLE_HEADER_SIZE);
	if (crc != want)
		return bt_diag_set(diag, bte_bad_checksum, 1,
				   BT_BUNDLE_CRC_OFFSET,
				   "checksum mismatch: stored 0x%08x, "
				   "computed 0x%08x", want, crc);

	*nrecords = (uint32_t) bt_get_le(data + 24, 4);
	return 0;
}


static int bt_next_record(const uint8_t *data, size_t size, size_t *pos,
			  struct bt_record *rec, struct bt_diag *diag)
{
	size_t at = *pos, padded;

	if (size - at < BT_RECORD_HEADER_SIZE)
		return bt_diag_set(diag, bte_bad_record, 1, at,
				   "record header runs past the end of the "
				   "bundle");

	rec->type = (uint32_t) bt_get_le(data + at, 4);
	rec->length = (uint32_t) bt_get_le(data + at + 4, 4);
	rec->offset = at + BT_RECORD_HEADER_SIZE;
	rec->payload = data + rec->offset;

	padded = ((size_t) rec->length + 7) & ~(size_t) 7;
	if (padded > size - rec->offset)
		return bt_diag_set(diag, bte_bad_record, 1, at + 4,
				   "record length %" PRIu32 " runs past the "
				   "end of the bundle (%zu bytes left)",
				   rec->length, size - rec->offset);

	for (size_t i = rec->length; i < padded; ++i)
		if (rec->payload[i] != 0)
			return bt_diag_set(diag, bte_bad_record, 1,
					   rec->offset + i,
					   "non-zero record padding");

	*pos = rec->offset + padded;
	return 0;
}

static int bt_parse_format(struct bt_bundle *b, const struct bt_record *rec,
			   struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	uint64_t format, vendor;
	int errcode;

	errcode = bt_want_length(rec, BT_FORMAT_PAYLOAD_SIZE, "format", diag);
	if (errcode < 0)
		return errcode;

	format = bt_get_le(p, 4);
	if (format != btf_pt && format != btf_bts)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "unknown trace format %" PRIu64, format);
	vendor = bt_get_le(p + 4, 4);
	if (vendor != btv_unknown && vendor != btv_intel)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 4,
				   "unknown cpu vendor %" PRIu64, vendor);

	b->format = (enum bt_format) format;
	b->cpu.vendor = (uint32_t) vendor;
	b->cpu.family = (uint16_t) bt_get_le(p + 8, 2);
	b->cpu.model = p[10];
	b->cpu.stepping = p[11];
	b->buffer_size = (uint32_t) bt_get_le(p + 12, 4);
	return 0;
}

static int bt_parse_thread(struct bt_bundle *b, struct bt_thread *t,
			   const struct bt_record *rec, unsigned version,
			   struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	uint64_t flags;
	int32_t pid;
	int errcode;

	errcode = bt_want_length(rec, version == 1 ? BT_THREAD_PAYLOAD_SIZE
				 : BT_THREAD2_PAYLOAD_SIZE, "thread", diag);
	if (errcode < 0)
		return errcode;

	pid = (int32_t) (uint32_t) bt_get_le(p, 4);
	t->tid = (int32_t) (uint32_t) bt_get_le(p + 4, 4);
	if (pid <= 0 || t->tid <= 0)
		return bt_diag_set(diag, bte_bad_record, 1,
				   rec->offset + (pid <= 0 ? 0 : 4),
				   "bad thread id %" PRId32 ".%" PRId32,
				   pid, t->tid);
	if (b->pid && pid != b->pid)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset,
				   "thread of process %" PRId32 " in a bundle "
				   "of process %" PRId32, pid, b->pid);
	b->pid = pid;

	flags = bt_get_le(p + 8, 4);
	if ((flags & ~(uint64_t) (BT_THREAD_HAS_PC |
				  (version > 1 ? BT_THREAD_ENDED : 0))) ||
	    bt_get_le(p + 12, 4))
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 8,
				   "unknown thread flags 0x%" PRIx64, flags);
	t->has_pc = (flags & BT_THREAD_HAS_PC) != 0;
	t->ended = (flags & BT_THREAD_ENDED) != 0;
	t->pc = bt_get_le(p + 16, 8);
	if (version > 1)
		t->lost = bt_get_le(p + 24, 8);
	return 0;
}

static int bt_parse_mapping(struct bt_mapping *m, const struct bt_record *rec,
			    const uint8_t *copy, char **pool,
			    struct bt_diag *diag)
{
	const uint8_t *p = rec->payload;
	size_t idlen, plen;

	if (rec->length < BT_MAPPING_FIXED_SIZE)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset - 4,
				   "mapping record has %" PRIu32 " bytes, at "
				   "least %d needed", rec->length,
				   BT_MAPPING_FIXED_SIZE);

	m->address = bt_get_le(p, 8);
	m->size = bt_get_le(p + 8, 8);
	m->offset = bt_get_le(p + 16, 8);
	m->prot = (uint32_t) bt_get_le(p + 24, 4);
	idlen = bt_get_le(p + 28, 2);
	plen = bt_get_le(p + 30, 2);

	if (!m->size || m->address + m->size < m->address)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 8,
				   "bad mapping size 0x%" PRIx64 " at 0x%"
				   PRIx64, m->size, m->address);
	if (m->offset + m->size < m->offset)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 16,
				   "mapping file offset 0x%" PRIx64
				   " overflows", m->offset);
	if (m->prot & ~7u)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 24,
				   "unknown protection bits 0x%" PRIx32,
				   m->prot);
	if (idlen > BT_MAX_BUILD_ID)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 28,
				   "build-id of %zu bytes (at most %d)", idlen,
				   BT_MAX_BUILD_ID);
	if (!plen || plen > BT_MAX_PATH)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset + 30,
				   "mapping path of %zu bytes (1 to %d)", plen,
				   BT_MAX_PATH);
	if (BT_MAPPING_FIXED_SIZE + idlen + plen != rec->length)
		return bt_diag_set(diag, bte_bad_record, 1, rec->offset - 4,
				   "mapping record has %" PRIu32 " bytes, its "
				   "fields need %zu", rec->length,
				   BT_MAPPING_FIXED_SIZE + idlen + plen);

	m->build_id_size = idlen;
	m->build_id = idlen ? copy + rec->offset + BT_MAPPING_FIXED_SIZE : NULL;
	m->path = *pool;
	return bt_take_string(p + BT_MAPPING_FIXED_SIZE + idlen, plen,
			      rec->offset + BT_MAPPING_FIXED_SIZE + idlen,
			      pool, "mapping path", diag);
}

/* First pass: walk the records, count and bound them.  A version 1
   bundle has one thread; in version 2 each thread record is followed by
   its trace.  */
static int bt_scan_records(const uint8_t *data, size_t size,
			   uint32_t nrecords, unsigned version,
			   size_t seen[btr_last + 1], size_t *strings,
			   struct bt_diag *diag)
{
	size_t pos = BT_BUNDLE_HEADER_SIZE;
	uint32_t last = version == 1 ? btr_pages
		: version == 2 ? btr_ended : btr_last, prev = 0;
	static const char *const names[] = {
		[btr_format] = "format", [btr_thread] = "thread",
		[btr_trace] = "trace", [btr_trigger] = "trigger",
		[btr_process] = "process", [btr_auxv] = "auxv",
		[btr_ended] = "ended", [btr_time] = "time",
	};
	int errcode;

	for (uint32_t i = 0; i < nrecords; ++i) {
		struct bt_record rec;
		size_t at = pos;
		int once;

		if (pos == size)
			return bt_diag_set(diag, bte_bad_record, 1, 24,
					   "the header counts %" PRIu32
					   " records, the bundle holds %"
					   PRIu32, nrecords, i);

		errcode = bt_next_record(data, size, &pos, &rec, diag);
		if (errcode < 0)
			return errcode;

		if (rec.type < btr_format || rec.type > last)
			return bt_diag_set(diag, bte_bad_record, 1, at,
					   "unknown record type %" PRIu32,
					   rec.type);
		once = rec.type == btr_format || rec.type == btr_trigger ||
			rec.type == btr_process || rec.type == btr_auxv ||
			rec.type == btr_ended || rec.type == btr_time ||
			(version == 1 && rec.type <= btr_trace);
		if (once && seen[rec.type])
			return bt_diag_set(diag, bte_bad_record, 1, at,
					   "second %s record",
					   names[rec.type]);
		if (version > 1 && (rec.type == btr_trace) !=
		    (prev == btr_thread))
			return bt_diag_set(diag, bte_bad_record, 1, at,
					   rec.type == btr_trace ?
					   "trace record without its thread" :
					   "thread record without its trace");
		seen[rec.type] += 1;
		prev = rec.type;
		/* Strings are at most their record long, plus the NUL.  */
		*strings += rec.length + 1;
	}
	if (pos != size)
		return bt_diag_set(diag, bte_bad_record, 1, pos,
				   "data after the last of %" PRIu32
				   " records", nrecords);
	if (version > 1 && prev == btr_thread)
		return bt_diag_set(diag, bte_bad_record, 1, pos,
				   "thread record without its trace");

	for (int t = btr_format; t <= btr_trace; ++t)
		if (!seen[t])
			return bt_diag_set(diag, bte_bad_record, 1, 24,
					   "the bundle has no %s record",
					   names[t]);
	return 0;
}

static int bt_check_bts(const struct bt_bundle *b, const struct bt_thread *t,
			const struct bt_bundle_storage *st,
			struct bt_diag *diag)
{
	uint64_t off;

	if (b->format != btf_bts || (t->trace_size % 16) == 0)
		return 0;
	off = (uint64_t) (t->trace - st->copy);
	return bt_diag_set(diag, bte_bad_record, 1, off - 4,
			   "BTS trace of %zu bytes is not a whole number of "
			   "16-byte blocks", t->trace_size);
}

static int bt_parse_records(struct bt_bundle *b, struct bt_bundle_storage *st,
			    size_t size, uint32_t nrecords, unsigned version,
			    struct bt_diag *diag)
{
	size_t pos = BT_BUNDLE_HEADER_SIZE, nmap = 0, npages = 0, nth = 0;
	char *pool = st->strings;
	int errcode;

	for (uint32_t i = 0; i < nrecords; ++i) {
		struct bt_record rec;

		errcode = bt_next_record(st->copy, size, &pos, &rec, diag);
		if (errcode < 0)
			return errcode;

		switch (rec.type) {
		case btr_format:
			errcode = bt_parse_format(b, &rec, diag);
			break;
		case btr_thread:
			errcode = bt_parse_thread(b, &st->threads[nth++], &rec,
						  version, diag);
			break;
		case btr_trace:
			/* Version 1 may have it before its thread.  */
			st->threads[nth ? nth - 1 : 0].trace =
				rec.length ? rec.payload : NULL;
			st->threads[nth ? nth - 1 : 0].trace_size = rec.length;
			break;
		case btr_mapping:
			errcode = bt_parse_mapping(&st->mappings[nmap++], &rec,
						   st->copy, &pool, diag);
			break;
		case btr_pages:
			errcode = bt_parse_pages(&st->pages[npages++], &rec,
						 st->copy, &pool, diag);
			break;
		default:
			errcode = bt_parse_v2_record(b, st, &rec, &pool, diag);
			break;
		}
		if (errcode < 0)
			return errcode;
	}

	/* The format record may follow the trace record.  */
	for (size_t i = 0; i < nth; ++i) {
		errcode = bt_check_bts(b, &st->threads[i], st, diag);
		if (errcode < 0)
			return errcode;
	}
	return 0;
}

int bt_bundle_parse(struct bt_bundle *bundle, const void *data, size_t size,
		    struct bt_diag *diag)
{
	struct bt_bundle_storage *st;
	size_t seen[btr_last + 1] = { 0 }, strings = 0;
	uint32_t nrecords = 0;
	unsigned version = 0;
	int errcode;

	if (!bundle || (!data && size))
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	memset(bundle, 0, sizeof(*bundle));

	if (!size)
		return bt_diag_set(diag, bte_truncated, 1, 0,
				   "empty input: not a trace bundle");

	errcode = bt_check_header(data, size, &nrecords, &version, diag);
	if (errcode < 0)
		return errcode;

	errcode = bt_scan_records(data, size, nrecords, version, seen,
				  &strings, diag);
	if (errcode < 0)
		return errcode;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	bundle->storage = st;

	st->copy = malloc(size);
	st->strings = malloc(strings);
	st->mappings = calloc(seen[btr_mapping] + 1, sizeof(*st->mappings));
	st->pages = calloc(seen[btr_pages] + 1, sizeof(*st->pages));
	st->threads = calloc(seen[btr_thread] + 1, sizeof(*st->threads));
	st->core_threads = calloc(seen[btr_regs] + 1,
				  sizeof(*st->core_threads));
	st->core_pages = calloc(seen[btr_memory] + 1,
				sizeof(*st->core_pages));
	st->sideband = calloc(seen[btr_sideband] + 1, sizeof(*st->sideband));
	if (!st->copy || !st->strings || !st->mappings || !st->pages ||
	    !st->threads || !st->core_threads || !st->core_pages ||
	    !st->sideband) {
		bt_bundle_fini(bundle);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	memcpy(st->copy, data, size);

	errcode = bt_parse_records(bundle, st, size, nrecords, version, diag);
	if (errcode < 0) {
		bt_bundle_fini(bundle);
		return errcode;
	}

	bundle->mappings = st->mappings;
	bundle->nmappings = seen[btr_mapping];
	bundle->pages = st->pages;
	bundle->npages = seen[btr_pages];
	bundle->threads = st->threads;
	bundle->nthreads = seen[btr_thread];
	bundle->core_threads = st->core_threads;
	bundle->ncore_threads = seen[btr_regs];
	bundle->core_pages = st->core_pages;
	bundle->ncore_pages = seen[btr_memory];
	bundle->sideband = st->sideband;
	bundle->nsideband = seen[btr_sideband];
	/* The trigger's thread, if it was traced; else the first.  */
	if (bt_bundle_select_thread(bundle, bundle->trigger.tid) < 0)
		bt_bundle_select_thread(bundle, st->threads[0].tid);
	return 0;
}

int bt_bundle_load(struct bt_bundle *bundle, const char *path,
		   struct bt_diag *diag)
{
	struct stat st;
	uint8_t *data;
	size_t done;
	int fd, errcode;

	if (!bundle || !path)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	memset(bundle, 0, sizeof(*bundle));

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bt_diag_set(diag, bte_io, 0, 0, "%s: %s", path,
				   strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		errcode = errno;
		close(fd);
		return bt_diag_set(diag, bte_io, 0, 0, "%s: %s", path,
				   errcode ? strerror(errcode)
				   : "not a regular file");
	}

	data = malloc(st.st_size ? (size_t) st.st_size : 1);
	if (!data) {
		close(fd);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}

	for (done = 0; done < (size_t) st.st_size;) {
		ssize_t n = read(fd, data + done, (size_t) st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t) n;
	}
	close(fd);

	errcode = bt_bundle_parse(bundle, data, done, diag);
	free(data);
	return errcode;
}
