/* BTS-style branch trace of one thread: a bounded ring of blocks, each
   the first and last address of instructions run in sequence, oldest
   first (the last one is a taken branch, or the instruction before an
   interruption that moved the thread elsewhere).

   A stop that leaves the thread where it was (a breakpoint, a step, a
   signal it resumes from) is no branch: the open block is paused there
   and goes on when the thread resumes at the same place, as hardware
   BTS sees it.  Reads can end the trace at that stop, as GDB expects of
   BTS (the newest block ends at the current pc).  */
#ifndef NAT_EMU_EMU_BTS_H
#define NAT_EMU_EMU_BTS_H

#include "common/trace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* GDB sizes BTS buffers in bytes of 24-byte perf records.  */
enum { emu_bts_record_size = 24 };

/* The annexes of qXfer:btrace:read, in gdbserver's meaning.  */
enum emu_bts_read_type {
	emu_bts_read_all,    /* every block held */
	emu_bts_read_new,    /* all of them if anything ran since the last
				read, else none */
	emu_bts_read_delta,  /* the blocks since the last read, the oldest
				one (the block the last read ended in)
				with begin 0 */
	emu_bts_read_copy,   /* as all, but not a read for "new" and
				"delta" (a trace bundle saved meanwhile) */
};

struct emu_bts {
	struct trace_block *blocks;
	size_t cap;
	uint64_t count;       /* blocks ever closed */
	uint64_t begin;       /* start of the open block */
	bool open;
	bool paused;          /* the open block waits at STOP */
	uint64_t stop;        /* where the thread stopped (not run) */
	uint64_t last;        /* the last instruction run in the open
				 block before STOP; 0: none or unknown */

	uint64_t events;      /* changes of the above, for "new" */

	/* What the last read saw, for "new" and "delta".  */
	bool read_once;
	uint64_t mark_count;
	uint64_t mark_events;
	bool mark_paused;     /* it ended in a block paused at a stop */
	bool mark_open;       /* that block is still the open one */
	bool mark_broken;     /* that block did not go on from its stop */
};

/* Room for SIZE bytes' worth of records (at least one block).  */
int emu_bts_init(struct emu_bts *bts, size_t size);
void emu_bts_fini(struct emu_bts *bts);

/* Execution (re)starts at IP: opens a block unless one is open.  A
   paused block goes on if IP is where it stopped; else it ends with
   the last instruction run in it.  */
void emu_bts_start(struct emu_bts *bts, uint64_t ip);

/* The open block ends with the instruction at LAST (a taken branch, or
   the last instruction run before an interruption).  */
void emu_bts_close(struct emu_bts *bts, uint64_t last);

/* The open block is abandoned (the emulator lost track).  */
void emu_bts_drop(struct emu_bts *bts);

/* The thread stopped at IP (not run); PREV is the instruction run
   before it (0 if unknown).  */
void emu_bts_pause(struct emu_bts *bts, uint64_t ip, uint64_t prev);

/* Blocks per TYPE, oldest first, copied into a malloc'd array *OUT;
   returns their count.  TO_STOP: a paused block ends at the stop (GDB's
   view of BTS) rather than at the last instruction run (the oracle's).
   Delta: -pse_range if some were overwritten, -pse_unsupported when
   the last read's end cannot be continued (no read yet, or the thread
   went on elsewhere); GDB then reads "new".  */
int emu_bts_read(struct emu_bts *bts, enum emu_bts_read_type type,
		 bool to_stop, struct trace_blocks *out);

#endif
