/* `monitor btrace save FILE`: the selected thread's trace bundle, for
   ptbtrace to decode away from the process (format in btrace/).  */
#define _GNU_SOURCE /* strerrorname_np */
#include "server/server.h"
#include "btrace/ptbundle.h"
#include "btrace/bt_bundle_file.h"
#include "common/ps_error.h"
#include "nat/btrace.h"
#include "nat/amd64_regs.h"
#include "nat/maps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* File mappings by reference, executable anonymous ones (the vDSO, JIT
   code) by copy: those have no file to read them back from.  */
static int srv_bundle_maps(struct nat_process *proc, struct nat_maps *maps,
			   struct bt_bundle *b, struct bt_mapping **mappings,
			   struct bt_pages **pages)
{
	size_t nm = 0, np = 0;

	*mappings = calloc(maps->count ? maps->count : 1, sizeof(**mappings));
	*pages = calloc(maps->count ? maps->count : 1, sizeof(**pages));
	if (!*mappings || !*pages)
		return -pse_nomem;
	for (size_t i = 0; i < maps->count; i++) {
		const struct nat_map *m = &maps->map[i];

		if (m->path[0] == '/') {
			struct bt_mapping *bm = &(*mappings)[nm++];

			bm->address = m->start;
			bm->size = m->end - m->start;
			bm->offset = m->offset;
			bm->prot = m->prot;
			bm->path = m->path;
			bm->build_id = m->build_id_size ? m->build_id : NULL;
			bm->build_id_size = m->build_id_size;
		} else if ((m->prot & PROT_EXEC) && strcmp(m->path, "[vsyscall]")) {
			struct bt_pages *bp = &(*pages)[np];
			uint8_t *bytes = malloc(m->end - m->start);
			long n;

			if (!bytes)
				return -pse_nomem;
			n = nat_read_memory(proc, m->start, bytes, m->end - m->start);
			if (n != (long) (m->end - m->start)) {
				free(bytes);
				continue;
			}
			bp->address = m->start;
			bp->size = m->end - m->start;
			bp->prot = m->prot;
			bp->name = m->path;
			bp->bytes = bytes;
			np++;
		}
	}
	b->mappings = *mappings;
	b->nmappings = nm;
	b->pages = *pages;
	b->npages = np;
	return 0;
}

static int srv_bundle_trace(struct nat_thread *thread, struct bt_bundle *b,
			    struct ps_buf *raw, struct trace_blocks *blocks,
			    struct bt_bts_block **newest_first)
{
	int err;

	if (nat_btrace_format(thread) == trace_format_pt) {
		struct trace_cpu cpu;

		err = nat_btrace_read_pt(thread, nat_btrace_read_copy, raw);
		if (err < 0)
			return err;
		b->format = btf_pt;
		b->trace = (const uint8_t *) raw->data;
		b->trace_size = raw->len;
		nat_btrace_cpu(thread, &cpu);
		if (!strcmp(cpu.vendor, "GenuineIntel")) {
			b->cpu.vendor = btv_intel;
			b->cpu.family = (uint16_t) cpu.family;
			b->cpu.model = (uint8_t) cpu.model;
			b->cpu.stepping = (uint8_t) cpu.stepping;
		}
		return 0;
	}
	err = nat_btrace_read_bts(thread, nat_btrace_read_copy, blocks);
	if (err < 0)
		return err;
	/* Bundles keep BTS blocks newest first, as GDB's XML has them.  */
	*newest_first = calloc(blocks->len ? blocks->len : 1,
			       sizeof(**newest_first));
	if (!*newest_first)
		return -pse_nomem;
	for (size_t i = 0; i < blocks->len; i++) {
		(*newest_first)[i].begin = blocks->block[blocks->len - 1 - i].begin;
		(*newest_first)[i].end = blocks->block[blocks->len - 1 - i].end;
	}
	b->format = btf_bts;
	b->trace = (const uint8_t *) *newest_first;
	b->trace_size = blocks->len * sizeof(**newest_first);
	return 0;
}

/* Encode B and put it at PATH: 0, or a negative code with *SYS the errno
   of a failed system call (0 if none failed).  */
static int srv_save_bundle(const struct bt_bundle *b, const char *path,
			   int *sys)
{
	uint8_t *data;
	size_t size;
	int err;

	*sys = 0;
	err = bt_bundle_encode(b, &data, &size);
	if (err < 0)
		return err == -bte_nomem ? -pse_nomem : -pse_internal;
	if (bt_bundle_file_put(path, data, size) < 0)
		*sys = errno;
	free(data);
	return *sys ? -pse_io : 0;
}

/* "No space left on device (ENOSPC)": the text and the name to search.  */
static void srv_put_errno(struct ps_buf *msg, int err)
{
	const char *name = strerrorname_np(err);

	ps_buf_puts(msg, strerror(err));
	if (name)
		ps_buf_printf(msg, " (%s)", name);
}

/* What turns the PT's TSC packets into time (none for a session
   shorter than a millisecond).  */
static void srv_bundle_time(struct srv *srv, struct bt_bundle *b)
{
	struct nat_tsc_conv conv;

	if (b->format == btf_pt &&
	    nat_target_tsc_conv(srv->target, &conv) == 0)
		b->time = (struct bt_time) { conv.zero, conv.mult,
			conv.shift };
}

int srv_btrace_save(struct srv *srv, const char *path, struct ps_buf *msg)
{
	struct nat_thread *thread = srv_general_thread(srv);
	struct bt_bts_block *newest_first = NULL;
	struct bt_mapping *mappings = NULL;
	struct trace_blocks blocks;
	struct bt_pages *pages = NULL;
	struct nat_maps maps;
	struct bt_bundle b;
	struct ps_buf raw;
	int err, sys = 0;

	if (!thread || !nat_thread_traced(thread))
		return ps_buf_puts(msg, "The selected thread is not traced.\n"),
			-pse_notfound;
	memset(&b, 0, sizeof(b));
	ps_buf_init(&raw);
	trace_blocks_init(&blocks);
	nat_maps_init(&maps);

	b.pid = nat_thread_pid(thread);
	b.tid = nat_thread_tid(thread);
	b.buffer_size = (uint32_t) nat_btrace_size(thread);
	err = srv_bundle_trace(thread, &b, &raw, &blocks, &newest_first);
	if (!err)
		err = nat_maps_read(&maps, nat_thread_pid(thread));
	if (!err)
		err = srv_bundle_maps(nat_thread_process(thread), &maps, &b, &mappings, &pages);
	if (!err) {
		struct amd64_regs *regs;

		if (nat_thread_regs(thread, &regs) == 0) {
			b.pc = amd64_regs_pc(regs);
			b.has_pc = 1;
		}
		srv_bundle_time(srv, &b);
		err = srv_save_bundle(&b, path, &sys);
	}
	if (err < 0 && sys) {
		ps_buf_printf(msg, "Cannot save the trace to %s: ", path);
		srv_put_errno(msg, sys);
		ps_buf_puts(msg, ".\n");
	} else if (err < 0)
		ps_buf_printf(msg, "Cannot save the trace to %s: %s.\n", path,
			      ps_errstr(err));
	else
		ps_buf_printf(msg, "Saved %zu bytes of %s trace of thread %d.%d "
			      "and %zu mappings to %s.\n", b.trace_size,
			      b.format == btf_pt ? "PT" : "BTS", (int) b.pid,
			      (int) b.tid, b.nmappings + b.npages, path);

	for (size_t i = 0; pages && i < b.npages; i++)
		free((void *) pages[i].bytes);
	free(pages);
	free(mappings);
	free(newest_first);
	nat_maps_fini(&maps);
	trace_blocks_fini(&blocks);
	ps_buf_fini(&raw);
	return err;
}
