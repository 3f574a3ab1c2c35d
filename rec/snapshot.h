/* A stopped process as a trace bundle: the one snapshot that `monitor
   btrace save` (server/srv_btrace_save.c) and every trigger of `ptstub
   record` (rec_snapshot.c) take.  Through nat/ it reads the traced
   threads' traces and pcs, the memory map (files by reference with
   their build-id, executable anonymous memory such as the vDSO by
   copy), the CPU, the program's path and what turns the TSC into time;
   for a crash also the core: every thread's registers, the writable,
   anonymous and changed memory, the auxiliary vector.  What only the
   recorder knows (the trigger, the side-band, ended threads, --full
   streams) it adds to the bundle itself.  The server reaches rec/
   through this header alone.  */
#ifndef REC_SNAPSHOT_H
#define REC_SNAPSHOT_H

#include "btrace/ptbundle.h"
#include "nat/maps.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct nat_target;
struct nat_process;
struct nat_thread;
struct ps_buf;

struct snapshot_options {
	struct nat_thread *only;  /* this thread's trace, or NULL: every
				     traced thread of the process */
	int format;               /* enum trace_format if every thread
				     has it, or trace_format_none: the
				     first traced thread's */
	int core;                 /* a crash: the core too */
	pid_t signal_tid;         /* core: the thread SIGNAL stopped */
	int signal;
	size_t spare_threads;     /* room after the threads, the caller's */
	size_t spare_mappings;    /* room after the mappings, the caller's */
};

/* What a snapshot took.  BUNDLE's arrays point into the rest; its
   selected thread (pid, tid, pc, trace) is the first.  */
struct snapshot {
	struct bt_bundle bundle;
	struct bt_thread *threads;   /* BUNDLE's, with the spare room */
	struct bt_mapping *mappings; /* BUNDLE's, with the spare room */
	uint64_t *start;          /* per live thread: where its trace starts
				     in all its ring recorded */
	size_t nlive;             /* the threads this snapshot read */

	/* Owned.  */
	struct nat_maps maps;
	struct ps_buf *raw;
	struct bt_bts_block **bts;
	struct bt_pages *pages, *memory;
	struct bt_core_thread *core;
	uint8_t **regs;
	uint8_t *auxv;
	char *exe;
};

/* Take PROC (every thread stopped) as OPTS say into SNAP; TARGET gives
   the time's conversion.  A thread whose trace cannot be read fails it
   (a negative ps_error_code); memory that cannot be read is left out.
   snapshot_fini in either case.  */
int snapshot_take(struct snapshot *snap, const struct nat_target *target,
		  struct nat_process *proc,
		  const struct snapshot_options *opts);
void snapshot_fini(struct snapshot *snap);

/* Encode BUNDLE and write it to PATH whole or not at all (libptbundle's
   one file writer): 0 with *SIZE its bytes, or -pse_nomem,
   -pse_internal (a bundle the encoder refuses) or -pse_io with *SYS the
   errno (0 if no system call failed).  */
int snapshot_write(const struct bt_bundle *bundle, const char *path,
		   size_t *size, int *sys);

/* THREAD's trace as a bundle keeps it, in BT: PT bytes in RAW, or BTS
   blocks newest first in *BTS (malloc'ed); *START is the oldest unit's
   place in all the ring recorded (the recorder's ended threads too).  */
int snapshot_thread_trace(struct nat_thread *thread, struct bt_thread *bt,
			  struct ps_buf *raw, struct bt_bts_block **bts,
			  uint64_t *start);

#endif
