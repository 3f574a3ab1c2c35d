/* The side-band a version 2 bundle carries: the program's execs (and
   mapping changes) in the order they happened, so that a trace that
   spans them can be decoded against the right image.  */
#include "rec/recorder.h"
#include "common/ps_array.h"
#include "btrace/ptbtrace.h"
#include "common/ps_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Append E (its path and build-id copied).  */
static int rec_sideband_push(struct recorder *rec, const struct bt_sideband *e)
{
	struct bt_sideband *slot;
	uint8_t *id = NULL;

	if (rec->nsideband == rec->sideband_cap) {
		/* Two arrays side by side: both grow to the same capacity.  */
		size_t cap = rec->sideband_cap, paths_cap = rec->sideband_cap;

		if (PS_ARRAY_RESERVE(rec->sideband, cap, rec->nsideband + 1) ||
		    PS_ARRAY_RESERVE(rec->sideband_paths, paths_cap,
				     rec->nsideband + 1))
			return -pse_nomem;
		rec->sideband_cap = cap;
	}
	/* The path and the build-id share one allocation.  */
	rec->sideband_paths[rec->nsideband] =
		malloc(strlen(e->path) + 1 + e->build_id_size);
	if (!rec->sideband_paths[rec->nsideband])
		return -pse_nomem;
	strcpy(rec->sideband_paths[rec->nsideband], e->path);
	if (e->build_id_size) {
		id = (uint8_t *) rec->sideband_paths[rec->nsideband] +
			strlen(e->path) + 1;
		memcpy(id, e->build_id, e->build_id_size);
	}
	slot = &rec->sideband[rec->nsideband];
	*slot = *e;
	slot->path = rec->sideband_paths[rec->nsideband];
	slot->build_id = id;
	rec->nsideband++;
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
static int rec_map_event(struct recorder *rec, uint32_t kind, pid_t tid,
			 const struct nat_map *m)
{
	struct bt_sideband e = {
		.kind = kind, .tid = tid, .address = m->start,
		.size = m->end - m->start, .offset = m->offset,
		.prot = m->prot & 7, .path = m->path,
		.build_id = m->build_id, .build_id_size = m->build_id_size,
	};

	return rec_sideband_push(rec, &e);
}

void rec_map_change(void *ctx, pid_t tid)
{
	struct recorder *rec = ctx;
	struct nat_process *proc = nat_find_process(rec->target, rec->pid);
	struct nat_maps now;
	int ours = 0;

	/* The side-band is the program's; a fork child's maps are not.  */
	for (struct nat_thread *t = proc ? proc->threads : NULL; t; t = t->next)
		ours |= t->tid == tid;
	if (!ours)
		return;
	nat_maps_init(&now);
	if (nat_maps_read(&now, tid) < 0) {
		nat_maps_fini(&now);
		return;
	}
	for (size_t i = 0; i < rec->known.count; i++)
		if (rec_is_code(&rec->known.map[i]) &&
		    !rec_find_map(&now, &rec->known.map[i]))
			rec_map_event(rec, bts_unmap, tid, &rec->known.map[i]);
	for (size_t i = 0; i < now.count; i++)
		if (rec_is_code(&now.map[i]) &&
		    !rec_find_map(&rec->known, &now.map[i]))
			rec_map_event(rec, bts_map, tid, &now.map[i]);
	nat_maps_fini(&rec->known);
	rec->known = now;
}

int rec_sideband_add(struct recorder *rec, uint32_t kind, pid_t tid,
		     const char *path)
{
	char exe[4096] = "", link[64];
	struct bt_sideband e;

	if (!path) {
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/%d/exe", (int) tid);
		n = readlink(link, exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		path = exe;
	}
	e = (struct bt_sideband) { .kind = kind, .tid = tid, .path = path };
	/* After an exec, the mappings start over.  */
	if (kind == bts_exec) {
		nat_maps_fini(&rec->known);
		nat_maps_init(&rec->known);
		nat_maps_read(&rec->known, tid);
	}
	return rec_sideband_push(rec, &e);
}

size_t rec_sideband_gone(const struct recorder *rec, struct bt_mapping *maps,
			 size_t n)
{
	size_t first = 0;

	/* Only the current program's: an exec starts the image over.  */
	for (size_t i = 0; i < rec->nsideband; i++)
		if (rec->sideband[i].kind == bts_exec)
			first = i;
	for (size_t i = first; i < rec->nsideband; i++) {
		const struct bt_sideband *e = &rec->sideband[i];
		int clash = 0;

		if (e->kind != bts_map)
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
