/* The trace vocabulary the stub's layers share: a BTS block, the cpu a
   trace was recorded on, the trace formats, and a growable list of
   blocks.  The native layer, the emulator, the XML writers and the
   server all speak these types, so a trace crosses layers without being
   copied from one type into another.  A leaf: it includes nothing of
   the project's.  */
#ifndef COMMON_TRACE_H
#define COMMON_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* A run of sequential instructions: the address of its first and of its
   last instruction.  */
struct trace_block {
	uint64_t begin;
	uint64_t end;
};

/* The cpu a PT trace was recorded on, for the decoder's errata.  An empty
   vendor means unknown: no <cpu> element is written, which is what
   gdbserver does for every vendor but Intel.  */
struct trace_cpu {
	char vendor[16];        /* the CPUID string, e.g. "GenuineIntel" */
	unsigned int family;
	unsigned int model;
	unsigned int stepping;
};

/* The formats of branch trace, as btrace-conf.dtd names them.  */
enum trace_format {
	trace_format_none,
	trace_format_bts,
	trace_format_pt,
};

/* A growable array of blocks, in execution order (oldest first).  */
struct trace_blocks {
	struct trace_block *block;
	size_t len;
	size_t cap;
};

void trace_blocks_init(struct trace_blocks *blocks);
void trace_blocks_fini(struct trace_blocks *blocks);
void trace_blocks_reset(struct trace_blocks *blocks);

/* Make room for N more blocks; 0 or -pse_nomem.  */
int trace_blocks_reserve(struct trace_blocks *blocks, size_t n);
int trace_blocks_push(struct trace_blocks *blocks, uint64_t begin,
		      uint64_t end);

#endif
