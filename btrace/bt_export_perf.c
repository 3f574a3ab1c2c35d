/* A trace bundle as perf.data, so that perf's own tools (perf script
   --itrace, perf report, the database export scripts) work on traces
   recorded where no PT hardware exists.

   PT goes out as a per-thread `intel_pt//u` recording: the intel_pt
   attribute, the AUXTRACE_INFO record with the intel_pt fields perf
   reads, COMM and MMAP2 side-band, then one AUXTRACE record per thread
   with its raw trace.  The emulated trace has no timing packets, so the
   tsc bit is off: perf then decodes "timeless", each thread's queue on
   its own at the end of the file.  BTS goes out as what `perf record -e
   branches:u -c 1` writes on BTS hardware: a branch sample (from, to)
   per block boundary.  The perf.data layout is bt_perf_data.c's.  */
#include "btrace/bt_export_perf.h"
#include "btrace/bt_perf_data.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* perf's AUXTRACE type for Intel PT (util/auxtrace.h).  */
#define BT_PERF_AUXTRACE_INTEL_PT 1

/* The PMU type of the intel_pt attribute.  perf looks no PMU up when it
   decodes: it takes the attribute whose type equals AUXTRACE_INFO's PMU
   type (and that has ids) as the trace's event, and names it from the
   EVENT_DESC feature; so any dynamic type works on a machine without
   intel_pt.  The kernel hands out dynamic types from 6 on; intel_pt's
   is often 8.  */
#define BT_PERF_PT_TYPE 8

/* intel_pt's config bits (/sys/bus/event_source/devices/intel_pt/
   format/): pt, cyc, mtc, tsc, noretcomp, branch, mtc_period.  */
#define BT_PT_CFG_PT (1ull << 0)
#define BT_PT_CFG_CYC (1ull << 1)
#define BT_PT_CFG_MTC (1ull << 9)
#define BT_PT_CFG_TSC (1ull << 10)
#define BT_PT_CFG_NORETCOMP (1ull << 11)
#define BT_PT_CFG_BRANCH (1ull << 13)
#define BT_PT_CFG_MTC_PERIOD (0xfull << 14)

/* AUXTRACE_INFO's intel_pt fields, in perf's order (util/intel-pt.h).  */
enum bt_pt_info {
	btpi_pmu_type,
	btpi_time_shift,
	btpi_time_mult,
	btpi_time_zero,
	btpi_cap_user_time_zero,
	btpi_tsc_bit,
	btpi_noretcomp_bit,
	btpi_have_sched_switch,
	btpi_snapshot_mode,
	btpi_per_cpu_mmaps,
	btpi_mtc_bit,
	btpi_mtc_freq_bits,
	btpi_tsc_ctc_n,
	btpi_tsc_ctc_d,
	btpi_cyc_bit,
	btpi_max_nonturbo_ratio,
	btpi_filter_str_len,
	btpi_count,
};

/* Record types perf adds to the kernel's.  */
#define BT_PERF_RECORD_AUXTRACE_INFO 70
#define BT_PERF_RECORD_AUXTRACE 71
/* MMAP2 carries a build-id instead of device and inode (Linux 5.12).  */
#define BT_PERF_MISC_MMAP_BUILD_ID (1u << 14)
/* A build-id feature entry whose size field is valid.  */
#define BT_PERF_MISC_BUILD_ID_SIZE (1u << 15)

/* Thread I of BUNDLE into *T: 1 if there is one, else 0.  The one place
   that knows how a bundle holds its threads (version 1: exactly one).  */
static int bt_perf_thread(const struct bt_bundle *bundle, size_t i,
			  struct bt_perf_thread *t)
{
	if (i > 0)
		return 0;
	t->pid = bundle->pid;
	t->tid = bundle->tid;
	t->trace = bundle->trace;
	t->size = bundle->trace_size;
	return 1;
}

static int bt_perf_nomem(struct bt_diag *diag)
{
	return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
}

/* Append BUF as one record: its header's size is patched to its length,
   padded to 8 bytes.  */
static int bt_perf_put_record(struct bt_perf_data *pd, struct bt_perf_buf *buf,
			      struct bt_diag *diag)
{
	struct perf_event_header *h;

	bt_perf_buf_align(buf, 8);
	if (buf->failed)
		return bt_perf_nomem(diag);
	h = (struct perf_event_header *) buf->data;
	h->size = (uint16_t) buf->len;
	return bt_perf_data_record(pd, buf->data, buf->len, diag);
}

/* The sample_id trailer of a side-band record (attr.sample_id_all):
   perf orders events only with it, and Intel PT decoding needs that.
   Its fields follow the attribute's sample_type: TID, then IDENTIFIER.  */
static void bt_perf_put_sample_id(struct bt_perf_buf *buf,
				  const struct perf_event_attr *attr,
				  int32_t pid, int32_t tid, uint64_t id)
{
	bt_perf_buf_align(buf, 8);
	if (attr->sample_type & PERF_SAMPLE_TID) {
		bt_perf_buf_u32(buf, (uint32_t) pid);
		bt_perf_buf_u32(buf, (uint32_t) tid);
	}
	if (attr->sample_type & PERF_SAMPLE_IDENTIFIER)
		bt_perf_buf_u64(buf, id);
}

static void bt_perf_put_header(struct bt_perf_buf *buf, uint32_t type,
			       uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	buf->len = 0;
	bt_perf_buf_put(buf, &h, sizeof(h));
}

/* The process's name, as the kernel's comm: its program's file name (the
   first mapping is the lowest, which is the program for PIE and non-PIE
   executables alike), at most 15 characters.  */
static void bt_perf_comm(const struct bt_bundle *bundle, char comm[16])
{
	const char *name = "ptbtrace-thread";

	if (bundle->nmappings) {
		const char *path = bundle->mappings[0].path;
		const char *slash = strrchr(path, '/');

		name = slash ? slash + 1 : path;
	}
	snprintf(comm, 16, "%s", name);
}

static int bt_perf_put_comm(struct bt_perf_data *pd, struct bt_perf_buf *buf,
			    const struct perf_event_attr *attr, uint64_t id,
			    const struct bt_perf_thread *t, const char *comm,
			    struct bt_diag *diag)
{
	bt_perf_put_header(buf, PERF_RECORD_COMM, PERF_RECORD_MISC_USER);
	bt_perf_buf_u32(buf, (uint32_t) t->pid);
	bt_perf_buf_u32(buf, (uint32_t) t->tid);
	bt_perf_buf_put(buf, comm, strlen(comm) + 1);
	bt_perf_put_sample_id(buf, attr, t->pid, t->tid, id);
	return bt_perf_put_record(pd, buf, diag);
}

static int bt_perf_put_mmap2(struct bt_perf_data *pd, struct bt_perf_buf *buf,
			     const struct perf_event_attr *attr, uint64_t event,
			     int32_t pid, uint64_t address, uint64_t size,
			     uint64_t offset, uint32_t prot, const uint8_t *id,
			     size_t id_size, const char *name,
			     struct bt_diag *diag)
{
	uint16_t misc = PERF_RECORD_MISC_USER;
	uint8_t id20[20] = { 0 };

	if (id && id_size && id_size <= sizeof(id20))
		misc |= BT_PERF_MISC_MMAP_BUILD_ID;
	bt_perf_put_header(buf, PERF_RECORD_MMAP2, misc);
	bt_perf_buf_u32(buf, (uint32_t) pid);
	bt_perf_buf_u32(buf, (uint32_t) pid);
	bt_perf_buf_u64(buf, address);
	bt_perf_buf_u64(buf, size);
	bt_perf_buf_u64(buf, offset);
	if (misc & BT_PERF_MISC_MMAP_BUILD_ID) {
		uint8_t head[4] = { (uint8_t) id_size, 0, 0, 0 };

		memcpy(id20, id, id_size);
		bt_perf_buf_put(buf, head, sizeof(head));
		bt_perf_buf_put(buf, id20, sizeof(id20));
	} else
		bt_perf_buf_put(buf, NULL, 24);   /* maj, min, ino, ino_gen */
	bt_perf_buf_u32(buf, prot);
	bt_perf_buf_u32(buf, MAP_PRIVATE);
	bt_perf_buf_put(buf, name, strlen(name) + 1);
	bt_perf_put_sample_id(buf, attr, pid, pid, event);
	return bt_perf_put_record(pd, buf, diag);
}

/* Side-band: a COMM per thread, and an MMAP2 per executable mapping of
   each process (perf shares maps between a process's threads).  */
static int bt_perf_put_sideband(struct bt_perf_data *pd,
				const struct bt_bundle *bundle,
				const struct bt_perf_thread *threads,
				size_t nthreads,
				const struct perf_event_attr *attr,
				const uint64_t *ids, struct bt_diag *diag)
{
	struct bt_perf_buf buf;
	char comm[16];
	int errcode = 0;

	bt_perf_comm(bundle, comm);
	bt_perf_buf_init(&buf);
	for (size_t i = 0; !errcode && i < nthreads; i++) {
		const struct bt_perf_thread t = threads[i];
		int seen = 0;

		errcode = bt_perf_put_comm(pd, &buf, attr, ids[i], &t, comm,
					   diag);
		for (size_t k = 0; k < i; k++)
			seen |= threads[k].pid == t.pid;
		if (seen)
			continue;
		for (size_t m = 0; !errcode && m < bundle->nmappings; m++) {
			const struct bt_mapping *map = &bundle->mappings[m];

			if (!(map->prot & PROT_EXEC))
				continue;
			errcode = bt_perf_put_mmap2(pd, &buf, attr, ids[i],
						    t.pid,
						    map->address, map->size,
						    map->offset, map->prot,
						    map->build_id,
						    map->build_id_size,
						    map->path, diag);
		}
		/* Page copies have no file perf could read; named ones such
		   as [vdso] perf finds itself.  */
		for (size_t p = 0; !errcode && p < bundle->npages; p++) {
			const struct bt_pages *pages = &bundle->pages[p];

			if (!pages->name[0] || pages->name[0] != '[')
				continue;
			errcode = bt_perf_put_mmap2(pd, &buf, attr, ids[i],
						    t.pid,
						    pages->address, pages->size,
						    0, pages->prot, NULL, 0,
						    pages->name, diag);
		}
	}
	bt_perf_buf_fini(&buf);
	return errcode;
}

static int bt_perf_put_auxtrace_info(struct bt_perf_data *pd,
				     struct bt_diag *diag)
{
	uint64_t priv[btpi_count] = { 0 };
	struct bt_perf_buf buf;
	int errcode;

	priv[btpi_pmu_type] = BT_PERF_PT_TYPE;
	/* No timing packets: the tsc bit is known but off in the config,
	   which makes perf decode without timestamps.  */
	priv[btpi_tsc_bit] = BT_PT_CFG_TSC;
	priv[btpi_noretcomp_bit] = BT_PT_CFG_NORETCOMP;
	priv[btpi_mtc_bit] = BT_PT_CFG_MTC;
	priv[btpi_mtc_freq_bits] = BT_PT_CFG_MTC_PERIOD;
	priv[btpi_cyc_bit] = BT_PT_CFG_CYC;

	bt_perf_buf_init(&buf);
	bt_perf_put_header(&buf, BT_PERF_RECORD_AUXTRACE_INFO, 0);
	bt_perf_buf_u32(&buf, BT_PERF_AUXTRACE_INTEL_PT);
	bt_perf_buf_u32(&buf, 0);
	bt_perf_buf_put(&buf, priv, sizeof(priv));
	errcode = bt_perf_put_record(pd, &buf, diag);
	bt_perf_buf_fini(&buf);
	return errcode;
}

/* Each thread's raw trace in one AUXTRACE record, in its own queue (the
   record's idx), as a per-thread recording has one buffer per thread.  */
static int bt_perf_put_auxtrace(struct bt_perf_data *pd,
				const struct bt_perf_thread *threads,
				size_t nthreads, struct bt_diag *diag)
{
	int errcode = 0;

	for (size_t i = 0; !errcode && i < nthreads; i++) {
		const struct bt_perf_thread t = threads[i];
		struct {
			struct perf_event_header header;
			uint64_t size, offset, reference;
			uint32_t idx, tid, cpu, reserved;
		} aux;

		memset(&aux, 0, sizeof(aux));
		aux.header.type = BT_PERF_RECORD_AUXTRACE;
		aux.header.size = sizeof(aux);
		aux.size = (t.size + 7) / 8 * 8;
		aux.idx = (uint32_t) i;
		aux.tid = (uint32_t) t.tid;
		aux.cpu = UINT32_MAX;
		errcode = bt_perf_data_record(pd, &aux, sizeof(aux), diag);
		if (!errcode)
			errcode = bt_perf_data_payload(pd, t.trace, t.size,
						       diag);
	}
	return errcode;
}

/* BTS: a sample per branch, from the last instruction of a block to the
   first of the next (blocks are newest first in the bundle).  */
static int bt_perf_put_branches(struct bt_perf_data *pd,
				const struct bt_perf_thread *threads,
				size_t nthreads, struct bt_diag *diag)
{
	int errcode = 0;

	for (size_t i = 0; !errcode && i < nthreads; i++) {
		const struct bt_perf_thread t = threads[i];
		const struct bt_bts_block *b =
			(const struct bt_bts_block *) t.trace;
		size_t n = t.size / sizeof(*b);

		for (size_t k = n; !errcode && k-- > 1;) {
			struct {
				struct perf_event_header header;
				uint64_t ip;
				uint32_t pid, tid;
				uint64_t addr;
			} s = {
				.header = { PERF_RECORD_SAMPLE,
					    PERF_RECORD_MISC_USER,
					    sizeof(s) },
				.ip = b[k].end,
				.pid = (uint32_t) t.pid,
				.tid = (uint32_t) t.tid,
				.addr = b[k - 1].begin,
			};

			errcode = bt_perf_data_record(pd, &s, sizeof(s), diag);
		}
	}
	return errcode;
}

/* The build-id feature: an entry per mapped file that has a build-id, so
   perf checks it finds the same files (or takes them from its cache).  */
static void bt_perf_build_ids(struct bt_perf_buf *buf,
			      const struct bt_bundle *bundle)
{
	for (size_t m = 0; m < bundle->nmappings; m++) {
		const struct bt_mapping *map = &bundle->mappings[m];
		uint8_t id[24] = { 0 };
		size_t start = buf->len, len;
		int dup = 0;

		if (!(map->prot & PROT_EXEC) || !map->build_id ||
		    !map->build_id_size || map->build_id_size > 20)
			continue;
		for (size_t k = 0; k < m; k++)
			dup |= (bundle->mappings[k].prot & PROT_EXEC) &&
			       strcmp(bundle->mappings[k].path, map->path) == 0;
		if (dup)
			continue;
		memcpy(id, map->build_id, map->build_id_size);
		id[20] = (uint8_t) map->build_id_size;
		bt_perf_buf_put(buf, NULL, sizeof(struct perf_event_header));
		bt_perf_buf_u32(buf, UINT32_MAX);   /* the host machine */
		bt_perf_buf_put(buf, id, sizeof(id));
		bt_perf_buf_put(buf, map->path, strlen(map->path) + 1);
		/* perf pads file names to 64 bytes.  */
		len = buf->len - start;
		bt_perf_buf_put(buf, NULL, (len + 63) / 64 * 64 - len);
		if (buf->failed)
			return;
		{
			struct perf_event_header h = {
				.type = 0,
				.misc = PERF_RECORD_MISC_USER |
					BT_PERF_MISC_BUILD_ID_SIZE,
				.size = (uint16_t) (buf->len - start),
			};

			memcpy(buf->data + start, &h, sizeof(h));
		}
	}
}

/* The event's name and ids (EVENT_DESC), for perf's listings.  */
static void bt_perf_event_desc(struct bt_perf_buf *buf,
			       const struct perf_event_attr *attr,
			       const char *name, const uint64_t *ids,
			       size_t nids)
{
	bt_perf_buf_u32(buf, 1);
	bt_perf_buf_u32(buf, attr->size);
	bt_perf_buf_put(buf, attr, attr->size);
	bt_perf_buf_u32(buf, (uint32_t) nids);
	bt_perf_buf_string(buf, name);
	bt_perf_buf_put(buf, ids, nids * sizeof(*ids));
}

static int bt_perf_put_features(struct bt_perf_data *pd,
				const struct bt_bundle *bundle,
				const struct perf_event_attr *attr,
				const char *name, const uint64_t *ids,
				size_t nids, struct bt_diag *diag)
{
	struct bt_perf_buf buf;
	int errcode;

	bt_perf_buf_init(&buf);
	bt_perf_build_ids(&buf, bundle);
	errcode = buf.failed ? bt_perf_nomem(diag)
		: bt_perf_data_feature(pd, btpf_build_id, buf.data, buf.len,
				       diag);

	/* The traces are x86-64 user code, whatever machine exports them.  */
	buf.len = 0;
	bt_perf_buf_string(&buf, "x86_64");
	if (!errcode)
		errcode = buf.failed ? bt_perf_nomem(diag)
			: bt_perf_data_feature(pd, btpf_arch, buf.data,
					       buf.len, diag);

	if (!errcode && bundle->cpu.vendor == btv_intel) {
		char cpuid[64];

		snprintf(cpuid, sizeof(cpuid), "GenuineIntel,%u,%u,%u",
			 bundle->cpu.family, bundle->cpu.model,
			 bundle->cpu.stepping);
		buf.len = 0;
		bt_perf_buf_string(&buf, cpuid);
		errcode = buf.failed ? bt_perf_nomem(diag)
			: bt_perf_data_feature(pd, btpf_cpuid, buf.data,
					       buf.len, diag);
	}

	buf.len = 0;
	bt_perf_event_desc(&buf, attr, name, ids, nids);
	if (!errcode)
		errcode = buf.failed ? bt_perf_nomem(diag)
			: bt_perf_data_feature(pd, btpf_event_desc, buf.data,
					       buf.len, diag);

	if (!errcode && attr->type == BT_PERF_PT_TYPE) {
		buf.len = 0;
		bt_perf_buf_u32(&buf, 1);
		bt_perf_buf_u32(&buf, BT_PERF_PT_TYPE);
		bt_perf_buf_string(&buf, "intel_pt");
		errcode = buf.failed ? bt_perf_nomem(diag)
			: bt_perf_data_feature(pd, btpf_pmu_mappings,
					       buf.data, buf.len, diag);
	}
	bt_perf_buf_fini(&buf);
	return errcode;
}

/* The attribute perf record would have written.  */
static void bt_perf_attr(const struct bt_bundle *bundle,
			 struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sample_period = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->sample_id_all = 1;
	if (bundle->format == btf_pt) {
		attr->type = BT_PERF_PT_TYPE;
		attr->config = BT_PT_CFG_PT | BT_PT_CFG_BRANCH;
		/* perf tells its synthesized events apart by identifier.  */
		attr->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
				    PERF_SAMPLE_TID;
	} else {
		attr->type = PERF_TYPE_HARDWARE;
		attr->config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
		attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				    PERF_SAMPLE_ADDR;
	}
}

int bt_export_perf_threads(const char *path, const struct bt_bundle *bundle,
			   const struct bt_perf_thread *threads,
			   size_t nthreads, struct bt_diag *diag)
{
	struct perf_event_attr attr;
	struct bt_perf_data pd;
	uint64_t *ids;
	int errcode;

	if (!path || !bundle || !threads || !nthreads)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	if (bundle->format != btf_pt && bundle->format != btf_bts)
		return bt_diag_set(diag, bte_no_trace, 0, 0,
				   "the bundle holds no trace");
	ids = calloc(nthreads, sizeof(*ids));
	if (!ids)
		return bt_perf_nomem(diag);
	/* An id per thread, as a per-thread recording has an event each.  */
	for (size_t i = 0; i < nthreads; i++)
		ids[i] = i + 1;
	bt_perf_attr(bundle, &attr);

	errcode = bt_perf_data_open(&pd, path, &attr, ids, nthreads, diag);
	if (errcode) {
		free(ids);
		return errcode;
	}
	if (bundle->format == btf_pt)
		errcode = bt_perf_put_auxtrace_info(&pd, diag);
	if (!errcode)
		errcode = bt_perf_put_sideband(&pd, bundle, threads, nthreads,
					       &attr, ids, diag);
	if (!errcode)
		errcode = bundle->format == btf_pt
			? bt_perf_put_auxtrace(&pd, threads, nthreads, diag)
			: bt_perf_put_branches(&pd, threads, nthreads, diag);
	if (!errcode)
		errcode = bt_perf_put_features(&pd, bundle, &attr,
					       bundle->format == btf_pt
					       ? "intel_pt//u" : "branches:u",
					       ids, nthreads, diag);
	if (!errcode)
		errcode = bt_perf_data_commit(&pd, diag);
	bt_perf_data_fini(&pd);
	free(ids);
	return errcode;
}

int bt_export_perf(const char *path, const struct bt_bundle *bundle,
		   struct bt_diag *diag)
{
	struct bt_perf_thread *threads, t;
	size_t n = 0;
	int errcode;

	if (!path || !bundle)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	while (bt_perf_thread(bundle, n, &t))
		n++;
	threads = calloc(n ? n : 1, sizeof(*threads));
	if (!threads)
		return bt_perf_nomem(diag);
	for (size_t i = 0; i < n; i++)
		bt_perf_thread(bundle, i, &threads[i]);
	errcode = bt_export_perf_threads(path, bundle, threads, n, diag);
	free(threads);
	return errcode;
}
