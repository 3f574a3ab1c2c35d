/* The code-cache translator: one block of original code copied for the
   code cache, with its exits.  A block runs from a start address along
   direct jumps and calls (a call's copy pushes the original return
   address) to the first conditional branch, whose two exits each log
   their outcome (one byte through the GS segment) before jumping on, or
   to a return or an indirect branch, looked up in the thread's table
   (a miss traps), or to the first instruction the cache does not run
   (system calls, ...), where it traps to ptstub.  Every copied
   instruction is an original one (RIP-relative operands re-encoded), so
   a stop anywhere in a block maps to one original IP; the few glue
   instructions are described so ptstub can finish them itself.
   Pure: it decodes and encodes bytes, it touches no process.  */
#ifndef NAT_EMU_CC_XLATE_H
#define NAT_EMU_CC_XLATE_H

#include "nat/emu/emu_insn.h"
#include "nat/emu/emu_walk.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The per-thread control block the GS base points at while a thread
   runs in the cache: the log cursor, register save slots, and after it
   the lookup table of returns and indirect branches, two ways: way 0
   indexed by the target's bits 0-15, way 1 by its bits 8-23, each
   cc_table_size negated original targets (so a hit is tested with no
   flag touched), then as many cache addresses.  */
enum { cc_ctl_cursor = 0, cc_ctl_save = 8, cc_ctl_save2 = 16,
       cc_ctl_jump = 32, cc_ctl_table = 4096, cc_table_size = 1 << 16,
       cc_ctl_table1 = cc_ctl_table + cc_table_size * 16 };

/* Limits per block.  */
enum { cc_block_max_insns = 256, cc_block_max_edges = 32,
       cc_stub_size = 16, cc_block_max_bytes = 8192 };

/* What a stop at a given offset of a block means.  */
enum cc_pos_kind {
	cc_pos_orig,    /* an original instruction, INSN, not run yet */
	cc_pos_push,    /* a call's push glue, step STEP (0: RSP not moved) */
	cc_pos_way,     /* an exit's glue: FLAGS say how far it got */
	cc_pos_stub,    /* an exit's stub (its trap), the way done */
	cc_pos_ret,     /* a return's lookup: FLAGS are cc_ret_* */
	cc_pos_miss,    /* its trap on a lookup miss (cc_ret_* too) */
};

enum { cc_way_rax_saved = 1 << 0, cc_way_logged = 1 << 1,
       cc_way_store = 1 << 2 /* the log store, cursor in RAX */ };

/* How far a return's lookup got: which registers wait in their save
   slots, whether the target is logged, RSP moved past it.  */
enum { cc_ret_rax = 1 << 0, cc_ret_rcx = 1 << 1,
       cc_ret_logged = 1 << 3, cc_ret_rsp = 1 << 4,
       cc_ret_store = 1 << 5 /* the log store, cursor in RCX */ };

struct cc_pos {
	uint32_t off;
	uint8_t kind;     /* enum cc_pos_kind */
	uint8_t way;      /* cc_pos_way/stub: which exit */
	uint8_t flags;    /* cc_pos_way; cc_pos_push: the step */
	uint16_t insn;    /* cc_pos_orig: the instruction; cc_pos_push: the
			     call's edge */
};

/* An original instruction of the path, in order.  */
struct cc_insn {
	uint64_t ip;
	uint64_t prev;    /* the one run right before it (0: none in the
			     block) */
	uint16_t edges;   /* direct branches of the block run before it */
};

/* An exit: for a conditional, way 0 is not taken and way 1 taken.  */
struct cc_way {
	uint64_t target;  /* the original IP it goes to */
	uint32_t jmp_off; /* its JMP rel32 (to be linked) */
	uint32_t stub_off;
	bool link;        /* TARGET may be translated and linked */
};

enum cc_end {
	cc_end_cond,      /* a conditional branch: two logged ways */
	cc_end_exit,      /* leave at the last instruction (not copied) */
	cc_end_ret,       /* a return: looked up, its target logged */
	cc_end_ind,       /* an indirect jump or call: the same */
};

struct cc_block {
	/* What the drain reads of every block it passes, first, in one
	   cache line.  The drain's shortcuts (cc_drain.c), kept while the
	   block lives (blocks are freed all at once): the block each way
	   leads to, and the last target a lookup logged with its block.  */
	struct cc_block *next[2];
	uint64_t last_target;
	struct cc_block *last_next;
	uint64_t jcc_ip, jcc_target;  /* cc_end_cond; jcc_ip: cc_end_ret */
	uint32_t ncopied;    /* instructions run per pass (for counts) */
	uint16_t nedges;
	uint8_t end;         /* enum cc_end */
	bool cut;            /* cc_end_exit at a limit of the block: the
				exit logs a byte (no branch) and may be
				linked */
	bool ind_call;       /* cc_end_ind: a call (JCC_TARGET: its return
				address) */
	bool calls;          /* an edge is a call */
	uint8_t nways;
	uint64_t start;
	struct emu_edge *edges; /* malloc'd */
	uint64_t cache;   /* where the code lives in the inferior */
	uint32_t size;    /* bytes, stubs included */
	uint16_t ret_pop;    /* cc_end_ret: bytes RET pops */
	struct cc_way ways[2];
	struct cc_insn *insns;  /* malloc'd; the last one is the Jcc or
				   the exit's */
	uint16_t ninsns;
	struct cc_pos *pos;  /* sorted by offset, malloc'd */
	uint16_t npos;
	bool slab;           /* from cc_blocks_new (not freed alone) */
	uint64_t ind_slot;   /* cc_end_ind through [rip+disp]: that slot's
				address (0: another operand) */
	/* Its instructions' addresses lie in [SPAN_LO, SPAN_HI]: a map
	   change far from them needs no look at each (cc.c).  */
	uint64_t span_lo, span_hi;
};

/* What the translator needs from its caller.  */
struct cc_xlate_env {
	emu_code_fn read;        /* original bytes */
	void *ctx;
	/* Whether the instruction at IP may be copied (its page is
	   cacheable, no breakpoint of anyone else's on it).  */
	bool (*may_copy)(void *ctx, uint64_t ip);
};

/* Translate the block at START for address CACHE, into CODE (ROOM
   bytes).  -pse_unsupported if not even the first instruction can be
   copied (the caller runs it under the ptrace engine), -pse_range if
   ROOM is too small.  */
int cc_xlate(struct cc_block *blk, const struct cc_xlate_env *env,
	     uint64_t start, uint64_t cache, uint8_t *code, size_t room);
void cc_block_fini(struct cc_block *blk);

/* The stop position at offset OFF of BLK, or NULL.  */
const struct cc_pos *cc_block_pos(const struct cc_block *blk, uint32_t off);

/* Encode the absolute jump a stub becomes when its target is out of
   rel32 reach (14 bytes).  */
void cc_stub_abs_jmp(uint8_t stub[cc_stub_size], uint64_t target);

#endif
