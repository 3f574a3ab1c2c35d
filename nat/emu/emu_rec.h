/* nat/emu/emu_rec.h: the branch recorder (emu_rec.c): what a thread
   ran, written to its trace as PT packets or BTS blocks.  Internal to
   nat/emu/.  */
#ifndef NAT_EMU_EMU_REC_H
#define NAT_EMU_EMU_REC_H

#include "nat/emu/emu_thread.h"
#include "nat/emu/emu_walk.h"

#include <stdbool.h>
#include <stdint.h>

/* The recording primitives, no-ops unless the thread is traced and on;
   each keeps PT and BTS in step.  */
void emu_rec_cond(struct emu_thread *th, uint64_t ip, bool taken,
		  uint64_t target);
void emu_rec_ret(struct emu_thread *th, uint64_t ip, uint64_t target);
void emu_rec_indirect(struct emu_thread *th, uint64_t ip, uint64_t target,
		      uint64_t nlip, bool call);
void emu_rec_edge(struct emu_thread *th, const struct emu_edge *edge);
/* A far transfer at IP through the kernel, back in user space at
   RESUME (0: not known yet; the thread stays off).  With the thread
   off since the same syscall closed its trace (the stop came inside
   it, the kernel restarted it), only the resume is recorded: the trace
   holds the syscall once, as a single-step run does, and goes on where
   it returns.  */
void emu_rec_far_kernel(struct emu_thread *th, uint64_t ip,
			uint64_t resume);
/* A far transfer within user space.  */
void emu_rec_far(struct emu_thread *th, uint64_t ip, uint64_t target);
/* Execution is interrupted at IP (not run), PREV being the instruction
   run before it (0 if unknown): FUP, TIP.PGD.  */
void emu_rec_interrupt(struct emu_thread *th, uint64_t ip, uint64_t prev);
/* Tracing resumes at IP (thread off).  */
void emu_rec_resume(struct emu_thread *th, uint64_t ip);
/* The emulator lost track; tracing resumes at IP (0: off until the
   next resume).  */
void emu_rec_gap(struct emu_thread *th, uint64_t ip);
/* The thread ran links [0, N) of its chain entirely (each one's RET
   included, except the last link's stop when N is the whole chain).  */
void emu_rec_chain(struct emu_thread *th, uint8_t n);

/* The time now, into a thread recording PT: a TSC packet when FORCE
   or when the last is older than emu_tsc_period.  Called only while the
   thread is stopped and all it ran before is recorded, so the packet
   parts what ran before the tracer looked from what runs after.  */
void emu_rec_time(struct emu_thread *th, bool force);

/* A periodic PSB+ if one is due, at IP.  */
void emu_rec_psb(struct emu_thread *th, uint64_t ip);

#endif
