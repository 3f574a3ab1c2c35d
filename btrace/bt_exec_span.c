/* A trace that spans an exec.  A version 2 side-band places each exec
   in the trace of the thread that made it; the code the old program had
   (its side-band mappings since the exec before) then joins the image,
   so that the part of the trace before the exec decodes against the old
   program and the part after against the new one.  One image serves
   both as long as no address means two things; where the old program's
   code overlaps other code now (the same address, another file), the
   part before the exec is cut off: an honest gap, not a wrong trace.
   The old programs' vDSOs (side-band "[vdso]" mappings) are the
   kernel's one code: the bundle's copy of it joins the image at each
   such address where nothing else is.  */
#include "btrace/ptbtrace.h"

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

/* PSB (02 82 eight times) and PSBEND (02 23).  */
static const uint8_t bt_span_psb[18] = {
	2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
	2, 0x82, 2, 0x23,
};

/* IP packets compress against the last IP (the SDM's IP compression). */
static uint64_t bt_span_ip(uint64_t last, const struct pt_packet_ip *ip)
{
	switch (ip->ipc) {
	case pt_ipc_update_16:
		return (last & ~0xffffull) | (ip->ip & 0xffff);
	case pt_ipc_update_32:
		return (last & ~0xffffffffull) | (ip->ip & 0xffffffff);
	case pt_ipc_update_48:
		return (last & ~0xffffffffffffull) | (ip->ip & 0xffffffffffffull);
	case pt_ipc_sext_48:
		return (uint64_t) ((int64_t) (ip->ip << 16) >> 16);
	case pt_ipc_full:
		return ip->ip;
	default:
		return last;
	}
}

/* The PT trace of B from AT, where the new program's packets start
   (its MODE.Exec, then TIP.PGE), as a decoder can start on it: behind a
   PSB and PSBEND, and the TIP.PGE with its whole IP (the packets before
   AT gave the bytes it leaves out).  Decoding from the PSB after AT
   instead would lose the new program's first steps.  */
static int bt_span_cut_pt(const struct bt_bundle *b, uint64_t at,
			  struct bt_exec_span *span)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct pt_packet pkt;
	uint64_t last = 0, off = 0, pge = 0, rest = 0;
	size_t n = 0;
	int status;

	pt_config_init(&config);
	config.begin = (uint8_t *) b->trace;
	config.end = (uint8_t *) b->trace + b->trace_size;
	dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return -bte_nomem;
	status = pt_pkt_sync_forward(dec);
	while (status >= 0) {
		if (pt_pkt_get_offset(dec, &off) < 0)
			break;
		status = pt_pkt_next(dec, &pkt, sizeof(pkt));
		if (status < 0) {
			/* Past an error, the next PSB starts afresh.  */
			if (off >= at)
				break;
			last = 0;
			status = pt_pkt_sync_forward(dec);
			continue;
		}
		if (pkt.type == ppt_psb)
			last = 0;
		if (pkt.type == ppt_tip || pkt.type == ppt_fup ||
		    pkt.type == ppt_tip_pge || pkt.type == ppt_tip_pgd)
			last = bt_span_ip(last, &pkt.payload.ip);
		if (off >= at && pkt.type == ppt_tip_pge) {
			pge = off;
			rest = off + pkt.size;
			break;
		}
	}
	pt_pkt_free_decoder(dec);
	if (!rest)
		return 0;
	/* PSB, PSBEND, what came between AT and the TIP.PGE, the TIP.PGE
	   with all 8 bytes of its IP, and the rest.  */
	span->trace = malloc(sizeof(bt_span_psb) + (pge - at) + 9 +
			     (b->trace_size - rest));
	if (!span->trace)
		return -bte_nomem;
	memcpy(span->trace, bt_span_psb, sizeof(bt_span_psb));
	n = sizeof(bt_span_psb);
	memcpy(span->trace + n, b->trace + at, pge - at);
	n += pge - at;
	span->trace[n++] = (uint8_t) (pt_ipc_full << 5 | 0x11);
	for (int i = 0; i < 8; i++)
		span->trace[n++] = (uint8_t) (last >> (8 * i));
	memcpy(span->trace + n, b->trace + rest, b->trace_size - rest);
	span->trace_size = n + (b->trace_size - rest);
	return 1;
}

/* Whether A and B overlap, and whether they map the same file the same
   way there (then one may stand for both).  */
static int bt_span_clash(const struct bt_mapping *a, const struct bt_mapping *b,
			 int *same)
{
	if (a->address >= b->address + b->size ||
	    b->address >= a->address + a->size)
		return 0;
	*same = !strcmp(a->path, b->path) &&
		a->address - a->offset == b->address - b->offset;
	return 1;
}

/* Add M to the image's mappings MAPS (N of them) unless one there maps
   it already; -1 when it overlaps other code.  */
static int bt_span_add(struct bt_mapping *maps, size_t *n,
		       const struct bt_mapping *m)
{
	int covered = 0;

	for (size_t i = 0; i < *n; i++) {
		int same = 0;

		if (!bt_span_clash(&maps[i], m, &same))
			continue;
		if (!same)
			return -1;
		covered |= maps[i].address <= m->address &&
			m->address + m->size <= maps[i].address + maps[i].size;
	}
	if (!covered)
		maps[(*n)++] = *m;
	return 0;
}

/* An older program's vDSO at ADDRESS: the bundle's copy of the vDSO
   (the kernel's, the same bytes in every program) there too, unless
   anything else is there now (that part then stays undecodable).  */
static void bt_span_vdso(const struct bt_bundle *b, struct bt_pages *pages,
			 size_t *n, const struct bt_mapping *maps, size_t nmaps,
			 const struct bt_sideband *e)
{
	const struct bt_pages *vdso = NULL;

	for (size_t i = 0; i < b->npages; i++)
		if (b->pages[i].name && !strcmp(b->pages[i].name, "[vdso]"))
			vdso = &b->pages[i];
	if (!vdso || vdso->size != e->size)
		return;
	for (size_t i = 0; i < *n; i++)
		if (e->address < pages[i].address + pages[i].size &&
		    pages[i].address < e->address + e->size)
			return;
	for (size_t i = 0; i < nmaps; i++)
		if (e->address < maps[i].address + maps[i].size &&
		    maps[i].address < e->address + e->size)
			return;
	pages[*n] = *vdso;
	pages[(*n)++].address = e->address;
}

/* The units (PT bytes, BTS blocks) of the selected thread's trace.  */
static uint64_t bt_span_units(const struct bt_bundle *b)
{
	return b->format == btf_bts ? b->trace_size / sizeof(struct bt_bts_block)
		: b->trace_size;
}

int bt_exec_span_apply(struct bt_bundle *b, struct bt_exec_span *span)
{
	size_t first = 0, last = 0, n = b->nmappings, nplaced = 0;
	uint64_t units = bt_span_units(b), at = 0;
	struct bt_mapping *maps;
	size_t npages = b->npages;
	struct bt_pages *pages;
	int clash = 0, status;

	memset(span, 0, sizeof(*span));
	/* The execs placed inside this thread's trace; the first of them
	   and the exec before it bound what the trace ran of old code.  */
	for (size_t i = 0; i < b->nsideband; i++) {
		const struct bt_sideband *e = &b->sideband[i];

		if (e->kind != bts_exec)
			continue;
		if (e->size == 1 && e->tid == b->tid && e->address > 0 &&
		    e->address < units) {
			if (!nplaced++)
				span->first_path = e->path;
			last = i;
			at = e->address;
			span->path = e->path;
		} else if (!nplaced) {
			first = i;
		}
	}
	if (!nplaced)
		return 0;
	maps = calloc(b->nmappings + b->nsideband + 1, sizeof(*maps));
	pages = calloc(b->npages + b->nsideband + 1, sizeof(*pages));
	if (!maps || !pages) {
		free(maps);
		free(pages);
		return -bte_nomem;
	}
	if (b->nmappings)
		memcpy(maps, b->mappings, b->nmappings * sizeof(*maps));
	if (b->npages)
		memcpy(pages, b->pages, b->npages * sizeof(*pages));
	for (size_t i = first; i < last && !clash; i++) {
		const struct bt_sideband *e = &b->sideband[i];
		struct bt_mapping m = { e->address, e->size, e->offset,
			e->prot, e->path, e->build_id, e->build_id_size };

		if (e->kind == bts_map && e->path && e->path[0] == '/')
			clash = bt_span_add(maps, &n, &m) < 0;
	}
	/* The older programs' vDSOs, where nothing else is.  */
	for (size_t i = first; i < last && !clash; i++)
		if (b->sideband[i].kind == bts_map && b->sideband[i].path &&
		    !strcmp(b->sideband[i].path, "[vdso]"))
			bt_span_vdso(b, pages, &npages, maps, n,
				     &b->sideband[i]);
	if (clash) {
		/* Only what came after the last exec decodes.  */
		free(maps);
		free(pages);
		span->cut = at;
		span->saved_trace = b->trace;
		span->saved_size = b->trace_size;
		if (b->format == btf_bts) {
			b->trace_size -= at * sizeof(struct bt_bts_block);
			return 1;
		}
		status = bt_span_cut_pt(b, at, span);
		if (status < 0)
			return status;
		if (status == 0) {
			/* No TIP.PGE after it: from the next PSB on.  */
			b->trace += at;
			b->trace_size -= at;
			return 1;
		}
		b->trace = span->trace;
		b->trace_size = span->trace_size;
		return 1;
	}
	span->nexecs = nplaced;
	span->mappings = maps;
	span->saved = b->mappings;
	span->nsaved = b->nmappings;
	b->mappings = maps;
	b->nmappings = n;
	span->pages = pages;
	span->saved_pages = b->pages;
	span->nsaved_pages = b->npages;
	b->pages = pages;
	b->npages = npages;
	return 1;
}

void bt_exec_span_undo(struct bt_bundle *b, struct bt_exec_span *span)
{
	if (span->mappings) {
		b->mappings = span->saved;
		b->nmappings = span->nsaved;
	}
	if (span->pages) {
		b->pages = span->saved_pages;
		b->npages = span->nsaved_pages;
	}
	if (span->saved_trace) {
		b->trace = span->saved_trace;
		b->trace_size = span->saved_size;
	}
	free(span->mappings);
	free(span->pages);
	free(span->trace);
	memset(span, 0, sizeof(*span));
}
