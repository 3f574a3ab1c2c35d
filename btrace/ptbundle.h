/* libptbundle: the trace bundle, the one file format the stub, the
   recorder and the client library share: its types, the codec, the
   checks on load and the one atomic file writer.

   Installed with libptbtrace, whose header includes this one: the
   library exports these functions.  The stub links libptbundle alone,
   so this header needs only libc; the layout on disk is
   bt_bundle_format.h's.  Every function returns 0 (or a count) on
   success and a negative bt_error_code on failure.  */
#ifndef PTBUNDLE_H
#define PTBUNDLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The codes of libptbundle and of libptbtrace on it.  */
enum bt_error_code {
	bte_ok,
	bte_internal,      /* a bug in libptbtrace */
	bte_invalid,       /* a bad argument */
	bte_nomem,
	bte_io,            /* a system call failed; errno says more */
	bte_bad_magic,     /* not a trace bundle */
	bte_bad_version,   /* a bundle version this reader does not know */
	bte_truncated,     /* the data ends early */
	bte_bad_checksum,  /* the bundle's checksum does not match */
	bte_bad_record,    /* a malformed record inside a bundle */
	bte_bad_xml,       /* malformed btrace or btrace-conf XML */
	bte_bad_elf,       /* an ELF file that cannot be used */
	bte_decode,        /* the trace decoder failed */
	bte_no_trace,      /* there is no trace to work on */
	bte_range,         /* a number or range out of bounds */
	bte_notfound,      /* no such object (file, symbol, segment) */
	bte_unsupported,   /* not supported by this build or format */
};

/* A short text for CODE (negative or not); never NULL.  */
const char *bt_errstr(int code);

/* Where and why an input was rejected, for the user.  */
struct bt_diag {
	uint64_t offset;   /* byte offset in the input, if has_offset */
	int has_offset;
	char text[256];
};

void bt_diag_init(struct bt_diag *diag);

/* Set DIAG (if not NULL) and return -CODE.  */
int bt_diag_set(struct bt_diag *diag, int code, int has_offset,
		uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Print DIAG as one line "PREFIX: at offset 0xN: TEXT" to OUT.  */
void bt_diag_print(const struct bt_diag *diag, const char *prefix,
		   FILE *out);


/* ---- The trace bundle ----------------------------------------------------

   What `monitor btrace save FILE` and `ptstub record` write: the raw
   traces with everything needed to decode them away from the traced
   process.  The layout is in bt_bundle_format.h (all integers
   little-endian).  */

enum bt_format {
	btf_none,
	btf_bts,
	btf_pt,
};

enum bt_cpu_vendor {
	btv_unknown,
	btv_intel,
};

struct bt_cpu {
	uint32_t vendor;   /* enum bt_cpu_vendor */
	uint16_t family;
	uint8_t model;
	uint8_t stepping;
};

/* A file-backed mapping: SIZE bytes of PATH from OFFSET at ADDRESS.  */
struct bt_mapping {
	uint64_t address;
	uint64_t size;
	uint64_t offset;
	uint32_t prot;            /* PROT_READ | PROT_WRITE | PROT_EXEC */
	const char *path;
	const uint8_t *build_id;  /* NULL if none */
	size_t build_id_size;
};

/* A copy of anonymous executable memory (e.g. the vDSO).  */
struct bt_pages {
	uint64_t address;
	uint64_t size;
	uint32_t prot;
	const char *name;         /* "[vdso]", or "" */
	const uint8_t *bytes;     /* SIZE bytes */
};

/* A BTS branch record, as in GDB's btrace XML <block begin end>.  */
struct bt_bts_block {
	uint64_t begin;
	uint64_t end;
};

/* Version 2: one traced thread of several.  */
struct bt_thread {
	int32_t tid;
	int has_pc;
	uint64_t pc;
	const uint8_t *trace;     /* as bt_bundle's trace */
	size_t trace_size;
	uint64_t lost;            /* trace bytes (PT) or blocks (BTS) that
				     were recorded but not kept */
	int ended;                /* it had exited before the snapshot */
};

/* Version 3: what turns the trace's TSC packets into time, as perf's
   perf_event_mmap_page gives it: ns = zero + (tsc >> shift) * mult +
   (((tsc & ((1 << shift) - 1)) * mult) >> shift), in CLOCK_MONOTONIC's
   nanoseconds.  */
struct bt_time {
	uint64_t zero;
	uint32_t mult;            /* 0: the bundle has no time */
	uint16_t shift;
};

/* TSC in TIME's nanoseconds.  */
uint64_t bt_time_ns(const struct bt_time *time, uint64_t tsc);

/* Threads that ended before a recorder's snapshot: their last ring's
   worth is kept within BUDGET bytes of trace in all, the oldest ended
   threads dropped first (DROPPED of them, DROPPED_BYTES of trace).  */
struct bt_ended {
	uint64_t budget;          /* 0: the bundle says nothing */
	uint32_t dropped;
	uint64_t dropped_bytes;
};

/* Why a bundle was written.  */
enum bt_trigger_kind {
	btt_none,
	btt_save,         /* `monitor btrace save` */
	btt_request,      /* SIGUSR2 sent to the recorder */
	btt_signal,       /* the program died of SIGNAL in thread TID */
	btt_function,     /* thread TID entered function NAME at ADDRESS */
	btt_exit,         /* the program exited (--at-exit) */
	btt_full,         /* the end of a --full recording */
};

struct bt_trigger {
	uint32_t kind;            /* enum bt_trigger_kind */
	int32_t tid;              /* the thread it happened in, or 0 */
	int32_t signal;           /* btt_signal: the host signal number */
	uint32_t sequence;        /* the snapshot's number, from 0 */
	uint64_t address;         /* btt_function: its entry */
	const char *name;         /* btt_function: its name; else "" */
};

/* A crash bundle's core: one thread's registers, an opaque image for
   the stub that wrote it (ptstub: amd64 GPRs, XCR0, XSAVE area).  */
struct bt_core_thread {
	int32_t tid;
	int32_t signal;           /* the signal it stopped with, or 0 */
	const uint8_t *regs;
	size_t regs_size;
};

/* A change of the address space, in the order it happened.  */
enum bt_sideband_kind {
	bts_exec = 1,     /* PATH became the program; mappings start over */
	bts_map,          /* a mapping appeared */
	bts_unmap,        /* ADDRESS, SIZE went away */
};

/* A bts_exec event's ADDRESS, with SIZE 1, is where the new program
   starts in thread TID's trace in the bundle: PT, the byte offset of the
   first packet after the old program's last; BTS, the index of the new
   program's first block counted from the oldest.  SIZE 0: the exec is
   not in that trace (it came before, or was not placed).  */
struct bt_sideband {
	uint32_t kind;            /* enum bt_sideband_kind */
	int32_t tid;
	uint64_t address, size, offset;
	uint32_t prot;
	const char *path;         /* "" if none */
	const uint8_t *build_id;
	size_t build_id_size;
};

struct bt_bundle {
	enum bt_format format;
	struct bt_cpu cpu;
	uint32_t buffer_size;     /* the trace buffer size asked for */
	int32_t pid;
	int32_t tid;
	uint64_t pc;              /* where the thread stopped, if has_pc */
	int has_pc;

	/* PT: the raw packet stream.  BTS: an array of struct bt_bts_block,
	   newest first as in GDB's XML.  */
	const uint8_t *trace;
	size_t trace_size;

	const struct bt_mapping *mappings;
	size_t nmappings;
	const struct bt_pages *pages;
	size_t npages;

	/* Version 2; all empty in a version 1 bundle.  The fields above
	   (pid, tid, pc, trace) are the selected thread's: the trigger's
	   thread when the bundle names one, else the first.  A writer may
	   leave THREADS empty: the fields above are then its one thread.  */
	const struct bt_thread *threads;
	size_t nthreads;
	struct bt_trigger trigger;
	const char *exe;          /* the program's path, or NULL */
	const struct bt_core_thread *core_threads;
	size_t ncore_threads;
	const struct bt_pages *core_pages;   /* writable, anonymous memory */
	size_t ncore_pages;
	const uint8_t *auxv;
	size_t auxv_size;
	const struct bt_sideband *sideband;
	size_t nsideband;
	struct bt_ended ended;
	struct bt_time time;      /* version 3 */

	/* Owned by the reader; the pointers above point into it.  */
	void *storage;
};

/* The bundle version this library writes; it reads this one down to
   1.  */
#define BT_BUNDLE_VERSION 3
#define BT_BUNDLE_VERSION_MIN 1

/* Make thread TID (one of BUNDLE's threads) the selected one: pid, tid,
   pc and trace then describe it.  -bte_notfound if there is none.  */
int bt_bundle_select_thread(struct bt_bundle *bundle, int32_t tid);

/* The trigger's name: "save", "request", "signal", "function", "exit",
   "full", or "none".  */
const char *bt_trigger_name(uint32_t kind);

/* Encode BUNDLE into a malloc'ed buffer *DATA of *SIZE bytes.
   Needs libc only (bt_bundle_write.c).  */
int bt_bundle_encode(const struct bt_bundle *bundle, uint8_t **data,
		     size_t *size);

/* Encode BUNDLE into the file PATH, whole or not at all: written to a
   new file beside PATH, synced and renamed over it (a device or FIFO is
   written in place).  -bte_io with errno saying why.  */
int bt_bundle_write_file(const struct bt_bundle *bundle, const char *path);

/* The checksum a bundle carries: CRC-32 (IEEE 802.3) of DATA.  */
uint32_t bt_bundle_crc32(uint32_t crc, const void *data, size_t size);

/* Parse and validate SIZE bytes at DATA into BUNDLE, copying what it keeps.
   On failure, DIAG names the byte offset and what is wrong.  */
int bt_bundle_parse(struct bt_bundle *bundle, const void *data, size_t size,
		    struct bt_diag *diag);

/* Read and parse the file PATH.  */
int bt_bundle_load(struct bt_bundle *bundle, const char *path,
		   struct bt_diag *diag);

/* Release what the reader allocated; BUNDLE is zeroed.  */
void bt_bundle_fini(struct bt_bundle *bundle);

#ifdef __cplusplus
}
#endif

#endif
