/* The trace emulator: Intel PT packets (libipt's encoder) and BTS blocks
   for threads of one traced process, made by breakpoint-and-emulate
   with ptrace.  doc/HACKING.md draws where it sits.

   Division of labour with the native layer (the caller):
   - The caller owns waitpid and resuming.  For every thread of a process
     with an emu, it calls emu_prepare before resuming a thread it had
     stopped (and reported), and hands every ptrace stop of any thread to
     emu_on_stop.  It resumes as told: with emu_ptrace_request(*HOW),
     with no signal after a consumed stop, with the signal it chose
     after emu_prepare.  Its threads have PTRACE_O_TRACESYSGOOD: a
     syscall stop must be told from a SIGTRAP.
   - Planted traps live in the caller's int3 table (owner int3_owner_emu)
     next to GDB's breakpoints.  The caller must not lift a site itself
     to step over it: resuming through emu_prepare runs the instruction
     under a site correctly whoever owns it.
   - The engine reads and writes registers (PTRACE_GETREGS/SETREGS) and
     memory itself; it never calls waitpid or resumes a thread.
   - Nothing here includes server/.  */
#ifndef NAT_EMU_EMU_H
#define NAT_EMU_EMU_H

#include "common/trace.h"
#include "nat/emu/emu_bts.h"
#include "nat/emu/emu_cache_status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct int3_table;
struct nat_mem;
struct ps_buf;
struct emu;

enum emu_resume {
	emu_resume_cont,     /* PTRACE_CONT */
	emu_resume_step,     /* PTRACE_SINGLESTEP */
	/* PTRACE_SYSCALL: a thread on its way to a trap at a syscall.  While
	   another thread steps that syscall its trap is out of memory, and
	   this thread may run through it: the syscall-entry stop says
	   exactly where it is, so its trace goes on without a gap.  */
	emu_resume_syscall,
};

/* The ptrace request that resumes a thread as HOW says.  */
int emu_ptrace_request(enum emu_resume how);

enum emu_verdict {
	emu_consumed,        /* the engine's own stop: resume as *HOW says */
	emu_report,          /* the caller's: report it; resume later via
				emu_prepare */
};

/* Which engine records a thread that runs freely: breakpoint-and-emulate
   with ptrace, or the in-process code cache (nat/emu/cc.h), which falls
   back to the ptrace engine wherever it cannot run.  */
enum emu_engine_kind {
	emu_engine_ptrace,
	emu_engine_cache,
};

/* Switches and limits; zero-initialized means defaults.  */
struct emu_config {
	/* Shortcuts that take fewer stops than branches.  ret_shortcut: a
	   RET whose slot no store on the path before it can touch is
	   followed, its target read at the previous stop.  jcc_shortcut: a
	   conditional whose flags (or RCX) come only from integer register
	   instructions evaluated exactly since the previous stop is
	   followed without a stop.  Both apply only while a single thread
	   is traced (untraced threads do not matter).  */
	bool ret_shortcut;
	bool jcc_shortcut;
	uint32_t psb_period;     /* bytes between PSB+ (0: 4096) */
	bool untimed;            /* PT without TSC packets */
	size_t cache_limit;      /* walks in the code cache (0: default) */
	/* Called after a traced thread's mmap, munmap, mprotect, ... (the
	   recorder's side-band); NULL for none.  */
	void (*on_map_change)(void *ctx, pid_t tid);
	void *map_ctx;
	uint8_t engine;          /* enum emu_engine_kind */
	size_t cache_log;        /* the code cache's log per thread (0:
				    1 MiB) */
};

struct emu_status {
	uint64_t bytes_recorded; /* PT bytes ever written */
	uint64_t wraps;          /* times the ring (PT or BTS) wrapped */
	size_t bytes_held;       /* PT bytes in the ring now */
	uint64_t blocks;         /* BTS blocks ever recorded */
	uint64_t blocks_held;    /* BTS blocks in the ring now */
	uint64_t stops;          /* ptrace stops handed to the engine */
	uint64_t steps;          /* of which single-steps */
	uint64_t gaps;           /* places it could not follow (OVF) */
	uint64_t followed;       /* branches passed without a stop */
	uint64_t insns;          /* instructions run, traced (the code
				    cache's are in cc_insns) */
	/* The code-cache engine (engine == emu_engine_cache).  */
	uint8_t engine;
	struct emu_cache_status cc;
};

/* An engine for process PID whose traps go into SITES, memory through
   MEM (both owned by the caller and outliving the engine).  CONFIG may
   be NULL.  */
int emu_alloc(struct emu **emu, pid_t pid, struct int3_table *sites,
	      struct nat_mem *mem, const struct emu_config *config);

/* Remove the engine's traps from memory (if the process still exists)
   and free it.  */
void emu_free(struct emu *emu);

/* Bytes between PSB+ for PT traces enabled from now on (0: 4096).  */
void emu_set_psb_period(struct emu *emu, uint32_t bytes);

/* Whether PT traces enabled from now on go without TSC packets.  */
void emu_set_untimed(struct emu *emu, bool untimed);

/* Start recording thread TID (stopped) in FORMAT into a ring of SIZE
   bytes.  -pse_exists if it is already traced.  The first emu_prepare
   starts the trace at the thread's IP.  */
int emu_enable(struct emu *emu, pid_t tid, enum trace_format format,
	       size_t size);

/* Stop recording TID and drop its trace.  When no thread is traced any
   more, the engine's traps are removed.  */
int emu_disable(struct emu *emu, pid_t tid);

/* Whether TID is traced.  */
bool emu_traced(const struct emu *emu, pid_t tid);

/* Before resuming TID (stopped, registers as the caller left them) with
   signal SIG (0: none).  STEP: the caller wants one instruction run and
   the thread stopped again (GDB's stepi); the stop it gets is then
   reported.  Tracing resumes (TIP.PGE) where the thread resumes: at its
   IP, at the handler when SIG is caught, or at the restarted syscall.  */
int emu_prepare(struct emu *emu, pid_t tid, int sig, bool step,
		enum emu_resume *how);

/* A ptrace stop of TID, STATUS as waitpid gave it (exits included).
   *VERDICT says whose it is.  When it is the caller's (a GDB breakpoint,
   a signal, an exit, a ptrace event, the end of a requested step) the
   trace segment is already closed (FUP and TIP.PGD where needed) and
   the registers are as the kernel left them (RIP after the int3 at a
   breakpoint).  Any thread may be handed in; untraced ones are emulated
   through planted traps without recording.  */
int emu_on_stop(struct emu *emu, pid_t tid, int status,
		enum emu_verdict *verdict, enum emu_resume *how);

/* GDB's breakpoint was inserted at ADDR (its int3 is in memory): threads
   running translated code stop there too.  */
void emu_on_breakpoint(struct emu *emu, uint64_t addr);

/* The client wrote LEN bytes at ADDR (through int3_write_through):
   cached code is dropped and the engine's traps are taken out, to be
   planted again from the new bytes.  */
int emu_on_mem_write(struct emu *emu, uint64_t addr, size_t len);

/* The process exec'd: the old image is gone, so every site of the int3
   table is forgotten (GDB's too; int3_table_clear), MEM is reset, the
   code cache flushed.  Traced threads stay traced; tracing resumes at
   the new image's entry on the next emu_prepare.  */
int emu_on_exec(struct emu *emu);

/* A new thread TID of the process: untraced until emu_enable.  */
int emu_on_clone(struct emu *emu, pid_t tid);

/* A fork child CHILD (stopped) has a copy of the parent's memory: put
   back the original bytes of the sites that are the engine's alone
   (shared sites are the caller's to clean).  Not for vfork children,
   which share the memory: hand their stops in as untraced threads.  */
int emu_on_fork(struct emu *emu, pid_t child);

/* Append TID's raw PT trace to OUT: everything held, from the oldest
   complete PSB (ALL), or what was recorded since the last read (NEW;
   -pse_range if the ring overwrote part of it).  */
int emu_read_pt(struct emu *emu, pid_t tid, bool only_new,
		struct ps_buf *out);

/* TID's BTS blocks in execution order, appended to BLOCKS.  TYPE and
   TO_STOP as for
   emu_bts_read: GDB wants TO_STOP (the newest block ends at the pc the
   thread stopped at), the oracle compares what ran.  */
int emu_read_bts(struct emu *emu, pid_t tid, enum emu_bts_read_type type,
		 bool to_stop, struct trace_blocks *blocks);

int emu_status(const struct emu *emu, pid_t tid, struct emu_status *status);

/* Pin the calling thread and TID to the CPU the caller runs on: ptrace
   stops across CPUs cost about 4x here.  Returns the CPU.  */
int emu_pin_cpu(pid_t tid);

#endif
