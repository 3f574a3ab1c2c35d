/* The side-band a version 2 bundle carries: the program's execs (and
   mapping changes) in the order they happened, so that a trace that
   spans them can be decoded against the right image.  */
#include "rec/recorder.h"
#include "btrace/ptbtrace.h"
#include "common/ps_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rec_sideband_add(struct recorder *rec, uint32_t kind, pid_t tid,
		     const char *path)
{
	char exe[4096] = "", link[64];
	struct bt_sideband *e;

	if (!path) {
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/%d/exe", (int) tid);
		n = readlink(link, exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		path = exe;
	}
	if (rec->nsideband == rec->sideband_cap) {
		size_t cap = rec->sideband_cap ? 2 * rec->sideband_cap : 8;
		struct bt_sideband *sb = realloc(rec->sideband,
						 cap * sizeof(*sb));
		char **paths;

		if (!sb)
			return -pse_nomem;
		rec->sideband = sb;
		paths = realloc(rec->sideband_paths, cap * sizeof(*paths));
		if (!paths)
			return -pse_nomem;
		rec->sideband_paths = paths;
		rec->sideband_cap = cap;
	}
	rec->sideband_paths[rec->nsideband] = strdup(path);
	if (!rec->sideband_paths[rec->nsideband])
		return -pse_nomem;
	e = &rec->sideband[rec->nsideband];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->tid = tid;
	e->path = rec->sideband_paths[rec->nsideband];
	rec->nsideband++;
	return 0;
}
