/* A stopped process as a trace bundle (snapshot.h).  */
#include "rec/snapshot.h"
#include "btrace/bt_bundle_file.h"
#include "nat/amd64_regs.h"
#include "nat/amd64_regs_image.h"
#include "nat/auxv.h"
#include "nat/btrace.h"
#include "nat/procinfo.h"
#include "nat/target.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A bundle's protections are PROT_READ | PROT_WRITE | PROT_EXEC alone,
   as perf's mmap records and GDB's core mappings have them.  */
#define SNAP_PROT (PROT_READ | PROT_WRITE | PROT_EXEC)

int snapshot_thread_trace(struct nat_thread *t, struct bt_thread *bt,
			  struct ps_buf *raw, struct bt_bts_block **bts,
			  uint64_t *start)
{
	struct nat_btrace_status st;
	struct trace_blocks blocks;
	uint64_t held;
	int err;

	bt->tid = t->tid;
	trace_blocks_init(&blocks);
	if (t->btrace->format == trace_format_pt)
		err = nat_btrace_read_pt(t, nat_btrace_read_copy, raw);
	else
		err = nat_btrace_read_bts(t, nat_btrace_read_copy, &blocks);
	/* The status after the read: reading flushes batched bits.  */
	memset(&st, 0, sizeof(st));
	if (nat_btrace_status(t, &st) == 0 && st.recorded > st.held)
		bt->lost = st.recorded - st.held;
	if (t->btrace->format == trace_format_pt) {
		bt->trace = (const uint8_t *) raw->data;
		bt->trace_size = raw->len;
		held = raw->len;
	} else {
		/* Bundles keep BTS blocks newest first, as GDB's XML has
		   them.  */
		*bts = calloc(blocks.len + 1, sizeof(**bts));
		if (!err && !*bts)
			err = -pse_nomem;
		for (size_t i = 0; !err && i < blocks.len; i++) {
			(*bts)[i].begin = blocks.block[blocks.len - 1 - i].begin;
			(*bts)[i].end = blocks.block[blocks.len - 1 - i].end;
		}
		bt->trace = (const uint8_t *) *bts;
		bt->trace_size = err ? 0 : blocks.len * sizeof(**bts);
		held = blocks.len;
	}
	/* The ring's newest bytes or blocks, maybe from a PSB on.  */
	*start = st.recorded > held ? st.recorded - held : 0;
	trace_blocks_fini(&blocks);
	return err;
}

void snapshot_fini(struct snapshot *snap)
{
	struct bt_bundle *b = &snap->bundle;

	for (size_t i = 0; i < snap->nlive; i++) {
		ps_buf_fini(&snap->raw[i]);
		free(snap->bts[i]);
	}
	for (size_t i = 0; i < b->npages; i++)
		free((void *) snap->pages[i].bytes);
	for (size_t i = 0; i < b->ncore_pages; i++)
		free((void *) snap->memory[i].bytes);
	for (size_t i = 0; i < b->ncore_threads; i++)
		free(snap->regs[i]);
	free(snap->threads);
	free(snap->start);
	free(snap->raw);
	free(snap->bts);
	free(snap->mappings);
	free(snap->pages);
	free(snap->memory);
	free(snap->core);
	free(snap->regs);
	free(snap->auxv);
	free(snap->exe);
	nat_maps_fini(&snap->maps);
	memset(snap, 0, sizeof(*snap));
}

static size_t snap_count_threads(const struct nat_process *proc)
{
	size_t n = 0;

	for (const struct nat_thread *t = proc->threads; t; t = t->next)
		n++;
	return n;
}

/* Each traced thread's trace and pc (or OPTS->only's alone).  */
static int snap_threads(struct snapshot *snap, struct nat_process *proc,
			const struct snapshot_options *opts)
{
	size_t n = snap_count_threads(proc) + opts->spare_threads + 1;

	snap->threads = calloc(n, sizeof(*snap->threads));
	snap->start = calloc(n, sizeof(*snap->start));
	snap->raw = calloc(n, sizeof(*snap->raw));
	snap->bts = calloc(n, sizeof(*snap->bts));
	if (!snap->threads || !snap->start || !snap->raw || !snap->bts)
		return -pse_nomem;
	for (struct nat_thread *t = proc->threads; t; t = t->next) {
		struct bt_thread *bt = &snap->threads[snap->nlive];
		struct amd64_regs *regs;
		int err;

		if (!t->btrace || (opts->only && t != opts->only))
			continue;
		ps_buf_init(&snap->raw[snap->nlive]);
		snap->nlive++;
		err = snapshot_thread_trace(t, bt, &snap->raw[snap->nlive - 1],
					    &snap->bts[snap->nlive - 1],
					    &snap->start[snap->nlive - 1]);
		if (err < 0)
			return err;
		if (nat_thread_regs(t, &regs) == 0) {
			bt->pc = amd64_regs_pc(regs);
			bt->has_pc = 1;
		}
	}
	snap->bundle.threads = snap->threads;
	snap->bundle.nthreads = snap->nlive;
	return 0;
}

static int snap_copy_memory(struct nat_process *proc, const struct nat_map *m,
			    struct bt_pages *pg)
{
	size_t size = m->end - m->start;
	uint8_t *bytes = malloc(size);

	if (!bytes)
		return -pse_nomem;
	if (nat_read_memory(proc, m->start, bytes, size) != (long) size) {
		free(bytes);
		return -pse_fault;
	}
	pg->address = m->start;
	pg->size = size;
	pg->prot = m->prot & SNAP_PROT;
	pg->name = m->path[0] == '/' ? "" : m->path;
	pg->bytes = bytes;
	return 0;
}

/* The starts of PID's mappings that hold changed private pages (smaps'
   "Anonymous:"): a file mapping the program wrote to (relocations, a
   RELRO segment since made read-only) differs from its file.  */
static size_t snap_dirty_maps(pid_t pid, uint64_t *starts, size_t max)
{
	char path[64], line[512];
	unsigned long long start = 0, a, b, kb;
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", (int) pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		/* "Anonymous:" would scan as a hex number too: keep apart.  */
		if (sscanf(line, "%llx-%llx ", &a, &b) == 2) {
			start = a;
			continue;
		}
		if (sscanf(line, "Anonymous: %llu kB", &kb) == 1 && kb)
			starts[n++] = start;
	}
	fclose(f);
	return n;
}

static int snap_is_dirty(const uint64_t *starts, size_t n, uint64_t start)
{
	for (size_t i = 0; i < n; i++)
		if (starts[i] == start)
			return 1;
	return 0;
}

/* Files by reference; executable anonymous memory (the vDSO, JIT code)
   by copy, since no file holds it; for a core also the writable,
   anonymous and changed memory.  [vsyscall] is the kernel's and [vvar]
   its data (neither is dumped in a core, and [vvar] may not be
   readable): both are left out.  */
static int snap_memory(struct snapshot *snap, struct nat_process *proc,
		       const struct snapshot_options *opts)
{
	struct bt_bundle *b = &snap->bundle;
	size_t n, ndirty = 0;
	uint64_t *dirty;
	int err;

	err = nat_maps_read(&snap->maps, proc->pid);
	if (err < 0)
		return err;
	n = snap->maps.count + 1;
	dirty = calloc(n, sizeof(*dirty));
	if (!dirty)
		return -pse_nomem;
	if (opts->core)
		ndirty = snap_dirty_maps(proc->pid, dirty, n);
	snap->mappings = calloc(n + opts->spare_mappings,
				sizeof(*snap->mappings));
	snap->pages = calloc(n, sizeof(*snap->pages));
	snap->memory = calloc(n, sizeof(*snap->memory));
	if (!snap->mappings || !snap->pages || !snap->memory) {
		free(dirty);
		return -pse_nomem;
	}
	b->mappings = snap->mappings;
	b->pages = snap->pages;
	b->core_pages = snap->memory;
	for (size_t i = 0; i < snap->maps.count; i++) {
		const struct nat_map *m = &snap->maps.map[i];
		int file = m->path[0] == '/';

		if (!strcmp(m->path, "[vsyscall]") || !strcmp(m->path, "[vvar]"))
			continue;
		if (file) {
			struct bt_mapping *bm = &snap->mappings[b->nmappings++];

			bm->address = m->start;
			bm->size = m->end - m->start;
			bm->offset = m->offset;
			bm->prot = m->prot & SNAP_PROT;
			bm->path = m->path;
			bm->build_id = m->build_id_size ? m->build_id : NULL;
			bm->build_id_size = m->build_id_size;
		} else if (m->prot & PROT_EXEC) {
			if (snap_copy_memory(proc, m,
					     &snap->pages[b->npages]) == 0)
				b->npages++;
			continue;
		}
		if (opts->core && (m->prot & PROT_READ) &&
		    ((m->prot & PROT_WRITE) || !file ||
		     snap_is_dirty(dirty, ndirty, m->start)) &&
		    snap_copy_memory(proc, m,
				     &snap->memory[b->ncore_pages]) == 0)
			b->ncore_pages++;
	}
	free(dirty);
	return 0;
}

/* Every thread's registers, as the stub's own image (a crash bundle is
   served back by ptstub --postmortem), and the auxiliary vector.  */
static int snap_core(struct snapshot *snap, struct nat_process *proc,
		     const struct snapshot_options *opts)
{
	struct bt_bundle *b = &snap->bundle;
	size_t n = snap_count_threads(proc) + 1;
	struct ps_buf auxv;

	snap->core = calloc(n, sizeof(*snap->core));
	snap->regs = calloc(n, sizeof(*snap->regs));
	if (!snap->core || !snap->regs)
		return -pse_nomem;
	b->core_threads = snap->core;
	for (struct nat_thread *t = proc->threads; t; t = t->next) {
		struct amd64_regs *regs;
		size_t size;

		if (nat_thread_regs(t, &regs) < 0)
			continue;
		size = amd64_regs_image_size(regs);
		snap->regs[b->ncore_threads] = malloc(size);
		if (!snap->regs[b->ncore_threads])
			return -pse_nomem;
		amd64_regs_image_write(regs, snap->regs[b->ncore_threads],
				       size);
		snap->core[b->ncore_threads] = (struct bt_core_thread) {
			t->tid, t->tid == opts->signal_tid ? opts->signal : 0,
			snap->regs[b->ncore_threads], size };
		b->ncore_threads++;
	}

	/* A core without its auxv is still a core.  */
	ps_buf_init(&auxv);
	if (auxv_read(proc->pid, &auxv) == 0 && auxv.len) {
		snap->auxv = (uint8_t *) auxv.data;
		b->auxv = snap->auxv;
		b->auxv_size = auxv.len;
	} else
		ps_buf_fini(&auxv);
	return 0;
}

/* The format, CPU and buffer size of the first traced thread.  */
static void snap_format(struct snapshot *snap, struct nat_process *proc,
			const struct snapshot_options *opts)
{
	struct bt_bundle *b = &snap->bundle;
	struct nat_thread *first = opts->only;
	struct trace_cpu cpu;
	int format = opts->format;

	for (struct nat_thread *t = proc->threads; !first && t; t = t->next)
		if (t->btrace)
			first = t;
	if (first && format == trace_format_none)
		format = first->btrace->format;
	b->format = format == trace_format_pt ? btf_pt
		: format == trace_format_bts ? btf_bts : btf_none;
	if (first)
		b->buffer_size = (uint32_t) first->btrace->size;
	nat_btrace_cpu(first ? first : proc->threads, &cpu);
	if (!strcmp(cpu.vendor, "GenuineIntel"))
		b->cpu = (struct bt_cpu) { btv_intel, (uint16_t) cpu.family,
			(uint8_t) cpu.model, (uint8_t) cpu.stepping };
}

int snapshot_take(struct snapshot *snap, const struct nat_target *target,
		  struct nat_process *proc,
		  const struct snapshot_options *opts)
{
	struct bt_bundle *b = &snap->bundle;
	struct nat_tsc_conv conv;
	struct ps_buf exe;
	int err;

	memset(snap, 0, sizeof(*snap));
	nat_maps_init(&snap->maps);
	b->pid = proc->pid;
	snap_format(snap, proc, opts);
	err = snap_threads(snap, proc, opts);
	if (!err)
		err = snap_memory(snap, proc, opts);
	if (!err && opts->core)
		err = snap_core(snap, proc, opts);
	if (err < 0)
		return err;
	if (snap->nlive) {
		b->tid = snap->threads[0].tid;
		b->has_pc = snap->threads[0].has_pc;
		b->pc = snap->threads[0].pc;
		b->trace = snap->threads[0].trace;
		b->trace_size = snap->threads[0].trace_size;
	}

	ps_buf_init(&exe);
	if (procinfo_exe_path(proc->pid, &exe) == 0 && exe.len)
		snap->exe = exe.data;
	else
		ps_buf_fini(&exe);
	b->exe = snap->exe;

	/* The TSC's conversion (none for a session shorter than a
	   millisecond: too short to measure).  */
	if (b->format == btf_pt && nat_target_tsc_conv(target, &conv) == 0)
		b->time = (struct bt_time) { conv.zero, conv.mult,
			conv.shift };
	return 0;
}

int snapshot_write(const struct bt_bundle *bundle, const char *path,
		   size_t *size, int *sys)
{
	uint8_t *data;
	int err;

	*sys = 0;
	*size = 0;
	err = bt_bundle_encode(bundle, &data, size);
	if (err < 0)
		return err == -bte_nomem ? -pse_nomem : -pse_internal;
	err = bt_bundle_file_put(path, data, *size);
	if (err < 0)
		*sys = errno;
	free(data);
	return err < 0 ? -pse_io : 0;
}
