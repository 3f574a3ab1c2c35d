/* A snapshot: every traced thread's ring, the memory map, the side-band
   and, for a crash, the core (registers of every thread, the writable
   and anonymous memory), encoded as a version 2 bundle and written to
   its own file.  */
#include "rec/recorder.h"
#include "btrace/ptbundle.h"
#include "btrace/bt_bundle_file.h"
#include "nat/amd64_regs.h"
#include "nat/amd64_regs_image.h"
#include "nat/btrace.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/gdb_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What a snapshot allocates, released together.  */
struct rec_parts {
	struct nat_maps maps;
	struct bt_thread *threads;
	uint64_t *start;          /* each trace's oldest unit, in its ring */
	struct bt_sideband *sideband;
	struct ps_buf *raw;
	struct bt_bts_block **bts;
	size_t nthreads;
	size_t nlive;             /* the first NLIVE are live: RAW, BTS */
	struct bt_mapping *mappings;
	size_t nmappings;
	struct bt_pages *pages, *memory;
	size_t npages, nmemory;
	struct bt_core_thread *core;
	uint8_t **regs;
	size_t ncore;
	uint8_t *auxv;
	char exe[4096];
};

static void rec_parts_fini(struct rec_parts *p)
{
	for (size_t i = 0; i < p->nlive; i++) {
		ps_buf_fini(&p->raw[i]);
		free(p->bts[i]);
	}
	for (size_t i = 0; i < p->npages; i++)
		free((void *) p->pages[i].bytes);
	for (size_t i = 0; i < p->nmemory; i++)
		free((void *) p->memory[i].bytes);
	for (size_t i = 0; i < p->ncore; i++)
		free(p->regs[i]);
	free(p->threads);
	free(p->start);
	free(p->sideband);
	free(p->raw);
	free(p->bts);
	free(p->mappings);
	free(p->pages);
	free(p->memory);
	free(p->core);
	free(p->regs);
	free(p->auxv);
	nat_maps_fini(&p->maps);
}

static size_t rec_count_threads(const struct nat_process *proc)
{
	size_t n = 0;

	for (const struct nat_thread *t = proc->threads; t; t = t->next)
		n++;
	return n;
}

/* One thread's trace as a bundle keeps it: PT bytes, or BTS blocks
   newest first.  */
int rec_thread_trace(struct nat_thread *t, struct bt_thread *bt,
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

/* The live threads' rings, then the ended threads' traces the recorder
   kept (theirs to free).  */
static int rec_threads(const struct recorder *rec, struct nat_process *proc,
		       struct rec_parts *p)
{
	size_t n = rec_count_threads(proc) + rec_ended_count(rec, proc->pid);

	p->threads = calloc(n + 1, sizeof(*p->threads));
	p->start = calloc(n + 1, sizeof(*p->start));
	p->raw = calloc(n + 1, sizeof(*p->raw));
	p->bts = calloc(n + 1, sizeof(*p->bts));
	if (!p->threads || !p->start || !p->raw || !p->bts)
		return -pse_nomem;
	for (struct nat_thread *t = proc->threads; t; t = t->next) {
		struct bt_thread *bt = &p->threads[p->nthreads];
		struct amd64_regs *regs;
		int err;

		if (!t->btrace)
			continue;
		ps_buf_init(&p->raw[p->nthreads]);
		p->nlive = ++p->nthreads;
		err = rec_thread_trace(t, bt, &p->raw[p->nthreads - 1],
				       &p->bts[p->nthreads - 1],
				       &p->start[p->nthreads - 1]);
		if (err < 0)
			return err;
		if (nat_thread_regs(t, &regs) == 0) {
			bt->pc = amd64_regs_pc(regs);
			bt->has_pc = 1;
		}
	}
	p->nthreads += rec_ended_fill(rec, proc->pid,
				      &p->threads[p->nthreads]);
	return p->nthreads ? 0 : -pse_notfound;
}

static int rec_copy_memory(struct nat_process *proc, const struct nat_map *m,
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
	pg->prot = m->prot & 7;
	pg->name = m->path[0] == '/' ? "" : m->path;
	pg->bytes = bytes;
	return 0;
}

/* The starts of PID's mappings that hold changed private pages (smaps'
   "Anonymous:"): a file mapping the program wrote to (relocations, a
   RELRO segment since made read-only) differs from its file.  */
static size_t rec_dirty_maps(pid_t pid, uint64_t *starts, size_t max)
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

static int rec_is_dirty(const uint64_t *starts, size_t n, uint64_t start)
{
	for (size_t i = 0; i < n; i++)
		if (starts[i] == start)
			return 1;
	return 0;
}

/* Files by reference; executable anonymous memory (the vDSO) by copy;
   for a core also the writable, anonymous and changed memory.  */
static int rec_memory(struct nat_process *proc, struct rec_parts *p,
		      int core, size_t rec_nsideband)
{
	size_t n, ndirty = 0;
	uint64_t *dirty;
	int err;

	err = nat_maps_read(&p->maps, proc->pid);
	if (err < 0)
		return err;
	n = p->maps.count + 1;
	dirty = calloc(n, sizeof(*dirty));
	if (!dirty)
		return -pse_nomem;
	if (core)
		ndirty = rec_dirty_maps(proc->pid, dirty, n);
	p->mappings = calloc(n + rec_nsideband, sizeof(*p->mappings));
	p->pages = calloc(n, sizeof(*p->pages));
	p->memory = calloc(n, sizeof(*p->memory));
	if (!p->mappings || !p->pages || !p->memory) {
		free(dirty);
		return -pse_nomem;
	}
	for (size_t i = 0; i < p->maps.count; i++) {
		const struct nat_map *m = &p->maps.map[i];
		int file = m->path[0] == '/';

		if (!strcmp(m->path, "[vsyscall]") || !strcmp(m->path, "[vvar]"))
			continue;
		if (file) {
			struct bt_mapping *bm = &p->mappings[p->nmappings++];

			bm->address = m->start;
			bm->size = m->end - m->start;
			bm->offset = m->offset;
			bm->prot = m->prot & 7;
			bm->path = m->path;
			bm->build_id = m->build_id_size ? m->build_id : NULL;
			bm->build_id_size = m->build_id_size;
		} else if (m->prot & PROT_EXEC) {
			if (rec_copy_memory(proc, m, &p->pages[p->npages]) == 0)
				p->npages++;
			continue;
		}
		if (core && (m->prot & PROT_READ) &&
		    ((m->prot & PROT_WRITE) || !file ||
		     rec_is_dirty(dirty, ndirty, m->start)) &&
		    rec_copy_memory(proc, m, &p->memory[p->nmemory]) == 0)
			p->nmemory++;
	}
	free(dirty);
	return 0;
}

static int rec_core(struct nat_process *proc, const struct rec_trigger *tr,
		    struct rec_parts *p)
{
	size_t n = rec_count_threads(proc);

	p->core = calloc(n + 1, sizeof(*p->core));
	p->regs = calloc(n + 1, sizeof(*p->regs));
	if (!p->core || !p->regs)
		return -pse_nomem;
	for (struct nat_thread *t = proc->threads; t; t = t->next) {
		struct amd64_regs *regs;
		size_t size;

		if (nat_thread_regs(t, &regs) < 0)
			continue;
		size = amd64_regs_image_size(regs);
		p->regs[p->ncore] = malloc(size);
		if (!p->regs[p->ncore])
			return -pse_nomem;
		amd64_regs_image_write(regs, p->regs[p->ncore], size);
		p->core[p->ncore] = (struct bt_core_thread) {
			t->tid, t->tid == tr->tid ? tr->sig : 0,
			p->regs[p->ncore], size };
		p->ncore++;
	}

	return 0;
}

/* The auxiliary vector, for the core; its size, or 0 if unreadable.  */
static size_t rec_auxv(pid_t pid, struct rec_parts *p)
{
	char path[64];
	ssize_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int) pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	p->auxv = malloc(8192);
	if (fd >= 0 && p->auxv)
		got = read(fd, p->auxv, 8192);
	if (fd >= 0)
		close(fd);
	return got > 0 ? (size_t) got : 0;
}

static void rec_print(struct recorder *rec, const struct bt_bundle *b,
		      const struct rec_trigger *tr, size_t size,
		      const char *file)
{
	FILE *log = rec->opts.log;
	char why[128];

	switch (tr->kind) {
	case btt_signal:
		snprintf(why, sizeof(why), "signal %s in thread %d",
			 gdb_signal_name(gdb_signal_from_host(tr->sig)),
			 (int) tr->tid);
		break;
	case btt_function:
		snprintf(why, sizeof(why), "function %s in thread %d",
			 tr->name, (int) tr->tid);
		break;
	default:
		/* A fork child's (--inherit) says whose it is.  */
		if (b->pid != rec->pid)
			snprintf(why, sizeof(why), "%s of process %d",
				 bt_trigger_name(tr->kind), (int) b->pid);
		else
			snprintf(why, sizeof(why), "%s",
				 bt_trigger_name(tr->kind));
	}
	fprintf(log, "ptstub: snapshot %u: %s, %zu thread%s, %zu bytes, %s\n",
		b->trigger.sequence, why, b->nthreads,
		b->nthreads == 1 ? "" : "s", size, file);
	fflush(log);
}

/* What turns the PT's TSC packets into time, measured since the
   recorder started (none for a run shorter than a millisecond).  */
static void rec_time(struct recorder *rec, struct bt_bundle *b)
{
	struct nat_tsc_conv conv;

	if (b->format == btf_pt &&
	    nat_target_tsc_conv(rec->target, &conv) == 0)
		b->time = (struct bt_time) { conv.zero, conv.mult,
			conv.shift };
}

int rec_snapshot(struct recorder *rec, struct nat_process *proc,
		 const struct rec_trigger *tr, int with_core)
{
	struct rec_space *sp = rec_space_of(rec, proc->pid);
	struct rec_parts p;
	struct bt_bundle b;
	struct trace_cpu cpu;
	uint8_t *data = NULL;
	size_t size = 0;
	char *file;
	size_t auxv = 0;
	ssize_t n;
	int err;

	memset(&p, 0, sizeof(p));
	memset(&b, 0, sizeof(b));
	nat_maps_init(&p.maps);
	err = rec_threads(rec, proc, &p);
	if (!err)
		err = rec_memory(proc, &p, with_core,
				 sp ? sp->nsideband : 0);
	if (!err && with_core) {
		err = rec_core(proc, tr, &p);
		auxv = rec_auxv(proc->pid, &p);
	}
	if (err < 0) {
		fprintf(rec->opts.log, "ptstub: cannot take snapshot %u: %s\n",
			rec->snapshots, ps_errstr(err));
		rec_parts_fini(&p);
		rec->failed++;
		return err;
	}

	b.format = rec->opts.format == trace_format_pt ? btf_pt : btf_bts;
	nat_btrace_cpu(proc->threads, &cpu);
	if (!strcmp(cpu.vendor, "GenuineIntel"))
		b.cpu = (struct bt_cpu) { btv_intel, (uint16_t) cpu.family,
			(uint8_t) cpu.model, (uint8_t) cpu.stepping };
	b.buffer_size = (uint32_t) rec->opts.size;
	for (struct nat_thread *t = proc->threads; t; t = t->next)
		if (t->btrace) {
			b.buffer_size = (uint32_t) t->btrace->size;
			break;
		}
	b.pid = proc->pid;
	b.threads = p.threads;
	b.nthreads = p.nthreads;
	b.tid = p.threads[0].tid;
	b.trigger = (struct bt_trigger) { tr->kind, tr->tid, tr->sig,
		rec->snapshots, tr->address, tr->name ? tr->name : "" };
	snprintf(p.exe, sizeof(p.exe), "/proc/%d/exe", (int) proc->pid);
	{
		char target[4096];

		n = readlink(p.exe, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = 0;
		memcpy(p.exe, target, sizeof(target));
	}
	b.exe = p.exe[0] ? p.exe : NULL;
	b.mappings = p.mappings;
	b.nmappings = sp ? rec_sideband_gone(sp, p.mappings, p.nmappings)
		: p.nmappings;
	b.pages = p.pages;
	b.npages = p.npages;
	b.core_threads = p.core;
	b.ncore_threads = p.ncore;
	b.core_pages = p.memory;
	b.ncore_pages = p.nmemory;
	b.auxv = auxv ? p.auxv : NULL;
	b.auxv_size = auxv;
	/* Ended threads: what was kept, within which budget, what was
	   dropped (--full keeps every thread's whole stream instead).  */
	if (!rec->opts.full && sp) {
		b.ended.budget = rec->opts.ended_size;
		b.ended.dropped = sp->ended_dropped;
		b.ended.dropped_bytes = sp->ended_dropped_bytes;
	}
	rec_full_fill(rec, &b);
	rec_time(rec, &b);
	/* An exec is placed in the trace of the thread that made it (the
	   process's only one then, with its id).  */
	if (sp && sp->nsideband) {
		uint64_t start = 0;

		for (size_t i = 0; i < p.nthreads; i++)
			if (p.threads[i].tid == proc->pid)
				start = p.start[i];
		p.sideband = rec_sideband_for(sp, proc->pid, start,
					      b.threads != p.threads);
		b.sideband = p.sideband;
		b.nsideband = p.sideband ? sp->nsideband : 0;
	}

	file = rec_output_name(rec->opts.output, rec->snapshots);
	err = bt_bundle_encode(&b, &data, &size);
	if (err < 0 || !file) {
		fprintf(rec->opts.log, "ptstub: cannot encode snapshot %u: "
			"%s\n", rec->snapshots,
			file ? bt_errstr(err) : "out of memory");
		err = -pse_nomem;
	} else {
		err = bt_bundle_file_put(file, data, size) < 0 ? -errno : 0;
		if (err < 0)
			fprintf(rec->opts.log, "ptstub: cannot write snapshot "
				"%u to %s: %s\n", rec->snapshots, file,
				strerror(-err));
		else
			rec_print(rec, &b, tr, size, file);
		if (!err && b.ended.dropped)
			fprintf(rec->opts.log, "ptstub: snapshot %u: %" PRIu32
				" ended thread%s left out (%" PRIu64 " bytes "
				"of trace), the oldest, to keep ended threads "
				"within --ended-size=%zu\n", rec->snapshots,
				b.ended.dropped, b.ended.dropped == 1 ? ""
				: "s", b.ended.dropped_bytes,
				rec->opts.ended_size);
	}
	if (err < 0)
		rec->failed++;
	rec->snapshots++;
	free(data);
	free(file);
	rec_parts_fini(&p);
	return err;
}
