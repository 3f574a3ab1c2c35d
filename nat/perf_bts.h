/* Branch Trace Store through perf: a branch-instructions hardware event
   sampled at every branch, its (from, to) samples read from the data
   area and turned into blocks the way GDB 13.1's reader does.  */
#ifndef PERF_BTS_H
#define PERF_BTS_H

#include "nat/perf_ring.h"
#include "common/trace.h"

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How much to read, as qXfer:btrace:read's annexes ask.  */
enum perf_bts_read_type {
	perf_bts_read_all,     /* everything the ring holds */
	perf_bts_read_new,     /* everything, but only if anything is new */
	perf_bts_read_delta,   /* only what came after the last read */
};

/* The sample record perf writes for sample_type IP|ADDR.  */
struct perf_bts_sample {
	struct perf_event_header header;
	uint64_t from;
	uint64_t to;
};

/* Whether ADDR is a kernel address: at or above KERNEL_START, or with
   bit 63 set when that is unknown (0).  */
int perf_bts_is_kernel(uint64_t addr, uint64_t kernel_start);

/* The kernel's start (_text) from a kallsyms file such as
   /proc/kallsyms; 0 when unknown (unreadable, or hidden as zeroes).  */
uint64_t perf_bts_kernel_start(const char *kallsyms);

/* Turn the LEN bytes of samples ending at HEAD in RING into blocks,
   appended to OUT in execution order: newest sample last, a block runs
   from one branch's "to" to the next branch's "from", PC closes the
   newest.  The oldest block's begin is unknown (0): KEEP_OLDEST keeps it
   (a delta read, for GDB to stitch), else it is dropped.  Samples
   branching out of the kernel are skipped.  A record that is not a
   sample ends the walk and sets *INCOMPLETE (GDB: "Branch trace may be
   incomplete").  */
int perf_bts_blocks_from_ring(const struct perf_ring *ring, uint64_t head,
			      size_t len, uint64_t pc, uint64_t kernel_start,
			      int keep_oldest, struct trace_blocks *out,
			      int *incomplete);

/* Whether BTS can be used: 0, or negative with REASON (LEN bytes) saying
   why not ("no BTS on AMD cpus", "no branch-instructions hardware event
   (perf_event_open: No such file or directory)", a permission problem
   with perf_event_paranoid's value).  */
int perf_bts_probe(char *reason, size_t len);

struct perf_bts {
	int fd;
	void *map;                 /* user page + data area */
	size_t map_len;
	struct perf_event_mmap_page *header;
	struct perf_ring data;
	uint64_t last_head;        /* data_head at the last read */
	uint64_t kernel_start;     /* from /proc/kallsyms, 0 if unknown */
	int owned;
	int incomplete;            /* the last read hit a foreign record */
	/* Why the last open or read failed, in gdbserver's words.  */
	char reason[256];
};

void perf_bts_init(struct perf_bts *bts);

/* Start sampling thread TID's branches into a data area of SIZE bytes
   (rounded up to a power of two pages, halved until the kernel grants
   it).  Negative with bts->reason set.  */
int perf_bts_open(struct perf_bts *bts, pid_t tid, size_t size);

/* Use an already mapped user page plus data area (MAP, MAP_LEN bytes)
   without owning it: synthetic rings in tests.  */
int perf_bts_attach(struct perf_bts *bts, void *map, size_t map_len,
		    size_t page_size);

/* Append the trace to OUT in execution order; PC is the thread's current
   PC.  "new" appends nothing when data_head has not moved; "delta"
   fails with -pse_nospace when the ring overflowed since the last read
   (gdbserver: "E.Overflow.").  */
int perf_bts_read(struct perf_bts *bts, struct trace_blocks *out,
		  enum perf_bts_read_type type, uint64_t pc);

void perf_bts_status(const struct perf_bts *bts, struct perf_ring_status *st);

/* The data area's size (the btrace-conf size); 0 when closed.  */
size_t perf_bts_size(const struct perf_bts *bts);

/* Stop sampling and release everything; safe to call twice.  */
void perf_bts_close(struct perf_bts *bts);

#endif
