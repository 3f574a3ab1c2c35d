/* What the code-cache engine did for one thread or a whole process,
   and why it does not run there: one type from the engine (cc_status)
   through the emulator's status to `monitor btrace status`, so a count
   added to the engine reaches the user without a copy per layer.  */
#ifndef NAT_EMU_EMU_CACHE_STATUS_H
#define NAT_EMU_EMU_CACHE_STATUS_H

#include <stdint.h>

struct emu_cache_status {
	uint64_t entries;      /* times a thread was sent into the cache */
	/* Exits that stopped the thread (traps), by cause: an exit linked
	   to a block translated then (links), a return or indirect branch
	   not in the table (misses), an instruction the cache leaves for
	   the ptrace engine, a system call most often (leaves).  */
	uint64_t traps, links, misses, leaves;
	uint64_t fills;        /* log-full faults */
	uint64_t branches;     /* conditional branches logged */
	uint64_t insns;        /* instructions run in the cache */
	uint64_t signals;      /* other stops of a thread in the cache */
	uint64_t blocks;       /* blocks translated */
	uint64_t bytes;        /* code bytes translated */
	uint64_t xlate_ns;     /* time spent translating */
	uint64_t drain_ns;     /* time spent turning logs into trace */
	uint64_t flushes;
	uint64_t threads;      /* threads that entered it */
	const char *fallback;  /* why it is off, or NULL */
	/* With a thread: why the whole process is off, apart from why the
	   thread is (FALLBACK).  */
	const char *process_fallback;
};

#endif
