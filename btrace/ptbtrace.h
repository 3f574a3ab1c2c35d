/* libptbtrace: client-side branch trace (Intel PT, BTS) for reverse
   debugging and trace inspection without GDB.

   It builds on the trace bundle (ptbundle.h, libptbundle's header,
   installed beside this one: the error codes, the diagnostics and the
   bundle's types and codec).  The decoding objects are opaque here;
   their internals live in the library's own headers.

   Every function returns 0 (or a count) on success and a negative
   bt_error_code on failure.  */
#ifndef PTBTRACE_H
#define PTBTRACE_H

/* Beside this header, in the tree and installed.  */
#include "ptbundle.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header (the package's, configure.ac's AC_INIT);
   ptbtrace_version() says which library a program runs with.  The
   soname's number changes only when the ABI does.  */
#define PTBTRACE_VERSION_MAJOR 0
#define PTBTRACE_VERSION_MINOR 1
#define PTBTRACE_VERSION_PATCH 0
#define PTBTRACE_VERSION "0.1.0"

/* The library's version, "MAJOR.MINOR.PATCH".  */
const char *ptbtrace_version(void);


/* ---- A bundle from elsewhere ---------------------------------------------
   Built on ptbundle.h's bundle: a trace spanning an exec, a live stub.  */

/* A selected thread's trace that spans an exec (bt_exec_span.c).  */
struct bt_exec_span {
	size_t nexecs;            /* execs inside the trace, 0 if cut */
	const char *first_path;   /* the first of them's new program */
	const char *path;         /* the last one's */
	uint64_t cut;             /* units cut off before the last, or 0 */
	struct bt_mapping *mappings;          /* the image's, owned */
	const struct bt_mapping *saved;       /* the bundle's own */
	size_t nsaved;
	uint8_t *trace;           /* PT cut: the trace, owned */
	size_t trace_size;
	const uint8_t *saved_trace;
	size_t saved_size;
	struct bt_pages *pages;               /* with older vDSOs, owned */
	const struct bt_pages *saved_pages;   /* the bundle's own */
	size_t nsaved_pages;
};

/* When BUNDLE's selected trace spans an exec its side-band places, let
   the code of the program(s) before it join BUNDLE's mappings, or, if
   that code overlaps other code at the same addresses, cut the trace
   before the last such exec (SPAN->cut).  1 when it did either, 0 when
   the trace spans no exec.  bt_exec_span_undo before bt_bundle_fini.  */
int bt_exec_span_apply(struct bt_bundle *bundle, struct bt_exec_span *span);
void bt_exec_span_undo(struct bt_bundle *bundle, struct bt_exec_span *span);

/* Read the stopped thread's trace from the stub at HOSTPORT ("HOST:PORT")
   with GDB's packets, enabling tracing (and disabling it again) if it was
   off, into BUNDLE; the mapped files are taken from this machine.  */
int bt_live_load(struct bt_bundle *bundle, const char *hostport,
		 struct bt_diag *diag);



/* ---- GDB's btrace documents ---------------------------------------------
   What a stub sends for qXfer:btrace:read and qXfer:btrace-conf:read
   (GDB's btrace.dtd, btrace-conf.dtd), to build a bundle from a live stub.
   Errors name the element or text, its line, and the byte offset.  */

struct bt_xml_btrace {
	enum bt_format format;    /* btf_none for an empty <btrace/> */
	struct bt_cpu cpu;
	/* PT: the raw trace.  BTS: 16-byte records as in a bundle.  */
	uint8_t *trace;
	size_t trace_size;
};

int bt_xml_parse_btrace(const char *xml, size_t len,
			struct bt_xml_btrace *trace, struct bt_diag *diag);
void bt_xml_btrace_fini(struct bt_xml_btrace *trace);

/* The format (btf_none if the configuration is empty) and buffer size.  */
int bt_xml_parse_conf(const char *xml, size_t len, enum bt_format *format,
		      uint32_t *size, struct bt_diag *diag);


/* ---- The memory image ----------------------------------------------------

   The traced process's code, rebuilt from a bundle's mappings, with
   symbols (libelf) and source lines (libdw).  */

struct bt_image;

/* A function symbol, as GDB would name it.  */
struct bt_symbol {
	const char *name;         /* the ELF (minimal) symbol, or NULL */
	const char *dwarf_name;   /* the DWARF function, or NULL */
	const char *file;         /* the DWARF function's file as GDB shows it */
	uint64_t address;         /* the ELF symbol's run-time address */
	uint64_t size;
};

/* BUNDLE must outlive IMAGE (page copies and paths stay in it).  */
int bt_image_alloc(struct bt_image **image, const struct bt_bundle *bundle,
		   struct bt_diag *diag);

/* The same, separate debug files looked for under GDB's
   debug-file-directory DEBUG_DIR (NULL: /usr/lib/debug; "": none).  */
int bt_image_alloc_in(struct bt_image **image, const struct bt_bundle *bundle,
		      const char *debug_dir, struct bt_diag *diag);
void bt_image_free(struct bt_image *image);

/* Fill SYM for the function containing PC; -bte_notfound if none.  */
int bt_image_symbol(const struct bt_image *image, uint64_t pc,
		    struct bt_symbol *sym);

/* The source line of PC and its file as GDB shows it; -bte_notfound.  */
int bt_image_line(const struct bt_image *image, uint64_t pc, int *line,
		  const char **file);

/* Read SIZE bytes of code at ADDRESS; returns the count read (may be short
   at the end of a mapping) or -bte_notfound.  */
int bt_image_read(const struct bt_image *image, uint64_t address,
		  void *buffer, size_t size);

/* The length of the instruction at ADDRESS (64-bit mode).  */
int bt_image_insn_length(const struct bt_image *image, uint64_t address);


/* ---- Function segments ---------------------------------------------------

   The trace decoded into blocks and split into function segments by
   GDB's rules (gdb/btrace.c): a new segment on call, return, and change of
   function; up/prev/next links; levels normalized to start at 0.  */

/* GDB's own codes for gaps that are not decoder errors.  */
enum bt_gap_code {
	btg_pt_user_quit = 1,
	btg_pt_disabled = 2,
	btg_pt_overflow = 3,
	btg_bts_overflow = 1,
	btg_bts_insn_size = 2,
};

enum bt_function_flag {
	btff_up_links_to_ret = 1 << 0,
	btff_up_links_to_tailcall = 1 << 1,
};

/* One function segment.  Numbers count from 1; 0 means "none".  */
struct bt_function {
	uint32_t number;
	uint32_t insn_offset;     /* number of its first instruction */
	uint32_t ninsn;           /* 0 for a gap */
	uint32_t up, prev, next;
	int32_t level;            /* not normalized; add bt_ftrace_level() */
	uint32_t flags;           /* enum bt_function_flag */
	int errcode;              /* non-zero for a gap */
	const char *msym;         /* ELF symbol name, or NULL */
	const char *sym;          /* DWARF function name, or NULL */
	const char *file;         /* DWARF function's file, or NULL */
	uint32_t block_begin;     /* its blocks: [block_begin, +nblocks) */
	uint32_t nblocks;
};

struct bt_ftrace;

/* Decode BUNDLE's trace with IMAGE and build the function segments.
   IMAGE must outlive FTRACE.  */
int bt_ftrace_build(struct bt_ftrace **ftrace, const struct bt_bundle *bundle,
		    const struct bt_image *image, struct bt_diag *diag);

/* Told now and then how far a decode has come: DONE of TOTAL (trace
   bytes for PT, blocks for BTS).  */
typedef void bt_progress_fn(void *ctx, uint64_t done, uint64_t total);

/* bt_ftrace_build, calling PROGRESS (if not NULL) with CTX as it goes.  */
int bt_ftrace_build_progress(struct bt_ftrace **ftrace,
			     const struct bt_bundle *bundle,
			     const struct bt_image *image, struct bt_diag *diag,
			     bt_progress_fn *progress, void *ctx);
void bt_ftrace_free(struct bt_ftrace *ftrace);

size_t bt_ftrace_nfunctions(const struct bt_ftrace *ftrace);

/* Fill FUNCTION with segment NUMBER (1-based); -bte_range if none.  */
int bt_ftrace_function(const struct bt_ftrace *ftrace, uint32_t number,
		       struct bt_function *function);

/* The offset that normalizes levels to start at 0 (GDB's btinfo->level).  */
int bt_ftrace_level(const struct bt_ftrace *ftrace);

/* The number of gaps (decode errors, overflows, disabled tracing).  */
uint32_t bt_ftrace_ngaps(const struct bt_ftrace *ftrace);

enum bt_format bt_ftrace_format(const struct bt_ftrace *ftrace);

/* Bytes of memory the decoded trace uses (blocks, segments, times).  */
size_t bt_ftrace_memory(const struct bt_ftrace *ftrace);

/* Call FN for each block of segment NUMBER in order: its first
   instruction's address and its number of instructions; stops early
   (returning its value) when FN returns non-zero.  */
int bt_ftrace_for_each_block(const struct bt_ftrace *ftrace, uint32_t number,
			     int (*fn)(uint64_t ip, uint32_t ninsn, void *ctx),
			     void *ctx);

/* Call FN for each instruction address of segment NUMBER in order; stops
   early (returning its value) when FN returns non-zero.  */
int bt_ftrace_for_each_insn(const struct bt_ftrace *ftrace, uint32_t number,
			    int (*fn)(uint64_t ip, void *ctx), void *ctx);

/* What `info record` counts: instructions (without the current one),
   functions, gaps.  */
int bt_ftrace_counts(const struct bt_ftrace *ftrace, uint32_t *insns,
		     uint32_t *functions, uint32_t *gaps);


/* ---- Histories -----------------------------------------------------------

   Text exactly as GDB 13.1 prints it.  */

enum bt_call_flag {
	btcf_insn_range = 1 << 0,  /* /i */
	btcf_src_line = 1 << 1,    /* /l */
	btcf_indent = 1 << 2,      /* /c */
};

/* A function-call-history window, as the command's RANGE argument gives it
   (see GDB's `record function-call-history`).  */
enum bt_call_range_kind {
	btcr_default,     /* "" or "+": SIZE segments at the end */
	btcr_backward,    /* "-": the same, looking backward */
	btcr_from,        /* "N" (SIZE), "N,+K", "N,-K": COUNT from N */
	btcr_between,     /* "N,M" */
};

struct bt_call_range {
	enum bt_call_range_kind kind;
	uint64_t begin, end;      /* N, M */
	int64_t count;            /* +K or -K, if has_count; else SIZE */
	int has_count;
};

/* Parse modifiers and RANGE as GDB does ("/ilc 3,+5").  Returns the flags
   (>= 0) or -bte_invalid with DIAG saying why, in GDB's words.  */
int bt_call_history_parse(const char *arg, struct bt_call_range *range,
			  struct bt_diag *diag);

/* Print the window RANGE of FTRACE's call history with FLAGS to OUT;
   SIZE is GDB's function-call-history-size (10 by default).  Messages GDB
   prints as errors come back as -bte_range with DIAG set.  */
int bt_call_history_print(FILE *out, const struct bt_ftrace *ftrace,
			  const struct bt_image *image,
			  const struct bt_call_range *range, int flags,
			  unsigned int size, struct bt_diag *diag);

/* The same as JSON: an array of objects, one per segment.  */
int bt_call_history_print_json(FILE *out, const struct bt_ftrace *ftrace,
			       const struct bt_image *image,
			       const struct bt_call_range *range, int flags,
			       unsigned int size, struct bt_diag *diag);

/* Modifiers of `record instruction-history`.  */
enum bt_insn_flag {
	btif_source = 1 << 0,      /* /m, /s: source lines with file names */
	btif_raw = 1 << 1,         /* /r: the bytes, grouped as GDB does */
	btif_raw_bytes = 1 << 2,   /* /b: the bytes one at a time */
	btif_omit_fname = 1 << 3,  /* /f: no function name in <+off> */
	btif_omit_pc = 1 << 4,     /* /p: no "=> " marker at the pc */
};

/* Parse modifiers and RANGE of `record instruction-history` (the range
   forms are those of the function-call history).  Returns the flags (>= 0)
   or -bte_invalid with DIAG saying why, in GDB's words.  */
int bt_insn_history_parse(const char *arg, struct bt_call_range *range,
			  struct bt_diag *diag);

/* Print the window RANGE of the instruction history with FLAGS; SIZE is
   GDB's instruction-history-size (10 by default).  Instructions at PC (the
   thread's pc, or 0) are marked "=> " as in GDB.  Needs libopcodes.  */
int bt_insn_history_print(FILE *out, const struct bt_ftrace *ftrace,
			  const struct bt_image *image,
			  const struct bt_call_range *range, int flags,
			  unsigned int size, uint64_t pc,
			  struct bt_diag *diag);

/* The same as JSON: an array of objects, one per instruction or gap.  */
int bt_insn_history_print_json(FILE *out, const struct bt_ftrace *ftrace,
			       const struct bt_image *image,
			       const struct bt_call_range *range, int flags,
			       unsigned int size, uint64_t pc,
			       struct bt_diag *diag);

/* ---- The replay cursor --------------------------------------------------
   Where GDB's record-btrace lands for its replay commands on the same
   trace.  The cursor starts at the live end (not replaying).  */

struct bt_replay;

enum bt_replay_cmd {
	btrc_begin,       /* record goto begin */
	btrc_end,         /* record goto end: stop replaying */
	btrc_goto,        /* record goto N */
	btrc_stepi,
	btrc_step,        /* by source line, into calls */
	btrc_next,        /* by source line, over calls */
	btrc_finish,      /* out of the current function */
};

/* FTRACE and IMAGE must outlive REPLAY.  */
int bt_replay_alloc(struct bt_replay **replay, const struct bt_ftrace *ftrace,
		    const struct bt_image *image, struct bt_diag *diag);
void bt_replay_free(struct bt_replay *replay);

/* Move the cursor by CMD (backward if REVERSE; NUMBER for btrc_goto).
   Returns 1, or 0 when it ran into the end of the history (GDB's "No more
   reverse-execution history."), or a negative code with DIAG in GDB's
   words.  */
int bt_replay_move(struct bt_replay *replay, enum bt_replay_cmd cmd,
		   int reverse, uint32_t number, struct bt_diag *diag);

/* The instruction number (0 when not replaying: at the live end) and the
   pc there.  */
int bt_replay_position(const struct bt_replay *replay, uint32_t *number,
		       uint64_t *pc);

/* The trace's packets (PT) or blocks (BTS), for GDB's
   `maint btrace packet-history` and `maint info btrace`.  BUNDLE must
   outlive PACKETS.  */
struct bt_packets;

int bt_packets_alloc(struct bt_packets **packets,
		     const struct bt_bundle *bundle, struct bt_diag *diag);
void bt_packets_free(struct bt_packets *packets);
size_t bt_packets_count(const struct bt_packets *packets);

/* Print the window RANGE ("", "+", "-", "N", "N,M", "N,+K", "N,-K") as
   GDB does without prior history; errors in GDB's words in DIAG.  */
int bt_packet_history_print(FILE *out, const struct bt_packets *packets,
			    const char *range, struct bt_diag *diag);
int bt_packet_history_print_json(FILE *out,
				 const struct bt_packets *packets,
				 const char *range, struct bt_diag *diag);

/* GDB's `maint info btrace`: format, libipt version, packet count.  */
int bt_maint_info_print(FILE *out, const struct bt_packets *packets);

/* ---- Exports ------------------------------------------------------------
   Instructions stand for time (a segment weighs its instruction count)
   unless said otherwise.  */

/* Folded stacks ("main;f;g 7"), one line per distinct call stack, as
   flame graph tools read them.  Gaps are left out.  */
int bt_export_folded(FILE *out, const struct bt_ftrace *ftrace,
		     struct bt_diag *diag);

/* Chrome's trace event format: a complete event per function instance
   (a segment and its continuations).  With TIME's conversion (mult not
   0) and TSC packets in the trace, timestamps are CLOCK_MONOTONIC
   microseconds: an instance runs from its first instruction's time to
   that of the instruction after its last, an instruction having the
   time of the last timing packet before it.  Otherwise (TIME NULL, BTS,
   older bundles) instruction numbers stand for microseconds.  The
   trace's otherData says which ("time": "tsc" or "instructions").  */
int bt_export_chrome(FILE *out, const struct bt_ftrace *ftrace,
		     const struct bt_time *time, int pid, int tid,
		     struct bt_diag *diag);

/* LLDB's intel-pt trace bundle in the folder DIR (created if need be):
   trace.json, the thread's raw trace and copies of the bundle's
   anonymous code, so that LLDB's `trace load DIR/trace.json` opens it,
   and the bundle's TSC conversion if it has one (LLDB's timestamps).
   PT bundles only (-bte_unsupported for BTS).  */
int bt_export_lldb(const char *dir, const struct bt_bundle *bundle,
		   struct bt_diag *diag);

/* The bundle as a perf.data file at PATH that perf decodes with its own
   decoder: PT as an `intel_pt//u` per-thread recording (no timing), BTS
   as branch samples.  Written to a temporary file and renamed, so a
   failure leaves no partial PATH.  */
int bt_export_perf(const char *path, const struct bt_bundle *bundle,
		   struct bt_diag *diag);

/* GDB's text for a gap's code in FORMAT ("overflow", a libipt error).  */
const char *bt_gap_string(enum bt_format format, int errcode);

#ifdef __cplusplus
}
#endif

#endif
