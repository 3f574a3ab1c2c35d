#include "nat/emu/emu_walk.h"
#include "nat/emu/emu_maps.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

/* A window of code bytes, so that decoding does not cost a system call
   per instruction.  */
struct emu_code_window {
	emu_code_fn read;
	void *ctx;
	uint64_t base;
	size_t len;
	uint8_t bytes[512];
};

static int emu_window_decode(struct emu_code_window *win,
			     const struct emu_decoder *decoder, uint64_t ip,
			     struct emu_insn *insn)
{
	if (ip < win->base || ip + 15 > win->base + win->len) {
		long n = win->read(win->ctx, ip, win->bytes,
				   sizeof(win->bytes));

		win->base = ip;
		win->len = n > 0 ? (size_t) n : 0;
		if (!win->len)
			return -pse_fault;
	}
	return emu_insn_decode(decoder, ip, win->bytes + (ip - win->base),
			       win->len - (ip - win->base), insn);
}

static enum emu_stop_kind emu_kind_of(const struct emu_insn *insn)
{
	if (insn->iclass == emu_ic_int3)
		return emu_stop_self;
	switch (insn->iclass) {
	case emu_ic_cond:
	case emu_ic_ret:
	case emu_ic_jmp_ind:
	case emu_ic_call_ind:
		return insn->emulable ? emu_stop_emulate : emu_stop_step;
	default:
		return emu_stop_step;
	}
}

/* Symbolic RSP/RBP tracking along a walk, for the RET shortcut.  */
struct emu_stack_track {
	bool ok;
	struct emu_sym rsp, rbp;
	uint8_t nwrites;
	struct emu_sym writes[emu_walk_max_writes];
	uint16_t sizes[emu_walk_max_writes];
};

static void emu_track_write(struct emu_stack_track *t, struct emu_sym at,
			    uint16_t size)
{
	if (at.base < 0 || t->nwrites == emu_walk_max_writes) {
		t->ok = false;
		return;
	}
	t->writes[t->nwrites] = at;
	t->sizes[t->nwrites++] = size;
}

static void emu_track_insn(struct emu_stack_track *t,
			   const struct emu_insn *insn)
{
	struct emu_sym at;

	if (!t->ok)
		return;
	if (insn->iclass == emu_ic_call) {
		t->rsp.off -= 8;
		emu_track_write(t, t->rsp, 8);
		return;
	}
	if (insn->iclass != emu_ic_other)
		return;
	switch (insn->fx) {
	case emu_fx_none:
		if (insn->fx_rbp)
			t->rbp.base = -1;
		return;
	case emu_fx_push:
		t->rsp.off -= 8;
		emu_track_write(t, t->rsp, 8);
		return;
	case emu_fx_pop:
		t->rsp.off += 8;
		if (insn->fx_reg == 5)
			t->rbp.base = -1;
		return;
	case emu_fx_rsp_add:
		t->rsp.off += insn->fx_disp;
		return;
	case emu_fx_rbp_rsp:
		t->rbp = t->rsp;
		return;
	case emu_fx_leave:
		if (t->rbp.base < 0) {
			t->ok = false;
			return;
		}
		t->rsp = t->rbp;
		t->rsp.off += 8;
		t->rbp.base = -1;
		return;
	case emu_fx_store:
		at = insn->fx_reg == 4 ? t->rsp : t->rbp;
		at.off += insn->fx_disp;
		emu_track_write(t, at, insn->fx_size);
		if (insn->fx_rbp)
			t->rbp.base = -1;
		return;
	default:
		t->ok = false;
		return;
	}
}

/* Decide whether the RET ending WALK can be followed from its start.  */
static void emu_track_ret(struct emu_walk *walk, struct emu_stack_track *t)
{
	walk->rsp_end = t->rsp;
	walk->rbp_end = t->rbp;
	if (!t->ok) {
		walk->rsp_end.base = -1;
		walk->rbp_end.base = -1;
	}
	walk->writes_known = t->ok;
	walk->nwrites = t->ok ? t->nwrites : 0;
	memcpy(walk->writes, t->writes, walk->nwrites * sizeof(*t->writes));
	memcpy(walk->write_size, t->sizes, walk->nwrites * sizeof(*t->sizes));
	if (!t->ok || walk->insn.iclass != emu_ic_ret || !walk->insn.emulable)
		return;
	walk->slot = t->rsp;
	for (uint8_t i = 0; i < t->nwrites; i++) {
		struct emu_sym w = t->writes[i];

		if (w.base == t->rsp.base) {
			/* Same base: overlap is known now.  */
			if (w.off < t->rsp.off + 8 &&
			    t->rsp.off < w.off + t->sizes[i])
				return;
			continue;
		}
		if (walk->nchecks == emu_walk_max_checks)
			return;
		walk->checks[walk->nchecks] = w;
		walk->check_size[walk->nchecks++] = t->sizes[i];
	}
	walk->rsp_after = t->rsp;
	walk->rsp_after.off += 8 + walk->insn.ret_imm;
	walk->rbp_after = t->rbp;
	walk->ret_known = true;
}

int emu_walk_build(struct emu_walk *walk, const struct emu_decoder *decoder,
		   const struct emu_maps *maps, emu_code_fn read, void *ctx,
		   uint64_t start)
{
	struct emu_code_window win = { .read = read, .ctx = ctx };
	struct emu_edge edges[emu_walk_max_edges];
	struct emu_alu_rec recs[emu_walk_max_recs];
	struct emu_stack_track track = {
		.ok = true, .rsp = { 0, 0 }, .rbp = { 1, 0 },
	};
	uint64_t ip = start;
	struct emu_insn insn;
	int err;

	memset(walk, 0, sizeof(*walk));
	walk->start = start;
	for (;;) {
		uint64_t next;

		err = emu_window_decode(&win, decoder, ip, &insn);
		if (err < 0) {
			if (ip == start && err == -pse_fault)
				return err;
			/* Let the processor decide what these bytes do.  */
			memset(&insn, 0, sizeof(insn));
			insn.ip = ip;
			walk->kind = emu_stop_step;
			break;
		}
		if (emu_insn_is_stop(&insn)) {
			walk->kind = (uint8_t) emu_kind_of(&insn);
			break;
		}
		next = insn.iclass == emu_ic_other ? ip + insn.len
			: insn.target;
		/* Stepping into code that may change (or the end of the
		   walk) makes this instruction the stop.  */
		if (!emu_maps_cacheable(maps, ip + insn.len - 1) ||
		    !emu_maps_cacheable(maps, next) ||
		    walk->ninsns + 1 >= emu_walk_max_insns ||
		    (insn.iclass != emu_ic_other &&
		     walk->nedges == emu_walk_max_edges)) {
			walk->kind = emu_stop_step;
			break;
		}
		emu_track_insn(&track, &insn);
		if (walk->ninsns < emu_walk_max_recs)
			emu_alu_record(&insn, &recs[walk->ninsns]);
		if (insn.iclass != emu_ic_other)
			edges[walk->nedges++] = (struct emu_edge) {
				ip, next, insn.len, insn.iclass == emu_ic_call,
			};
		walk->ninsns++;
		walk->last = ip;
		ip = next;
	}
	walk->stop = ip;
	walk->insn = insn;
	emu_track_ret(walk, &track);
	if (walk->nedges) {
		walk->edges = malloc(walk->nedges * sizeof(*edges));
		if (!walk->edges)
			return -pse_nomem;
		memcpy(walk->edges, edges, walk->nedges * sizeof(*edges));
	}
	if (walk->ninsns && walk->ninsns <= emu_walk_max_recs) {
		walk->recs = malloc(walk->ninsns * sizeof(*recs));
		if (!walk->recs)
			return -pse_nomem;
		memcpy(walk->recs, recs, walk->ninsns * sizeof(*recs));
	}
	return 0;
}

void emu_walk_fini(struct emu_walk *walk)
{
	free(walk->edges);
	walk->edges = NULL;
	free(walk->recs);
	walk->recs = NULL;
	walk->nedges = 0;
}

bool emu_walk_locate(const struct emu_walk *walk,
		     const struct emu_decoder *decoder, emu_code_fn read,
		     void *ctx, uint64_t ip, uint64_t *prev,
		     uint16_t *edges_before, struct emu_sym *rsp_at,
		     uint32_t *insns_before)
{
	struct emu_code_window win = { .read = read, .ctx = ctx };
	struct emu_stack_track track = {
		.ok = true, .rsp = { 0, 0 }, .rbp = { 1, 0 },
	};
	uint64_t at = walk->start, last = 0;
	uint16_t edge = 0;
	struct emu_insn insn;

	for (uint32_t i = 0; i <= walk->ninsns; i++) {
		if (at == ip) {
			*prev = last;
			*edges_before = edge;
			if (insns_before)
				*insns_before = i;
			*rsp_at = track.rsp;
			if (!track.ok)
				rsp_at->base = -1;
			return true;
		}
		if (at == walk->stop ||
		    emu_window_decode(&win, decoder, at, &insn) < 0)
			return false;
		last = at;
		track.nwrites = 0;   /* only RSP matters here */
		emu_track_insn(&track, &insn);
		if (edge < walk->nedges && walk->edges[edge].from == at)
			at = walk->edges[edge++].to;
		else
			at += insn.len;
	}
	return false;
}

bool emu_walk_visit(const struct emu_walk *walk,
		    const struct emu_decoder *decoder, emu_code_fn read,
		    void *ctx, void (*fn)(void *arg, const struct emu_insn *),
		    void *arg)
{
	struct emu_code_window win = { .read = read, .ctx = ctx };
	uint64_t at = walk->start;
	uint16_t edge = 0;
	struct emu_insn insn;

	for (uint32_t i = 0; i < walk->ninsns; i++) {
		if (emu_window_decode(&win, decoder, at, &insn) < 0)
			return false;
		fn(arg, &insn);
		if (edge < walk->nedges && walk->edges[edge].from == at)
			at = walk->edges[edge++].to;
		else
			at += insn.len;
	}
	return at == walk->stop;
}
