/* A walk: the straight-line path a thread runs from an IP to the first
   instruction the emulator must stop at, following direct jumps and
   calls statically (they produce no packet).  */
#ifndef NAT_EMU_EMU_WALK_H
#define NAT_EMU_EMU_WALK_H

#include "nat/emu/emu_alu.h"
#include "nat/emu/emu_insn.h"

#include <stdbool.h>
#include <stdint.h>

struct emu_maps;

/* What happens at the stop.  */
enum emu_stop_kind {
	emu_stop_emulate,   /* a branch the evaluator computes */
	emu_stop_step,      /* run with its original bytes, one step */
	emu_stop_self,      /* the program's own INT3: it traps by itself */
};

/* A direct jump or call on the path.  */
struct emu_edge {
	uint64_t from, to;
	uint8_t len;          /* of the branch at FROM */
	bool call;
};

/* Walks end after this many instructions or direct branches (the stop
   is then an ordinary instruction, stepped).  Walks up to
   emu_walk_max_recs instructions keep them for the Jcc shortcut.  */
enum { emu_walk_max_insns = 4096, emu_walk_max_edges = 64,
       emu_walk_max_recs = 48 };

/* A stack or frame address relative to the walk's start: BASE 0 is
   RSP there, 1 is RBP there, -1 unknown.  */
struct emu_sym {
	int8_t base;
	int32_t off;
};

/* Stores on the path that cannot be told apart from the return slot
   without the registers: checked when the walk starts.  */
enum { emu_walk_max_checks = 8 };

/* Stores a walk keeps track of (more make them unknown).  */
enum { emu_walk_max_writes = 32 };

struct emu_walk {
	uint64_t start;
	uint64_t stop;
	struct emu_insn insn;      /* the stop instruction; len 0 if bad */
	uint8_t kind;              /* enum emu_stop_kind */
	uint16_t nedges;
	uint32_t ninsns;           /* instructions before the stop */
	uint64_t last;             /* the one right before it (0: none) */
	struct emu_edge *edges;    /* malloc'd, NEDGES of them */
	/* The path's instructions for emu_alu_apply, malloc'd (NULL if
	   the path is longer than emu_walk_max_recs).  */
	struct emu_alu_rec *recs;

	/* RSP and RBP at the stop, relative to the start (base -1:
	   unknown).  */
	struct emu_sym rsp_end, rbp_end;

	/* For a RET stop: whether no store on the path can touch its slot
	   (given CHECKS pass), so its target can be read at the start. */
	bool ret_known;
	struct emu_sym slot;       /* the return address */
	struct emu_sym rsp_after;  /* RSP after the RET */
	struct emu_sym rbp_after;  /* RBP there (base -1: unknown) */
	uint8_t nchecks;
	struct emu_sym checks[emu_walk_max_checks];
	uint16_t check_size[emu_walk_max_checks];

	/* Every store on the path (direct calls' pushes included), for
	   the returns of later walks of a chain planned before any of it
	   runs; WRITES_KNOWN false if one could not be placed.  */
	bool writes_known;
	uint8_t nwrites;
	struct emu_sym writes[emu_walk_max_writes];
	uint16_t write_size[emu_walk_max_writes];
};

/* Read up to LEN bytes of code at ADDR with the original bytes under
   planted int3s; returns the count read or a negative code.  */
typedef long (*emu_code_fn)(void *ctx, uint64_t addr, void *buf,
			    size_t len);

/* Build the walk from START.  START must be cacheable in MAPS;
   -pse_fault if its first instruction cannot even be read.  */
int emu_walk_build(struct emu_walk *walk, const struct emu_decoder *decoder,
		   const struct emu_maps *maps, emu_code_fn read, void *ctx,
		   uint64_t start);
void emu_walk_fini(struct emu_walk *walk);

/* Call FN for every instruction on WALK before its stop, in order
   (direct branches included), decoding the path again.  False if the
   code could not be decoded.  */
bool emu_walk_visit(const struct emu_walk *walk,
		    const struct emu_decoder *decoder, emu_code_fn read,
		    void *ctx, void (*fn)(void *arg, const struct emu_insn *),
		    void *arg);

/* Where the instruction at IP lies on WALK: the index of the previous
   instruction's address in *PREV (0 if IP is the start), by decoding the
   path again, and RSP there relative to the start in *RSP_AT (base -1
   if not known), and the instructions run before IP in *INSNS_BEFORE
   (if not NULL); false if IP is not an instruction boundary of it.
   Used only on interruptions, which are rare.  */
bool emu_walk_locate(const struct emu_walk *walk,
		     const struct emu_decoder *decoder, emu_code_fn read,
		     void *ctx, uint64_t ip, uint64_t *prev,
		     uint16_t *edges_before, struct emu_sym *rsp_at,
		     uint32_t *insns_before);

#endif
