/* The corpus's bundles as perf.data: the records perf needs, read back
   field by field (perf itself reads them in testsuite/btrace/
   perf_export.sh).  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "btrace/bt_export_perf.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_export_perf, corpus)

struct file {
	uint8_t *data;
	size_t size;
	struct perf_event_attr attr;
	uint64_t data_offset, data_size;
};

static void export_threads(const struct bt_bundle *bundle,
			   const struct bt_perf_thread *threads, size_t n,
			   struct file *f);

static void export(const struct bt_bundle *bundle, struct file *f)
{
	export_threads(bundle, NULL, 0, f);
}

static void export_threads(const struct bt_bundle *bundle,
			   const struct bt_perf_thread *threads, size_t n,
			   struct file *f)
{
	char path[] = "/tmp/bt_export_perf_testXXXXXX";
	struct bt_diag diag;
	FILE *in;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	if (threads)
		cr_assert_eq(bt_export_perf_threads(path, bundle, threads, n,
						    &diag), 0, "%s", diag.text);
	else
		cr_assert_eq(bt_export_perf(path, bundle, &diag), 0, "%s",
			     diag.text);
	in = fopen(path, "rb");
	cr_assert_not_null(in);
	fseek(in, 0, SEEK_END);
	f->size = (size_t) ftell(in);
	fseek(in, 0, SEEK_SET);
	f->data = malloc(f->size);
	cr_assert_eq(fread(f->data, 1, f->size, in), f->size);
	fclose(in);
	unlink(path);

	cr_assert_eq(memcmp(f->data, "PERFILE2", 8), 0);
	memcpy(&f->data_offset, f->data + 40, 8);
	memcpy(&f->data_size, f->data + 48, 8);
	{
		uint64_t attrs;

		memcpy(&attrs, f->data + 24, 8);
		memcpy(&f->attr, f->data + attrs, sizeof(f->attr));
	}
	cr_assert_leq(f->data_offset + f->data_size, f->size);
}

/* The next record at *AT in the data section, or NULL at its end; an
   AUXTRACE record's payload is skipped with it.  */
static const struct perf_event_header *next(const struct file *f,
					    uint64_t *at)
{
	const struct perf_event_header *h;

	if (*at >= f->data_offset + f->data_size)
		return NULL;
	h = (const struct perf_event_header *) (f->data + *at);
	cr_assert_geq(h->size, sizeof(*h));
	cr_assert_eq(h->size % 8, 0);
	*at += h->size;
	if (h->type == 71) {
		uint64_t size;

		memcpy(&size, (const uint8_t *) h + 8, 8);
		*at += size;
	}
	cr_assert_leq(*at, f->data_offset + f->data_size);
	return h;
}

Test(bt_export_perf, pt_is_an_intel_pt_recording_perf_decodes_timeless)
{
	struct file f;
	const struct perf_event_header *h;
	uint64_t at;
	int info = 0, comm = 0, mmap2 = 0, aux = 0;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	export(&corpus.bundle, &f);
	cr_assert_eq(f.attr.exclude_kernel, 1, "intel_pt//u traces user space");
	cr_assert_eq(f.attr.sample_id_all, 1, "perf orders events by it");
	cr_assert(f.attr.sample_type & PERF_SAMPLE_IDENTIFIER);

	at = f.data_offset;
	while ((h = next(&f, &at))) {
		const uint8_t *body = (const uint8_t *) (h + 1);

		if (h->type == 70) {
			uint32_t type;
			uint64_t priv[17];

			memcpy(&type, body, 4);
			cr_assert_eq(type, 1, "PERF_AUXTRACE_INTEL_PT");
			cr_assert_geq(h->size, 16 + sizeof(priv));
			memcpy(priv, body + 8, sizeof(priv));
			cr_assert_eq(priv[0], f.attr.type,
				     "the PMU type perf matches the attr by");
			cr_assert_neq(priv[5], 0, "the tsc bit is known");
			cr_assert_eq(f.attr.config & priv[5], 0,
				     "no timing packets: tsc off");
			cr_assert_eq(priv[9], 0, "per-thread, not per-cpu");
			cr_assert_eq(info++, 0);
		} else if (h->type == PERF_RECORD_COMM) {
			int32_t ids[2];

			memcpy(ids, body, 8);
			cr_assert_eq(ids[0], 4242);
			cr_assert_eq(ids[1], 4242);
			cr_assert_str_eq((const char *) body + 8, "bt_prog");
			cr_assert_eq(aux, 0, "side-band before the trace");
			comm++;
		} else if (h->type == PERF_RECORD_MMAP2) {
			uint64_t addr, len, pgoff;

			memcpy(&addr, body + 8, 8);
			memcpy(&len, body + 16, 8);
			memcpy(&pgoff, body + 24, 8);
			cr_assert_eq(addr, corpus.mapping.address);
			cr_assert_eq(len, corpus.mapping.size);
			cr_assert_eq(pgoff, corpus.mapping.offset);
			cr_assert_str_eq((const char *) body + 64,
					 corpus.mapping.path);
			mmap2++;
		} else if (h->type == 71) {
			uint64_t size;
			uint32_t idx, tid;

			memcpy(&size, body, 8);
			memcpy(&idx, body + 24, 4);
			memcpy(&tid, body + 28, 4);
			cr_assert_eq(size, (corpus.trace_size + 7) / 8 * 8);
			cr_assert_eq(idx, 0);
			cr_assert_eq(tid, 4242);
			cr_assert_eq(memcmp((const uint8_t *) h + h->size,
					    corpus.trace, corpus.trace_size),
				     0, "the raw trace, unchanged");
			aux++;
		}
	}
	cr_assert_eq(info, 1);
	cr_assert_eq(comm, 1);
	cr_assert_eq(mmap2, 1);
	cr_assert_eq(aux, 1);
	/* the build-id and event-description features */
	{
		uint64_t features;

		memcpy(&features, f.data + 72, 8);
		cr_assert(features & (1ull << 2));
		cr_assert(features & (1ull << 12));
	}
	free(f.data);
}

Test(bt_export_perf, bts_blocks_become_branch_samples)
{
	struct bt_bts_block blocks[3] = {
		{ 0x555555555170, 0x55555555517e },   /* newest */
		{ 0x555555555138, 0x555555555148 },
		{ 0x555555555151, 0x55555555515e },   /* oldest */
	};
	struct bt_bundle b = corpus.bundle;
	const struct perf_event_header *h;
	struct file f;
	uint64_t at;
	int n = 0;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	b = corpus.bundle;
	b.format = btf_bts;
	b.trace = (const uint8_t *) blocks;
	b.trace_size = sizeof(blocks);
	export(&b, &f);
	cr_assert_eq(f.attr.type, PERF_TYPE_HARDWARE);
	cr_assert_eq(f.attr.config, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	at = f.data_offset;
	while ((h = next(&f, &at))) {
		uint64_t s[4];   /* ip, pid/tid, addr */

		cr_assert_neq(h->type, 71, "no AUX data for BTS");
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		memcpy(s, h + 1, 24);
		/* oldest first: from the end of a block to the next one */
		cr_assert_eq(s[0], blocks[2 - n].end);
		cr_assert_eq(s[2], blocks[1 - n].begin);
		n++;
	}
	cr_assert_eq(n, 2);
	free(f.data);
}

Test(bt_export_perf, no_trace_is_an_error_and_writes_nothing)
{
	struct bt_bundle b;
	struct bt_diag diag;
	char path[] = "/tmp/bt_export_perf_test_none.data";

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	b = corpus.bundle;
	b.format = btf_none;
	unlink(path);
	cr_assert_eq(bt_export_perf(path, &b, &diag), -bte_no_trace);
	cr_assert_neq(access(path, F_OK), 0);
	cr_assert_eq(bt_export_perf(NULL, &b, &diag), -bte_invalid);
}

Test(bt_export_perf, each_thread_has_its_comm_queue_and_id)
{
	struct bt_perf_thread threads[2];
	const struct perf_event_header *h;
	struct file f;
	uint64_t at, ids[2], attrs, ids_at;
	int comm = 0, mmap2 = 0, aux = 0;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	for (int i = 0; i < 2; i++) {
		threads[i].pid = 4242;
		threads[i].tid = 4242 + i;
		threads[i].trace = corpus.trace;
		threads[i].size = corpus.trace_size - (size_t) i;
	}
	export_threads(&corpus.bundle, threads, 2, &f);
	memcpy(&attrs, f.data + 24, 8);
	memcpy(&ids_at, f.data + attrs + f.attr.size, 8);
	memcpy(ids, f.data + ids_at, sizeof(ids));
	cr_assert_eq(ids[0], 1);
	cr_assert_eq(ids[1], 2, "an event id per thread");

	at = f.data_offset;
	while ((h = next(&f, &at))) {
		const uint8_t *body = (const uint8_t *) (h + 1);
		uint32_t v[2];

		if (h->type == PERF_RECORD_COMM) {
			memcpy(v, body, 8);
			cr_assert_eq(v[0], 4242);
			cr_assert_eq(v[1], 4242u + (uint32_t) comm);
			comm++;
		} else if (h->type == PERF_RECORD_MMAP2)
			mmap2++;
		else if (h->type == 71) {
			uint64_t size;

			memcpy(&size, body, 8);
			memcpy(v, body + 24, 8);   /* idx, tid */
			cr_assert_eq(v[0], (uint32_t) aux, "a queue each");
			cr_assert_eq(v[1], 4242u + (uint32_t) aux);
			cr_assert_eq(size, (threads[aux].size + 7) / 8 * 8);
			aux++;
		}
	}
	cr_assert_eq(comm, 2);
	cr_assert_eq(mmap2, 1, "threads of a process share its mappings");
	cr_assert_eq(aux, 2);
	free(f.data);
}
