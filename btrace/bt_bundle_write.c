/* The trace bundle encoder.  Like all of libptbundle it needs libc and
   libdeflate's CRC-32 alone, so that the stub links it without the
   client library's decoders.  */
#include "btrace/ptbundle.h"
#include "btrace/bt_bundle_format.h"
#include "btrace/bt_bundle_file.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

uint32_t bt_bundle_crc32(uint32_t crc, const void *data, size_t size)
{
	/* The bundle's CRC is zlib's CRC-32 (the same as .gnu_debuglink's,
	   but that is a separate choice); libdeflate computes it quickly.  */
	return libdeflate_crc32(crc, data, size);
}

struct bt_writer {
	uint8_t *data;
	size_t len;
	size_t cap;
};

static int bt_writer_reserve(struct bt_writer *w, size_t len)
{
	size_t cap;
	uint8_t *data;

	if (len > SIZE_MAX - w->len)
		return -bte_nomem;
	if (w->len + len <= w->cap)
		return 0;

	cap = w->cap ? w->cap : 4096;
	while (cap < w->len + len)
		cap *= 2;

	data = realloc(w->data, cap);
	if (!data)
		return -bte_nomem;

	w->data = data;
	w->cap = cap;
	return 0;
}

static void bt_put(struct bt_writer *w, const void *data, size_t len)
{
	if (len)
		memcpy(w->data + w->len, data, len);
	w->len += len;
}

static void bt_put_le(struct bt_writer *w, uint64_t value, int bytes)
{
	for (int i = 0; i < bytes; ++i)
		w->data[w->len++] = (uint8_t) (value >> (8 * i));
}

static void bt_store_le(uint8_t *at, uint64_t value, int bytes)
{
	for (int i = 0; i < bytes; ++i)
		at[i] = (uint8_t) (value >> (8 * i));
}

/* Start a record of PAYLOAD bytes: reserve it with its padding.  */
static int bt_begin_record(struct bt_writer *w, uint32_t type, size_t payload)
{
	size_t padded = (payload + 7) & ~(size_t) 7;
	int errcode;

	if (payload > UINT32_MAX - 7)
		return -bte_invalid;

	errcode = bt_writer_reserve(w, BT_RECORD_HEADER_SIZE + padded);
	if (errcode < 0)
		return errcode;

	bt_put_le(w, type, 4);
	bt_put_le(w, payload, 4);
	/* Zero the padding now; the payload overwrites the rest.  */
	memset(w->data + w->len, 0, padded);
	return 0;
}

static void bt_end_record(struct bt_writer *w, size_t start)
{
	w->len = start + ((w->len - start + 7) & ~(size_t) 7);
}

static int bt_check_pages(const struct bt_pages *p)
{
	if (!p->size || !p->bytes || p->address + p->size < p->address)
		return -bte_invalid;
	if (p->name && strlen(p->name) > BT_MAX_NAME)
		return -bte_invalid;
	if (p->size > UINT32_MAX - BT_PAGES_FIXED_SIZE - BT_MAX_NAME - 8)
		return -bte_invalid;
	return 0;
}

static int bt_check_trace(enum bt_format format, const uint8_t *trace,
			  size_t size)
{
	if (size && !trace)
		return -bte_invalid;
	if (format == btf_bts && (size % 16) != 0)
		return -bte_invalid;
	if (size > UINT32_MAX - 7)
		return -bte_invalid;
	return 0;
}

static int bt_check_v2(const struct bt_bundle *b)
{
	if ((b->nthreads && !b->threads) ||
	    (b->ncore_threads && !b->core_threads) ||
	    (b->ncore_pages && !b->core_pages) ||
	    (b->auxv_size && !b->auxv) || (b->nsideband && !b->sideband))
		return -bte_invalid;
	if (!b->ended.budget && (b->ended.dropped || b->ended.dropped_bytes))
		return -bte_invalid;
	if (!b->ended.dropped && b->ended.dropped_bytes)
		return -bte_invalid;
	if (b->time.mult && b->time.shift > 32)
		return -bte_invalid;
	if (b->trigger.kind > btt_full ||
	    (b->trigger.name && strlen(b->trigger.name) > BT_MAX_NAME))
		return -bte_invalid;
	if (b->exe && (!*b->exe || strlen(b->exe) > BT_MAX_PATH))
		return -bte_invalid;
	for (size_t i = 0; i < b->nthreads; ++i)
		if (b->threads[i].tid <= 0 ||
		    bt_check_trace(b->format, b->threads[i].trace,
				   b->threads[i].trace_size) < 0)
			return -bte_invalid;
	for (size_t i = 0; i < b->ncore_threads; ++i) {
		const struct bt_core_thread *t = &b->core_threads[i];

		if (t->tid <= 0 || t->regs_size > BT_MAX_REGS ||
		    (t->regs_size && !t->regs))
			return -bte_invalid;
	}
	for (size_t i = 0; i < b->ncore_pages; ++i)
		if (bt_check_pages(&b->core_pages[i]) < 0)
			return -bte_invalid;
	for (size_t i = 0; i < b->nsideband; ++i) {
		const struct bt_sideband *e = &b->sideband[i];

		if (e->kind < bts_exec || e->kind > bts_unmap ||
		    (e->path && strlen(e->path) > BT_MAX_PATH) ||
		    e->build_id_size > BT_MAX_BUILD_ID ||
		    (e->build_id_size && !e->build_id))
			return -bte_invalid;
	}
	return 0;
}

static int bt_check_bundle(const struct bt_bundle *b)
{
	if (b->format != btf_pt && b->format != btf_bts)
		return -bte_invalid;
	if (b->trace_size && !b->trace)
		return -bte_invalid;
	if (b->format == btf_bts && (b->trace_size % 16) != 0)
		return -bte_invalid;
	if ((b->nmappings && !b->mappings) || (b->npages && !b->pages))
		return -bte_invalid;

	for (size_t i = 0; i < b->nmappings; ++i) {
		const struct bt_mapping *m = &b->mappings[i];
		size_t plen;

		if (!m->path || !m->size || m->address + m->size < m->address)
			return -bte_invalid;
		plen = strlen(m->path);
		if (!plen || plen > BT_MAX_PATH)
			return -bte_invalid;
		if (m->build_id_size > BT_MAX_BUILD_ID ||
		    (m->build_id_size && !m->build_id))
			return -bte_invalid;
	}

	for (size_t i = 0; i < b->npages; ++i)
		if (bt_check_pages(&b->pages[i]) < 0)
			return -bte_invalid;
	return bt_check_v2(b);
}

static int bt_encode_thread(struct bt_writer *w, int32_t pid,
			    const struct bt_thread *t)
{
	size_t start = w->len;
	int errcode;

	errcode = bt_begin_record(w, btr_thread, BT_THREAD2_PAYLOAD_SIZE);
	if (errcode < 0)
		return errcode;
	bt_put_le(w, (uint32_t) pid, 4);
	bt_put_le(w, (uint32_t) t->tid, 4);
	bt_put_le(w, (t->has_pc ? BT_THREAD_HAS_PC : 0) |
		  (t->ended ? BT_THREAD_ENDED : 0), 4);
	bt_put_le(w, 0, 4);
	bt_put_le(w, t->has_pc ? t->pc : 0, 8);
	bt_put_le(w, t->lost, 8);
	bt_end_record(w, start);

	start = w->len;
	errcode = bt_begin_record(w, btr_trace, t->trace_size);
	if (errcode < 0)
		return errcode;
	bt_put(w, t->trace, t->trace_size);
	bt_end_record(w, start);
	return 0;
}

/* The pages and memory records share a layout.  */
static int bt_encode_pages(struct bt_writer *w, uint32_t type,
			   const struct bt_pages *p)
{
	size_t nlen = p->name ? strlen(p->name) : 0, start = w->len;
	int errcode;

	errcode = bt_begin_record(w, type, BT_PAGES_FIXED_SIZE + nlen
				  + p->size);
	if (errcode < 0)
		return errcode;
	bt_put_le(w, p->address, 8);
	bt_put_le(w, p->size, 8);
	bt_put_le(w, p->prot, 4);
	bt_put_le(w, nlen, 2);
	bt_put_le(w, 0, 2);
	bt_put(w, p->name, nlen);
	bt_put(w, p->bytes, p->size);
	bt_end_record(w, start);
	return 0;
}

static int bt_encode_blob(struct bt_writer *w, uint32_t type,
			  const void *data, size_t size)
{
	size_t start = w->len;
	int errcode = bt_begin_record(w, type, size);

	if (errcode < 0)
		return errcode;
	bt_put(w, data, size);
	bt_end_record(w, start);
	return 0;
}

/* The version 2 records besides threads: trigger, process, core,
   side-band.  Counts them into *NRECORDS.  */
static int bt_encode_v2(struct bt_writer *w, const struct bt_bundle *b,
			uint32_t *nrecords)
{
	size_t start;
	int errcode;

	if (b->trigger.kind != btt_none) {
		const char *name = b->trigger.name ? b->trigger.name : "";
		size_t nlen = strlen(name);

		start = w->len;
		errcode = bt_begin_record(w, btr_trigger,
					  BT_TRIGGER_FIXED_SIZE + nlen);
		if (errcode < 0)
			return errcode;
		bt_put_le(w, b->trigger.kind, 4);
		bt_put_le(w, (uint32_t) b->trigger.tid, 4);
		bt_put_le(w, (uint32_t) b->trigger.signal, 4);
		bt_put_le(w, b->trigger.sequence, 4);
		bt_put_le(w, b->trigger.address, 8);
		bt_put_le(w, nlen, 2);
		bt_put_le(w, 0, 2);
		bt_put_le(w, 0, 4);
		bt_put(w, name, nlen);
		bt_end_record(w, start);
		++*nrecords;
	}
	if (b->exe) {
		size_t plen = strlen(b->exe);

		start = w->len;
		errcode = bt_begin_record(w, btr_process,
					  BT_PROCESS_FIXED_SIZE + plen);
		if (errcode < 0)
			return errcode;
		bt_put_le(w, (uint32_t) b->pid, 4);
		bt_put_le(w, plen, 4);
		bt_put(w, b->exe, plen);
		bt_end_record(w, start);
		++*nrecords;
	}
	for (size_t i = 0; i < b->ncore_threads; ++i) {
		const struct bt_core_thread *t = &b->core_threads[i];

		start = w->len;
		errcode = bt_begin_record(w, btr_regs,
					  BT_REGS_FIXED_SIZE + t->regs_size);
		if (errcode < 0)
			return errcode;
		bt_put_le(w, (uint32_t) t->tid, 4);
		bt_put_le(w, (uint32_t) t->signal, 4);
		bt_put_le(w, t->regs_size, 4);
		bt_put_le(w, 0, 4);
		bt_put(w, t->regs, t->regs_size);
		bt_end_record(w, start);
		++*nrecords;
	}
	for (size_t i = 0; i < b->ncore_pages; ++i) {
		errcode = bt_encode_pages(w, btr_memory, &b->core_pages[i]);
		if (errcode < 0)
			return errcode;
		++*nrecords;
	}
	if (b->auxv_size) {
		errcode = bt_encode_blob(w, btr_auxv, b->auxv, b->auxv_size);
		if (errcode < 0)
			return errcode;
		++*nrecords;
	}
	for (size_t i = 0; i < b->nsideband; ++i) {
		const struct bt_sideband *e = &b->sideband[i];
		size_t plen = e->path ? strlen(e->path) : 0;

		start = w->len;
		errcode = bt_begin_record(w, btr_sideband,
					  BT_SIDEBAND_FIXED_SIZE
					  + e->build_id_size + plen);
		if (errcode < 0)
			return errcode;
		bt_put_le(w, e->kind, 4);
		bt_put_le(w, (uint32_t) e->tid, 4);
		bt_put_le(w, e->address, 8);
		bt_put_le(w, e->size, 8);
		bt_put_le(w, e->offset, 8);
		bt_put_le(w, e->prot, 4);
		bt_put_le(w, e->build_id_size, 2);
		bt_put_le(w, plen, 2);
		bt_put(w, e->build_id, e->build_id_size);
		bt_put(w, e->path, plen);
		bt_end_record(w, start);
		++*nrecords;
	}
	if (b->ended.budget) {
		start = w->len;
		errcode = bt_begin_record(w, btr_ended, BT_ENDED_PAYLOAD_SIZE);
		if (errcode < 0)
			return errcode;
		bt_put_le(w, b->ended.budget, 8);
		bt_put_le(w, b->ended.dropped, 4);
		bt_put_le(w, 0, 4);
		bt_put_le(w, b->ended.dropped_bytes, 8);
		bt_end_record(w, start);
		++*nrecords;
	}
	if (b->time.mult) {
		start = w->len;
		errcode = bt_begin_record(w, btr_time, BT_TIME_PAYLOAD_SIZE);
		if (errcode < 0)
			return errcode;
		bt_put_le(w, b->time.zero, 8);
		bt_put_le(w, b->time.mult, 4);
		bt_put_le(w, b->time.shift, 2);
		bt_put_le(w, 0, 2);
		bt_end_record(w, start);
		++*nrecords;
	}
	return 0;
}

static int bt_encode_records(struct bt_writer *w, const struct bt_bundle *b)
{
	size_t start;
	int errcode;

	start = w->len;
	errcode = bt_begin_record(w, btr_format, BT_FORMAT_PAYLOAD_SIZE);
	if (errcode < 0)
		return errcode;
	bt_put_le(w, b->format, 4);
	bt_put_le(w, b->cpu.vendor, 4);
	bt_put_le(w, b->cpu.family, 2);
	bt_put_le(w, b->cpu.model, 1);
	bt_put_le(w, b->cpu.stepping, 1);
	bt_put_le(w, b->buffer_size, 4);
	bt_end_record(w, start);

	if (!b->nthreads) {
		struct bt_thread one = {
			.tid = b->tid, .has_pc = b->has_pc, .pc = b->pc,
			.trace = b->trace, .trace_size = b->trace_size,
		};

		errcode = bt_encode_thread(w, b->pid, &one);
		if (errcode < 0)
			return errcode;
	}
	for (size_t i = 0; i < b->nthreads; ++i) {
		errcode = bt_encode_thread(w, b->pid, &b->threads[i]);
		if (errcode < 0)
			return errcode;
	}

	for (size_t i = 0; i < b->nmappings; ++i) {
		const struct bt_mapping *m = &b->mappings[i];
		size_t plen = strlen(m->path);

		start = w->len;
		errcode = bt_begin_record(w, btr_mapping, BT_MAPPING_FIXED_SIZE
					  + m->build_id_size + plen);
		if (errcode < 0)
			return errcode;
		bt_put_le(w, m->address, 8);
		bt_put_le(w, m->size, 8);
		bt_put_le(w, m->offset, 8);
		bt_put_le(w, m->prot, 4);
		bt_put_le(w, m->build_id_size, 2);
		bt_put_le(w, plen, 2);
		bt_put(w, m->build_id, m->build_id_size);
		bt_put(w, m->path, plen);
		bt_end_record(w, start);
	}

	for (size_t i = 0; i < b->npages; ++i) {
		errcode = bt_encode_pages(w, btr_pages, &b->pages[i]);
		if (errcode < 0)
			return errcode;
	}
	return 0;
}

int bt_bundle_encode(const struct bt_bundle *bundle, uint8_t **data,
		     size_t *size)
{
	struct bt_writer w = { NULL, 0, 0 };
	uint32_t crc, nrecords;
	int errcode;

	if (!bundle || !data || !size)
		return -bte_invalid;

	errcode = bt_check_bundle(bundle);
	if (errcode < 0)
		return errcode;

	errcode = bt_writer_reserve(&w, BT_BUNDLE_HEADER_SIZE);
	if (errcode < 0)
		return errcode;
	memset(w.data, 0, BT_BUNDLE_HEADER_SIZE);
	memcpy(w.data, BT_BUNDLE_MAGIC, BT_BUNDLE_MAGIC_SIZE);
	w.len = BT_BUNDLE_HEADER_SIZE;

	nrecords = 1 + 2 * (uint32_t) (bundle->nthreads ? bundle->nthreads : 1)
		+ (uint32_t) (bundle->nmappings + bundle->npages);
	errcode = bt_encode_records(&w, bundle);
	if (!errcode)
		errcode = bt_encode_v2(&w, bundle, &nrecords);
	if (errcode < 0) {
		free(w.data);
		return errcode;
	}

	bt_store_le(w.data + 8, BT_BUNDLE_VERSION, 2);
	bt_store_le(w.data + 10, BT_BUNDLE_HEADER_SIZE, 2);
	bt_store_le(w.data + 16, w.len, 8);
	bt_store_le(w.data + 24, nrecords, 4);

	crc = bt_bundle_crc32(0, w.data, BT_BUNDLE_CRC_OFFSET);
	crc = bt_bundle_crc32(crc, w.data + BT_BUNDLE_HEADER_SIZE,
			      w.len - BT_BUNDLE_HEADER_SIZE);
	bt_store_le(w.data + BT_BUNDLE_CRC_OFFSET, crc, 4);

	*data = w.data;
	*size = w.len;
	return 0;
}

int bt_bundle_write_file(const struct bt_bundle *bundle, const char *path)
{
	uint8_t *data;
	size_t size;
	int errcode, saved;

	if (!path)
		return -bte_invalid;

	errcode = bt_bundle_encode(bundle, &data, &size);
	if (errcode < 0)
		return errcode;
	errcode = bt_bundle_file_put(path, data, size);
	saved = errno;
	free(data);
	errno = saved;
	return errcode;
}
