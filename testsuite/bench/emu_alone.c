/* The stub benchmark's baseline: the emulator alone, through its API
   (testsuite/emu's driver, as emu_bench does), tracing FUNCTION of PROG
   to its return with the configuration the stub uses, the trace read
   once at the end as the stub's qXfer does.  Pinned to one CPU
   (drv_start), best and median of REPS runs.
     emu_alone PROG ARG FUNCTION RING_BYTES REPS [count]
   prints one line of key=value: seconds (best, median), trace bytes,
   stops, and with "count" the instructions decoded from the last trace
   (libipt's insn decoder; not timed).  */
#define _GNU_SOURCE
#include "testsuite/emu/emu_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	/* What nat/btrace.c configures for an emulated source.  */
	const struct emu_config config = {
		.ret_shortcut = true,
		.jcc_shortcut = true,
	};
	struct drv_trace trace;
	struct drv_proc proc;
	double secs[64];
	size_t ring;
	long insns = -1;
	int reps;

	if (argc < 6) {
		fprintf(stderr, "usage: emu_alone PROG ARG FUNCTION RING_BYTES "
			"REPS [count]\n");
		return 2;
	}
	ring = strtoull(argv[4], NULL, 0);
	reps = atoi(argv[5]);
	if (reps < 1 || reps > 64)
		return 2;
	drv_trace_init(&trace);
	for (int rep = 0; rep < reps; rep++) {
		double t0;
		int err;

		drv_trace_fini(&trace);
		drv_trace_init(&trace);
		if (drv_start(&proc, argv[1], argv[2], argv[3]) < 0) {
			fprintf(stderr, "emu_alone: cannot start %s\n", argv[1]);
			return 1;
		}
		t0 = now();
		err = drv_emulate(&proc, &config, trace_format_pt, ring, &trace);
		secs[rep] = now() - t0;
		if (err < 0) {
			fprintf(stderr, "emu_alone: emulation failed: %d\n", err);
			drv_finish(&proc);
			return 1;
		}
		if (rep == reps - 1 && argc > 6 && !strcmp(argv[6], "count")) {
			struct drv_ips ips;
			unsigned gaps = 0;

			drv_ips_init(&ips);
			insns = drv_decode_pt(&proc, &trace.pt, &ips, &gaps);
			drv_ips_fini(&ips);
			if (gaps)
				insns = -1;
		}
		drv_finish(&proc);
	}
	qsort(secs, (size_t) reps, sizeof(secs[0]), cmp_double);
	printf("best=%.6f median=%.6f bytes=%zu stops=%llu insns=%ld\n",
	       secs[0], secs[reps / 2], trace.pt.len,
	       (unsigned long long) trace.status.stops, insns);
	drv_trace_fini(&trace);
	return 0;
}
