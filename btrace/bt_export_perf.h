/* The perf.data export's thread-level entry (bt_export_perf.c).
   bt_export_perf takes a bundle's threads from the bundle itself; this
   takes them from the caller, for tests that put several recordings of
   one program in one file as threads of one process.  Library-internal.  */
#ifndef BT_EXPORT_PERF_H
#define BT_EXPORT_PERF_H

#include "btrace/ptbtrace.h"

#include <stddef.h>
#include <stdint.h>

/* One traced thread: its ids and its raw trace (PT bytes, or BTS blocks
   newest first, as in a bundle).  */
struct bt_perf_thread {
	int32_t pid, tid;
	const uint8_t *trace;
	size_t size;
};

/* bt_export_perf with NTHREADS THREADS, whose format, mappings and pages
   are BUNDLE's.  */
int bt_export_perf_threads(const char *path, const struct bt_bundle *bundle,
			   const struct bt_perf_thread *threads,
			   size_t nthreads, struct bt_diag *diag);

#endif
