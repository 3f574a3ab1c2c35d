/* Arithmetic on perf's mmap'ed rings (the data area after the
   perf_event_mmap_page, and the AUX area), pure so it can be tested on
   synthetic buffers; the few system calls PT and BTS share come last.

   Heads are byte positions.  The data area's data_head counts up without
   bound (the ring holds its last SIZE bytes); an AUX area mapped read-only
   (overwrite mode) has an aux_head that the kernel keeps inside the ring.
   Every function takes the head modulo the ring size, so both work.  */
#ifndef PERF_RING_H
#define PERF_RING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct perf_event_mmap_page;

/* A view of one ring: SIZE bytes at BASE, SIZE a power of two.  */
struct perf_ring {
	const uint8_t *base;
	size_t size;
};

/* What a trace source holds right now.  */
struct perf_ring_status {
	size_t size;       /* the ring's size in bytes */
	size_t held;       /* bytes of trace it holds (<= size) */
	int wrapped;       /* older trace has been overwritten */
};

/* Point RING at the data area of MAP (MAP_LEN bytes, starting with the
   perf_event_mmap_page): data_offset/data_size when the page is new enough
   to have them, else everything after the first page of PAGE_SIZE.  */
int perf_ring_data(struct perf_ring *ring, const void *map, size_t map_len,
		   size_t page_size);

/* The kernel's heads, read with the barrier perf_event_open(2) asks for.  */
uint64_t perf_ring_data_head(const struct perf_event_mmap_page *pg);
uint64_t perf_ring_aux_head(const struct perf_event_mmap_page *pg);

/* Copy the LEN bytes that end at HEAD to OUT, in order, across the wrap.
   LEN must not exceed the ring's size.  */
int perf_ring_copy(const struct perf_ring *ring, uint64_t head, void *out,
		   size_t len);

/* Bytes a free-running HEAD has left in RING: min(HEAD, size).  */
size_t perf_ring_fill(const struct perf_ring *ring, uint64_t head);

/* Bytes of trace in an overwrite-mode AUX ring whose head wraps inside
   it.  The kernel hands out zeroed AUX pages and the hardware writes
   forward from the head, so anything non-zero after the head is an older
   lap's trace: then the whole ring holds trace.  (Zero is PT's PAD
   packet, so trimming zeroes never loses trace.)  */
size_t perf_ring_fill_overwrite(const struct perf_ring *ring, uint64_t head);

/* The number of pages to ask for to hold BYTES: rounded up to whole
   pages, at least one, then up to a power of two (the kernel wants it).
   0 when that does not fit in a size_t.  */
size_t perf_ring_pages(size_t bytes, size_t page_size);

/* Read the record (perf_event_header first) that starts at *POS, a
   position no older than HEAD minus the ring size, into OUT (at most MAX
   bytes; a longer record is cut) and advance *POS past it.  Returns the
   record's size, 0 when *POS has reached HEAD, -pse_range when *POS was
   already overwritten, -pse_invalid for a header that does not fit.  */
int perf_ring_next_record(const struct perf_ring *ring, uint64_t *pos,
			  uint64_t head, void *out, size_t max);

/* The kernel side that PT and BTS share: opening the event, and saying
   why that failed.  */
struct perf_event_attr;

/* perf_event_open(2) for thread TID on any cpu, close-on-exec: the fd, or
   -pse_io with errno kept.  */
int perf_event_open_thread(struct perf_event_attr *attr, pid_t tid);

/* /proc/sys/kernel/perf_event_paranoid, or -pse_io (errno set).  */
int perf_event_paranoid_level(void);

/* Describe the failure ERRNUM of perf_event_open in REASON, in
   gdbserver's words (SHORT_FORM 0) or as a probe's one-liner
   "perf_event_open: TEXT[ (perf_event_paranoid=N)]".  Returns the
   matching -pse_ code.  */
int perf_event_explain(int errnum, int short_form, char *reason,
		       size_t len);

#endif
