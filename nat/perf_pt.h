/* Intel PT through perf: the intel_pt PMU with an AUX area mapped
   read-only (overwrite mode), set up the way GDB 13.1 does it.  */
#ifndef PERF_PT_H
#define PERF_PT_H

#include "nat/perf_ring.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ps_buf;

/* Where the kernel describes the PMU.  */
#define PERF_PT_PMU_DIR "/sys/bus/event_source/devices/intel_pt"

/* One field of attr.config as a PMU's format/NAME file describes it:
   "config:N" or "config:N-M".  */
struct perf_format_field {
	unsigned int lo;
	unsigned int hi;
};

/* Parse the text of a format file.  -pse_invalid for anything else
   (config1/config2 fields included: PT's are all in config).  */
int perf_format_parse(const char *text, struct perf_format_field *field);

/* Put VALUE into FIELD of *CONFIG; -pse_range when it does not fit.  */
int perf_format_set(const struct perf_format_field *field, uint64_t value,
		    uint64_t *config);

/* Read PMU_DIR/format/NAME; -pse_notfound when the PMU lacks it.  */
int perf_format_read(const char *pmu_dir, const char *name,
		     struct perf_format_field *field);

/* Whether PT can be used: 0, or negative with REASON (LEN bytes) saying
   why not, e.g. "no intel_pt PMU (/sys/.../intel_pt missing)" or
   "perf_event_open: Permission denied (perf_event_paranoid=3)".
   perf_pt_probe_at takes the PMU directory, for tests.  */
int perf_pt_probe(char *reason, size_t len);
int perf_pt_probe_at(const char *pmu_dir, char *reason, size_t len);

struct perf_pt {
	int fd;
	struct perf_event_mmap_page *header;   /* the user page */
	size_t header_len;
	struct perf_ring aux;                  /* the read-only AUX area */
	uint64_t last_head;                    /* aux_head at the last read */
	int owned;                             /* we mapped them: unmap */
	size_t page_size;
	/* Why the last open failed, in gdbserver's words (the text of its
	   "E." reply to Qbtrace:pt).  */
	char reason[256];
};

void perf_pt_init(struct perf_pt *pt);

/* Start tracing thread TID into an AUX area of SIZE bytes, rounded up to
   a power of two pages and halved until the kernel grants it.  -pse_perm
   or -pse_unsupported or -pse_io with pt->reason set.  */
int perf_pt_open(struct perf_pt *pt, pid_t tid, size_t size);

/* Use an already mapped user page and AUX area without owning them (a
   synthetic ring in tests, or a caller-managed mapping).  */
int perf_pt_attach(struct perf_pt *pt, struct perf_event_mmap_page *header,
		   const void *aux, size_t aux_size);

/* Append the trace, oldest byte first, to OUT.  ONLY_NEW appends nothing
   when aux_head has not moved since the last read (GDB's "new" read).  */
int perf_pt_read(struct perf_pt *pt, struct ps_buf *out, int only_new);

void perf_pt_status(const struct perf_pt *pt, struct perf_ring_status *st);

/* The AUX size granted (the btrace-conf size); 0 when closed.  */
size_t perf_pt_size(const struct perf_pt *pt);

/* Stop tracing and release everything; safe to call twice.  */
void perf_pt_close(struct perf_pt *pt);

#endif
