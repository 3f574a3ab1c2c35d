/* BTS-style branch trace of one thread: a bounded ring of blocks, each
   the first and last address of instructions run in sequence, oldest
   first (the last one is the instruction before the next taken branch
   or interruption).  */
#ifndef NAT_EMU_EMU_BTS_H
#define NAT_EMU_EMU_BTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct emu_bts_block {
	uint64_t begin;
	uint64_t end;
};

/* GDB sizes BTS buffers in bytes of 24-byte perf records.  */
enum { emu_bts_record_size = 24 };

struct emu_bts {
	struct emu_bts_block *blocks;
	size_t cap;
	uint64_t count;       /* blocks ever closed */
	uint64_t read_mark;   /* count at the last read */
	uint64_t begin;       /* start of the open block */
	bool open;
};

/* Room for SIZE bytes' worth of records (at least one block).  */
int emu_bts_init(struct emu_bts *bts, size_t size);
void emu_bts_fini(struct emu_bts *bts);

/* Execution (re)starts at IP: opens a block unless one is open.  */
void emu_bts_start(struct emu_bts *bts, uint64_t ip);

/* The open block ends with the instruction at LAST (a taken branch, or
   the last instruction run before an interruption).  */
void emu_bts_close(struct emu_bts *bts, uint64_t last);

/* The open block is abandoned (the interruption came at its start).  */
void emu_bts_drop(struct emu_bts *bts);

/* Blocks still held (oldest first) or new since the last read, copied
   into a malloc'd array *OUT; returns their count.  -pse_range for NEW
   if some were overwritten.  */
long emu_bts_read(struct emu_bts *bts, bool only_new,
		  struct emu_bts_block **out);

#endif
