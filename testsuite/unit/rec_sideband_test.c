/* The side-band the recorder keeps per process: events in order, paths
   copied, a fork child's starting as a copy of its parent's.  */
#include "rec/recorder.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

Test(rec_sideband, events_keep_their_order_and_paths)
{
	struct recorder rec;
	struct rec_space *sp;
	char path[32];

	memset(&rec, 0, sizeof(rec));
	rec.sigfd = -1;
	sp = rec_space_new(&rec, 100, NULL);
	cr_assert_not_null(sp);
	for (int i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "/bin/p%d", i);
		cr_assert_eq(rec_sideband_add(sp, bts_exec, 100 + i, path), 0);
	}
	cr_assert_eq(sp->nsideband, 20);
	cr_assert_str_eq(sp->sideband[0].path, "/bin/p0");
	cr_assert_str_eq(sp->sideband[19].path, "/bin/p19");
	cr_assert_eq(sp->sideband[7].tid, 107);
	cr_assert_eq(sp->sideband[7].kind, bts_exec);
	rec_fini(&rec);
}

Test(rec_sideband, a_fork_child_starts_with_its_parents)
{
	struct recorder rec;
	struct rec_space *parent, *child;

	memset(&rec, 0, sizeof(rec));
	rec.sigfd = -1;
	parent = rec_space_new(&rec, 100, NULL);
	cr_assert_eq(rec_sideband_add(parent, bts_exec, 100, "/bin/a"), 0);
	child = rec_space_new(&rec, getpid(), parent);
	cr_assert_not_null(child);
	cr_assert_eq(rec.nspaces, 2);
	cr_assert_eq(rec_space_of(&rec, getpid()), child);
	cr_assert_eq(rec_space_of(&rec, 100), parent);
	cr_assert_null(rec_space_of(&rec, 101));
	/* The copy is the child's own: its exec is not the parent's.  */
	cr_assert_eq(child->nsideband, 1);
	cr_assert_str_eq(child->sideband[0].path, "/bin/a");
	cr_assert_neq(child->sideband[0].path, parent->sideband[0].path);
	cr_assert_eq(rec_sideband_add(child, bts_exec, getpid(), "/bin/b"), 0);
	cr_assert_eq(parent->nsideband, 1);
	/* After the exec: its event, then the new program's first code
	   mappings (this test's own file among them).  */
	cr_assert_gt(child->nsideband, 2);
	cr_assert_eq(child->sideband[1].kind, bts_exec);
	cr_assert_str_eq(child->sideband[1].path, "/bin/b");
	cr_assert_eq(child->sideband[2].kind, bts_map);
	cr_assert_not_null(strstr(child->sideband[2].path, "rec_sideband_test"));
	/* The child's current mappings are known from the start.  */
	cr_assert_gt(child->known.count, 0);
	rec_fini(&rec);
}

Test(rec_sideband, no_path_takes_the_thread_program)
{
	struct recorder rec;
	struct rec_space *sp;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	cr_assert_gt(n, 0);
	self[n] = 0;
	memset(&rec, 0, sizeof(rec));
	rec.sigfd = -1;
	sp = rec_space_new(&rec, getpid(), NULL);
	cr_assert_eq(rec_sideband_add(sp, bts_exec, getpid(), NULL), 0);
	cr_assert_str_eq(sp->sideband[0].path, self);
	rec_fini(&rec);
}

static int maps_mention(const char *name)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, name) != NULL;
	if (f)
		fclose(f);
	return found;
}

Test(rec_sideband, a_library_that_comes_and_goes_is_kept)
{
	struct recorder rec;
	struct rec_space *sp;
	struct bt_mapping gone[64];
	size_t nmap = 0, nunmap = 0, n;
	void *lib;

	struct nat_target target;
	struct nat_process proc;
	struct nat_thread self;

	if (maps_mention("libm.so"))
		cr_skip_test("libm is already loaded in this test");
	/* This process as the recorded program.  */
	memset(&target, 0, sizeof(target));
	memset(&proc, 0, sizeof(proc));
	memset(&self, 0, sizeof(self));
	self.tid = proc.pid = getpid();
	self.proc = &proc;
	proc.threads = &self;
	target.procs = &proc;
	memset(&rec, 0, sizeof(rec));
	rec.sigfd = -1;
	rec.target = &target;
	rec.pid = getpid();
	sp = rec_space_new(&rec, getpid(), NULL);
	/* An untraced process's changes are nobody's.  */
	rec_map_change(&rec, 1);
	cr_assert_eq(sp->nsideband, 0);
	cr_assert_eq(rec_sideband_add(sp, bts_exec, getpid(), NULL), 0);
	lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(lib);
	rec_map_change(&rec, getpid());
	dlclose(lib);
	rec_map_change(&rec, getpid());
	for (size_t i = 0; i < sp->nsideband; i++) {
		if (!strstr(sp->sideband[i].path, "/libm.so"))
			continue;
		nmap += sp->sideband[i].kind == bts_map;
		nunmap += sp->sideband[i].kind == bts_unmap;
	}
	cr_assert_gt(nmap, 0);
	cr_assert_eq(nmap, nunmap);
	/* Nothing overlaps them now: they come back for the image (the
	   program's first mappings, events since the exec too, are still
	   there: they do not).  */
	cr_assert_leq(sp->nsideband, 64);
	n = rec_sideband_gone(sp, gone, 0);
	cr_assert_geq(n, nmap);
	nunmap = 0;
	for (size_t i = 0; i < n; i++)
		nunmap += strstr(gone[i].path, "/libm.so") != NULL;
	cr_assert_eq(nunmap, nmap);
	cr_assert_gt(gone[0].build_id_size, 0);
	rec.target = NULL;
	rec_fini(&rec);
}

Test(rec_sideband, an_exec_is_placed_in_the_bundles_trace)
{
	struct recorder rec;
	struct rec_space *sp;
	struct rec_exec_at at = { 1, 1000, 300 };
	struct bt_sideband *sb;

	memset(&rec, 0, sizeof(rec));
	rec.sigfd = -1;
	sp = rec_space_new(&rec, 100, NULL);
	cr_assert_eq(rec_sideband_add(sp, bts_exec, 100, "/bin/a"), 0);
	cr_assert_eq(rec_sideband_add(sp, bts_exec, 100, "/bin/b"), 0);
	rec_sideband_exec_at(sp, &at);
	/* A ring holding units 400 on: the exec is at 600 of it.  */
	sb = rec_sideband_for(sp, 100, 400, 0);
	cr_assert_eq(sb[0].size, 0, "the first exec was not placed");
	cr_assert_eq(sb[1].size, 1);
	cr_assert_eq(sb[1].address, 600);
	cr_assert_str_eq(sb[1].path, "/bin/b");
	free(sb);
	/* A ring that starts after it: the trace is all the new program's. */
	sb = rec_sideband_for(sp, 100, 1200, 0);
	cr_assert_eq(sb[1].size, 0);
	free(sb);
	/* A --full stream: where the stream was.  */
	sb = rec_sideband_for(sp, 100, 0, 1);
	cr_assert_eq(sb[1].size, 1);
	cr_assert_eq(sb[1].address, 300);
	free(sb);
	/* Another thread's trace.  */
	sb = rec_sideband_for(sp, 101, 0, 0);
	cr_assert_eq(sb[1].size, 0);
	free(sb);
	/* The space's own events keep no place: each bundle's copy has it. */
	cr_assert_eq(sp->sideband[1].size, 0);
	rec_fini(&rec);
}
