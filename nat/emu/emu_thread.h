/* One thread as the engine tracks it: what it was resumed to do, and for
   a traced thread its trace (PT packet writer and ring, BTS blocks).  */
#ifndef NAT_EMU_EMU_THREAD_H
#define NAT_EMU_EMU_THREAD_H

#include "nat/emu/emu_bts.h"
#include "nat/emu/emu_pt.h"
#include "nat/emu/emu_ring.h"
#include "nat/emu/emu_walk.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One walk of a thread's path, and where its RET went if the path went
   on through it.  */
struct emu_link {
	struct emu_walk walk;
	struct emu_edge edges[emu_walk_max_edges];
	uint64_t ret_target;      /* where the stop went, if followed */
	bool taken;               /* a followed conditional's outcome */
	uint64_t rsp0;            /* RSP where the walk starts */
};

enum { emu_chain_links = 8 };

/* What the thread is doing since the engine last resumed it.  */
enum emu_mode {
	emu_mode_stopped,    /* stopped, or resumed by someone else */
	emu_mode_walk,       /* running CUR towards its stop */
	emu_mode_step,       /* single-stepping STEP_INSN */
	emu_mode_enter,      /* stepping into a signal handler */
	emu_mode_cache,      /* running in the code cache (cc.h) */
};

struct emu_thread {
	pid_t tid;
	bool traced;
	bool on;              /* between TIP.PGE and TIP.PGD */
	uint8_t format;       /* enum trace_format */
	uint8_t mode;         /* enum emu_mode */

	/* emu_mode_walk: the path to the planted stop, copied (cache
	   entries may go): walks joined by returns followed without a
	   stop (the RET shortcut), the last one ending at the stop.  */
	struct emu_link chain[emu_chain_links];
	uint8_t nchain;
	/* The trap at the chain's end was taken out while it ran (a
	   mapping change there): it may have run past it, so where it
	   stops next says nothing of its path.  */
	bool walk_lost;

	/* emu_mode_step.  */
	struct emu_insn step_insn;
	bool step_lifted;     /* the site's original byte is in memory */
	bool step_user;       /* the caller asked for it: report after */
	bool step_maps;       /* a syscall that may change the map */
	bool exiting;         /* past its PTRACE_EVENT_EXIT stop */
	uint64_t last_exec;   /* the last instruction known to have run */
	/* The syscall whose TIP.PGD closed the trace, while it has not
	   returned (0: none): a restart runs the same instruction again,
	   and the trace goes on where it returns, not at it.  */
	uint64_t in_syscall;

	/* Someone else's trap (GDB's) the engine sent the thread onto.  A
	   stop that comes before the thread ran it (a SIGSTOP is delivered
	   first) leaves FOREIGN_HELD: the next resume must take the trap,
	   not pass over it, or GDB never sees its breakpoint hit.  */
	uint64_t foreign_stop;
	uint64_t foreign_held;

	struct emu_ring ring;
	struct emu_pt pt;
	struct emu_bts bts;
	uint64_t stops, steps, gaps, followed;
	/* Instructions the thread ran while traced, as the engine saw them
	   pass (walks, followed branches, emulated and stepped ones).  */
	uint64_t insns;
};

/* Start TID's trace: a ring (or block ring) of SIZE and its first
   PSB+; a PT one UNTIMED goes without TSC packets.  */
int emu_thread_trace_init(struct emu_thread *th, uint8_t format,
			  size_t size, uint32_t psb_period, bool untimed);
void emu_thread_trace_fini(struct emu_thread *th);

#endif
