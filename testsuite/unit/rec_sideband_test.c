/* The side-band the recorder keeps: events in order, paths copied.  */
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
	char path[32];

	memset(&rec, 0, sizeof(rec));
	for (int i = 0; i < 20; i++) {
		snprintf(path, sizeof(path), "/bin/p%d", i);
		cr_assert_eq(rec_sideband_add(&rec, bts_exec, 100 + i, path), 0);
	}
	cr_assert_eq(rec.nsideband, 20);
	cr_assert_str_eq(rec.sideband[0].path, "/bin/p0");
	cr_assert_str_eq(rec.sideband[19].path, "/bin/p19");
	cr_assert_eq(rec.sideband[7].tid, 107);
	cr_assert_eq(rec.sideband[7].kind, bts_exec);
	for (size_t i = 0; i < rec.nsideband; i++)
		free(rec.sideband_paths[i]);
	free(rec.sideband_paths);
	free(rec.sideband);
	nat_maps_fini(&rec.known);
}

Test(rec_sideband, no_path_takes_the_thread_program)
{
	struct recorder rec;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	cr_assert_gt(n, 0);
	self[n] = 0;
	memset(&rec, 0, sizeof(rec));
	cr_assert_eq(rec_sideband_add(&rec, bts_exec, getpid(), NULL), 0);
	cr_assert_str_eq(rec.sideband[0].path, self);
	free(rec.sideband_paths[0]);
	free(rec.sideband_paths);
	free(rec.sideband);
	nat_maps_fini(&rec.known);
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
	rec.target = &target;
	rec.pid = getpid();
	nat_maps_init(&rec.known);
	/* Another process's changes are not the program's.  */
	rec_map_change(&rec, 1);
	cr_assert_eq(rec.nsideband, 0);
	cr_assert_eq(rec_sideband_add(&rec, bts_exec, getpid(), NULL), 0);
	lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(lib);
	rec_map_change(&rec, getpid());
	dlclose(lib);
	rec_map_change(&rec, getpid());
	for (size_t i = 0; i < rec.nsideband; i++) {
		if (!strstr(rec.sideband[i].path, "libm"))
			continue;
		nmap += rec.sideband[i].kind == bts_map;
		nunmap += rec.sideband[i].kind == bts_unmap;
	}
	cr_assert_gt(nmap, 0);
	cr_assert_eq(nmap, nunmap);
	/* Nothing overlaps them now: they come back for the image.  */
	cr_assert_leq(rec.nsideband, 64);
	n = rec_sideband_gone(&rec, gone, 0);
	cr_assert_eq(n, nmap);
	cr_assert_not_null(strstr(gone[0].path, "libm"));
	cr_assert_gt(gone[0].build_id_size, 0);
	for (size_t i = 0; i < rec.nsideband; i++)
		free(rec.sideband_paths[i]);
	free(rec.sideband_paths);
	free(rec.sideband);
	nat_maps_fini(&rec.known);
}
