/* The side-band the recorder keeps: events in order, paths copied.  */
#include "rec/recorder.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
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
}
