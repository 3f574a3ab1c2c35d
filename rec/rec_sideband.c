/* The side-band a version 2 bundle carries: a process's execs (and
   mapping changes) in the order they happened, so that a trace that
   spans them can be decoded against the right image.  Each traced
   process (a fork child too) keeps its own, in its rec_space.  */
#include "rec/recorder.h"
#include "common/ps_array.h"
#include "btrace/ptbundle.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "nat/procinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Append E (its path and build-id copied).  */
static int rec_sideband_push(struct rec_space *sp, const struct bt_sideband *e)
{
	struct bt_sideband *slot;
	struct rec_exec_at *at;
	uint8_t *id = NULL;

	if (sp->nsideband == sp->sideband_cap) {
		/* Three arrays side by side: all grow to the same capacity.  */
		size_t cap = sp->sideband_cap, paths_cap = cap, at_cap = cap;
		size_t need = sp->nsideband + 1;

		if (PS_ARRAY_RESERVE(sp->sideband, cap, need) ||
		    PS_ARRAY_RESERVE(sp->sideband_paths, paths_cap, need) ||
		    PS_ARRAY_RESERVE(sp->sideband_at, at_cap, need))
			return -pse_nomem;
		sp->sideband_cap = cap;
	}
	/* The path and the build-id share one allocation.  */
	sp->sideband_paths[sp->nsideband] =
		malloc(strlen(e->path) + 1 + e->build_id_size);
	if (!sp->sideband_paths[sp->nsideband])
		return -pse_nomem;
	strcpy(sp->sideband_paths[sp->nsideband], e->path);
	if (e->build_id_size) {
		id = (uint8_t *) sp->sideband_paths[sp->nsideband] +
			strlen(e->path) + 1;
		memcpy(id, e->build_id, e->build_id_size);
	}
	slot = &sp->sideband[sp->nsideband];
	*slot = *e;
	slot->path = sp->sideband_paths[sp->nsideband];
	slot->build_id = id;
	/* A copied exec (a fork child's past) keeps no place: the child's
	   trace starts after it.  */
	slot->address = e->kind == bts_exec ? 0 : e->address;
	slot->size = e->kind == bts_exec ? 0 : e->size;
	memset(&sp->sideband_at[sp->nsideband], 0, sizeof(*at));
	sp->nsideband++;
	return 0;
}

static int rec_same_map(const struct nat_map *a, const struct nat_map *b)
{
	return a->start == b->start && a->end == b->end &&
		a->offset == b->offset && a->prot == b->prot &&
		!strcmp(a->path, b->path);
}

static int rec_is_code(const struct nat_map *m)
{
	return m->path[0] == '/' && (m->prot & PROT_EXEC);
}

static int rec_find_map(const struct nat_maps *maps, const struct nat_map *m)
{
	for (size_t i = 0; i < maps->count; i++)
		if (rec_same_map(&maps->map[i], m))
			return 1;
	return 0;
}

/* One side-band event for mapping M.  */
static int rec_map_event(struct rec_space *sp, uint32_t kind, pid_t tid,
			 const struct nat_map *m)
{
	struct bt_sideband e = {
		.kind = kind, .tid = tid, .address = m->start,
		.size = m->end - m->start, .offset = m->offset,
		.prot = m->prot & 7, .path = m->path,
		.build_id = m->build_id, .build_id_size = m->build_id_size,
	};

	return rec_sideband_push(sp, &e);
}

void rec_map_change(void *ctx, pid_t tid)
{
	struct recorder *rec = ctx;
	struct rec_space *sp = NULL;
	struct nat_maps now;

	/* The side-band of the traced process that thread TID is in.  */
	for (struct nat_process *p = rec->target->procs; p && !sp; p = p->next)
		for (struct nat_thread *t = p->threads; t; t = t->next)
			if (t->tid == tid) {
				sp = rec_space_of(rec, p->pid);
				break;
			}
	if (!sp)
		return;
	nat_maps_init(&now);
	if (nat_maps_read(&now, tid) < 0) {
		nat_maps_fini(&now);
		return;
	}
	for (size_t i = 0; i < sp->known.count; i++)
		if (rec_is_code(&sp->known.map[i]) &&
		    !rec_find_map(&now, &sp->known.map[i]))
			rec_map_event(sp, bts_unmap, tid, &sp->known.map[i]);
	for (size_t i = 0; i < now.count; i++)
		if (rec_is_code(&now.map[i]) &&
		    !rec_find_map(&sp->known, &now.map[i]))
			rec_map_event(sp, bts_map, tid, &now.map[i]);
	nat_maps_fini(&sp->known);
	sp->known = now;
}

int rec_sideband_add(struct rec_space *sp, uint32_t kind, pid_t tid,
		     const char *path)
{
	struct bt_sideband e;
	struct ps_buf exe;
	int err;

	/* "" where the program is gone or unreadable.  */
	ps_buf_init(&exe);
	if (!path) {
		procinfo_exe_path(tid, &exe);
		path = exe.data ? exe.data : "";
	}
	e = (struct bt_sideband) { .kind = kind, .tid = tid, .path = path };
	err = rec_sideband_push(sp, &e);
	ps_buf_fini(&exe);
	if (err < 0 || kind != bts_exec)
		return err;
	/* After an exec, the mappings start over; the new program's first
	   ones (itself, the dynamic loader) are events too, so that the
	   side-band alone says what code each program had.  So is its
	   vDSO, the kernel's code, where this program has it: an older
	   program's calls there decode against the bundle's copy.  */
	nat_maps_fini(&sp->known);
	nat_maps_init(&sp->known);
	nat_maps_read(&sp->known, tid);
	for (size_t i = 0; !err && i < sp->known.count; i++)
		if (rec_is_code(&sp->known.map[i]) ||
		    !strcmp(sp->known.map[i].path, "[vdso]"))
			err = rec_map_event(sp, bts_map, tid, &sp->known.map[i]);
	return err;
}

void rec_sideband_exec_at(struct rec_space *sp, const struct rec_exec_at *at)
{
	for (size_t i = sp->nsideband; i-- > 0; )
		if (sp->sideband[i].kind == bts_exec) {
			sp->sideband_at[i] = *at;
			return;
		}
}

struct bt_sideband *rec_sideband_for(const struct rec_space *sp,
				     pid_t tid, uint64_t start, int stream)
{
	struct bt_sideband *copy = calloc(sp->nsideband + 1, sizeof(*copy));

	for (size_t i = 0; copy && i < sp->nsideband; i++) {
		const struct rec_exec_at *at = &sp->sideband_at[i];
		uint64_t pos = stream ? at->stream : at->ring;

		copy[i] = sp->sideband[i];
		if (copy[i].kind != bts_exec)
			continue;
		copy[i].address = 0;
		copy[i].size = 0;
		/* Before the trace's oldest unit, the whole trace is the new
		   program's: nothing to place.  */
		if (at->known && copy[i].tid == tid && (stream || pos >= start)) {
			copy[i].address = pos - (stream ? 0 : start);
			copy[i].size = 1;
		}
	}
	return copy;
}

size_t rec_sideband_gone(const struct rec_space *sp, struct bt_mapping *maps,
			 size_t n)
{
	size_t first = 0;

	/* Only the current program's: an exec starts the image over.  */
	for (size_t i = 0; i < sp->nsideband; i++)
		if (sp->sideband[i].kind == bts_exec)
			first = i;
	for (size_t i = first; i < sp->nsideband; i++) {
		const struct bt_sideband *e = &sp->sideband[i];
		int clash = 0;

		if (e->kind != bts_map || e->path[0] != '/')
			continue;
		/* A file is decoded at one place: one still mapped (or
		   mapped again elsewhere) wins.  */
		for (size_t k = 0; k < n && !clash; k++)
			clash = (e->address < maps[k].address + maps[k].size &&
				 maps[k].address < e->address + e->size) ||
				!strcmp(e->path, maps[k].path);
		if (clash)
			continue;
		maps[n++] = (struct bt_mapping) {
			e->address, e->size, e->offset, e->prot, e->path,
			e->build_id, e->build_id_size };
	}
	return n;
}

struct rec_space *rec_space_of(const struct recorder *rec, pid_t pid)
{
	for (size_t i = 0; i < rec->nspaces; i++)
		if (rec->spaces[i]->pid == pid)
			return rec->spaces[i];
	return NULL;
}

struct rec_space *rec_space_new(struct recorder *rec, pid_t pid,
				const struct rec_space *parent)
{
	struct rec_space *sp = rec_space_of(rec, pid);

	if (sp)
		return sp;
	if (PS_ARRAY_RESERVE(rec->spaces, rec->spaces_cap, rec->nspaces + 1))
		return NULL;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	sp->pid = pid;
	nat_maps_init(&sp->known);
	/* A fork child's past is its parent's: the same libraries came and
	   went, and the same mappings are there now.  */
	for (size_t i = 0; parent && i < parent->nsideband; i++)
		if (rec_sideband_push(sp, &parent->sideband[i]) < 0) {
			rec_space_free(sp);
			return NULL;
		}
	if (parent)
		nat_maps_read(&sp->known, pid);
	rec->spaces[rec->nspaces++] = sp;
	return sp;
}

void rec_space_free(struct rec_space *sp)
{
	if (!sp)
		return;
	for (size_t i = 0; i < sp->nsideband; i++)
		free(sp->sideband_paths[i]);
	free(sp->sideband_paths);
	free(sp->sideband);
	free(sp->sideband_at);
	nat_maps_fini(&sp->known);
	free(sp);
}
