/* The code-cache engine's insides, shared by its parts (cc.h says what
   the engine does): the cache's state, the layout of its mappings in
   the inferior, and the calls one part makes into another.  cc.c owns
   the state and the mappings, cc_drain.c turns logs into trace,
   cc_enter.c moves a thread into the cache and back to original IPs,
   cc_stop.c handles the stops of a thread in the cache, cc_link.c
   links blocks and translates ahead.  Internal to these files.  */
#ifndef NAT_EMU_CC_INT_H
#define NAT_EMU_CC_INT_H

#include "nat/emu/cc.h"
#include "nat/emu/cc_blocks.h"
#include "nat/emu/cc_xlate.h"
#include "nat/emu/emu_rec.h"
#include "nat/emu/emu_thread.h"
#include "common/ps_error.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <time.h>

/* Code chunks are mapped near the code they copy (RIP-relative operands
   must reach), each with a SYSCALL; INT3 at its start for later
   injections.  */
enum { cc_chunk_size = 4 << 20, cc_chunk_head = 16, cc_max_chunks = 64 };
/* Per-thread data: the control page and lookup table (cc_xlate.h), the
   log, a guard page.  */
enum { cc_page = 4096, cc_log_default = 1 << 20,
       cc_log_off = cc_ctl_table1 + cc_table_size * 16 };

/* Where per-thread data goes: far below the kernel's top-down mmaps
   (their base is within 1 TiB below 0x7fffffffffff) and far above the
   heap, so that the program's own mappings are not moved.  */
#define cc_data_hint 0x7e0000000000ull

struct cc_chunk {
	uint64_t addr, used;
	uint8_t *local;      /* ptstub's shared view of it, or NULL */
};

/* A data mapping kept for a new thread.  */
struct cc_spare {
	uint64_t addr;
	uint8_t *local;
};

/* Pages of original code kept while a batch of blocks is translated
   (cc_batch).  */
enum { cc_code_pages = 16 };
struct cc_code_page {
	uint64_t addr;   /* 0: none */
	uint8_t bytes[cc_page];
};

/* One thread's part of the cache: its data mapping (the translated
   code is shared by all), where its log stands, what it ran there and
   why it no longer enters, if it does not.  */
struct cc_thread {
	pid_t tid;
	uint64_t data;       /* control page; the log follows (0: none) */
	uint8_t *local;      /* ptstub's shared view of DATA, or NULL */
	uint64_t cur_ip;     /* the block the undrained log starts in */
	uint64_t skip;       /* an IP not to enter at, once */
	const char *fallback;
	struct emu_cache_status st; /* its own counts (blocks etc. stay 0) */
};

struct cc {
	struct emu *emu;
	struct cc_chunk chunks[cc_max_chunks];
	size_t nchunks;
	uint64_t syscall_at;           /* in the first chunk */
	struct cc_blocks bs;
	uint8_t *logbuf;               /* a drained log */
	uint8_t *xcode;                /* a block being translated */
	struct cc_thread **threads;    /* by tid, those that entered */
	size_t nthreads, cap;
	/* Data mappings of threads that ended, for new threads: a thread
	   that ends cannot unmap its own.  */
	struct cc_spare *spare;
	size_t nspare, sparecap;
	/* A flush waits while other threads run translations: nothing is
	   translated or entered until the last one has left.  */
	bool flush_pending;
	uint64_t sites_sig;            /* others' int3s at translation */
	const char *fallback;          /* the whole process's */
	size_t log_size;               /* bytes of log per thread */
	/* The process's counts (blocks, bytes, times, flushes, threads),
	   and the threads' own of those dropped (cc_status adds the live
	   ones').  */
	struct emu_cache_status st;
	/* Cache addresses cc_on_site made int3s (until the next flush).  */
	uint64_t *patches;
	size_t npatches, patchcap;
	/* A batch of translations runs (no code changes meanwhile: the
	   thread that asked is stopped): code is read by the page.  */
	bool batch;
	struct cc_code_page pages[cc_code_pages];
	size_t npages;
};

/* Small and on every drain: inline, as they were when one file held
   the engine.  */
static inline uint64_t cc_data_size(const struct cc *cc)
{
	return cc_log_off + cc->log_size + cc_page;
}

static inline uint64_t cc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static inline int cc_peek(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *) addr, len };

	return process_vm_readv(tid, &local, 1, &remote, 1, 0) ==
		(ssize_t) len ? 0 : -pse_fault;
}

static inline int cc_poke(pid_t tid, uint64_t addr, const void *buf,
			  size_t len)
{
	struct iovec local = { (void *) buf, len },
		remote = { (void *) addr, len };

	return process_vm_writev(tid, &local, 1, &remote, 1, 0) ==
		(ssize_t) len ? 0 : -pse_fault;
}

/* LEN bytes at offset OFF of CT's data mapping read or written: in
   ptstub's view of it when it has one (no system call), else through
   thread TID (stopped, or of the same process).  */
static inline int cc_data_read(const struct cc_thread *ct, pid_t tid,
			       uint64_t off, void *buf, size_t len)
{
	if (ct->local) {
		memcpy(buf, ct->local + off, len);
		return 0;
	}
	return cc_peek(tid, ct->data + off, buf, len);
}

static inline int cc_data_write(const struct cc_thread *ct, pid_t tid,
				uint64_t off, const void *buf, size_t len)
{
	if (ct->local) {
		memcpy(ct->local + off, buf, len);
		return 0;
	}
	return cc_poke(tid, ct->data + off, buf, len);
}

/* The direct branches of BLK before its instruction K, and the last
   instruction run before K.  */
static inline void cc_rec_upto(struct emu_thread *th,
			       const struct cc_block *blk, uint16_t k)
{
	for (uint16_t e = 0; e < blk->insns[k].edges; e++)
		emu_rec_edge(th, &blk->edges[e]);
	if (blk->insns[k].prev)
		th->last_exec = blk->insns[k].prev;
}

/* cc.c: a signature of others' int3s (GDB's breakpoints; a block never
   copies one), whether the block at IP may be copied, and the block at
   START, translated now if need be (NULL if it cannot be taken).  */
uint64_t cc_sites_sig(const struct cc *cc);
bool cc_may_copy(void *ctx, uint64_t ip);
/* cc.c: whether someone else's int3 (GDB's breakpoint) is at IP.  */
bool cc_others_site(const struct cc *cc, uint64_t ip);
struct cc_block *cc_block_get(struct cc *cc, pid_t tid, uint64_t start);
/* cc.c: LEN bytes of code written at ADDR of the cache (through
   ptstub's view of its chunk where it has one: a 4-byte write there is
   one store, which threads running the code see whole).  */
int cc_code_write(struct cc *cc, uint64_t addr, const void *buf, size_t len);
/* cc.c: whether cc_on_site made an int3 at cache address CACHE.  */
bool cc_patched(const struct cc *cc, uint64_t cache);
/* cc.c: a batch of translations begins (ON) or ends.  */
void cc_batch(struct cc *cc, bool on);
/* cc.c: the thread's entry (made if need be: NULL if out of memory),
   and its data mapping (control page, log, guard page), made through it
   (stopped) if need be.  */
struct cc_thread *cc_thread_find(const struct cc *cc, pid_t tid);
struct cc_thread *cc_thread_get(struct cc *cc, pid_t tid);
int cc_thread_data(struct cc *cc, struct cc_thread *ct);
/* cc.c: whether a thread other than SELF runs translations (or stopped
   in them, its stop not handled yet).  */
bool cc_others_inside(const struct cc *cc, const struct emu_thread *self);
/* cc.c: forget the translations now if no thread but SELF (NULL: none)
   runs them, else once the last has left; false while one waits.  */
bool cc_flush_for(struct cc *cc, const struct emu_thread *self);

/* cc_link.c: point way W of BLK at TO (false if it cannot be done now:
   other threads may run the jump, ALONE false, and only a 4-byte
   displacement within one cache line can change under them); name
   ORIG's block CACHE in the thread's table (HOT: ORIG was just looked
   up, else a guess, which takes only a free slot); the block at START
   translated now if need be, with up to cc_ahead_blocks of what it
   reaches, linked (NULL if it cannot be taken).  */
enum { cc_ahead_blocks = 32 };
bool cc_link(struct cc *cc, const struct cc_block *blk, uint8_t w,
	     const struct cc_block *to, bool alone);
int cc_table_put(const struct cc_thread *ct, uint64_t orig, uint64_t cache,
		 bool hot);
struct cc_block *cc_block_ahead(struct cc *cc, struct cc_thread *ct,
				uint64_t start);

/* cc_drain.c: turn the thread's log into trace, and empty it; false if
   it could not be read or does not fit the blocks.  */
bool cc_drain(struct cc *cc, struct cc_thread *ct, struct emu_thread *th);
/* The same through thread TID (the thread's memory is the process's):
   for a thread already gone.  */
bool cc_drain_via(struct cc *cc, struct cc_thread *ct, struct emu_thread *th,
		  pid_t tid);

/* cc_enter.c: where a thread stopped at cache address IP stands in
   original terms (the trace up to there recorded, the glue it was in
   finished, *ORIG the original IP of the next instruction); leaving the
   cache at ORIG.  */
bool cc_settle(struct cc *cc, struct cc_thread *ct, struct emu_thread *th,
	       struct user_regs_struct *regs, uint64_t ip, uint64_t *orig);
void cc_leave(struct emu_thread *th, struct user_regs_struct *regs,
	      uint64_t orig);

#endif
