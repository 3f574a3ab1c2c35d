/* The code-cache engine (doc/HACKING.md places it): a traced
   thread that runs freely executes translated copies of its blocks
   (cc_xlate) from a code cache in its own address space, logging the
   outcome of each conditional branch through its GS base; ptstub drains
   the log into the same PT/BTS recording primitives the ptrace engine
   uses.  Returns and indirect branches look their target up in a
   per-thread two-way table in the inferior (a miss traps to ptstub,
   which runs the branch and fills the table); a stop that translates
   translates ahead what the block reaches; system calls and whatever the cache
   cannot run leave it at their original IP for the ptrace engine, which
   sends the thread back in at the next block.  Every traced thread
   has its own data (control page, table, log), reached through its GS
   base, set by ptstub while the thread runs in the cache; the code is
   shared.

   Limits of this stage: a thread whose GS base is set stays with the
   ptrace engine; a breakpoint inserted while threads run stops them
   only where its instruction was copied (not at a direct jump or call,
   which the cache follows without copying) until the translations are
   replaced at the next entry; a translation
   dropped (code or map changed) while other threads run in the cache
   is dropped when the last of them leaves at its next exit, so they
   may run the old code until then.
   Internal to nat/emu/: the hooks are in emu.c and emu_stop.c.  */
#ifndef NAT_EMU_CC_H
#define NAT_EMU_CC_H

#include "nat/emu/emu.h"
#include "nat/emu/emu_cache_status.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

struct cc;
struct emu_thread;

int cc_alloc(struct cc **cc, struct emu *emu);
/* Free it; its mappings are removed first through TID when TID is a
   stopped thread of the process (0: the process is gone).  */
void cc_free(struct cc *cc, pid_t tid);

/* Send TH (stopped, about to run from REGS->rip) into the cache:
   REGS are changed (IP and GS base) and true returned, or false and
   the ptrace engine goes on.  */
bool cc_enter(struct cc *cc, struct emu_thread *th,
	      struct user_regs_struct *regs);

/* A stop of TH while it runs in the cache (emu_mode_cache).  The
   registers are read; on return the thread is at an original IP (set
   in the thread) unless the stop was consumed by the cache itself.  */
int cc_on_stop(struct cc *cc, struct emu_thread *th,
	       struct user_regs_struct *regs, int sig,
	       enum emu_verdict *verdict, enum emu_resume *how);

/* Someone else's int3 (GDB's breakpoint) now sits at ADDR: every
   copy of that instruction in the cache gets an int3 too, so that a
   thread running there stops at once (cc_on_stop reports it as the
   original int3's stop), before the translations are replaced at the
   next entry.  */
void cc_on_site(struct cc *cc, uint64_t addr);

/* Code or the map changed: forget every translation.  */
void cc_flush(struct cc *cc);
/* The map changed in [LO, HI): forget the translations if any copies
   code from there.  */
void cc_flush_range(struct cc *cc, uint64_t lo, uint64_t hi);
/* TH, in the cache, stopped at its exit (PTRACE_EVENT_EXIT: its memory
   is still there): its log drained, its trace up to REGS->rip
   recorded, and it is out of the cache (false: it could not be placed,
   the caller records a gap).  */
bool cc_on_exit(struct cc *cc, struct emu_thread *th,
		struct user_regs_struct *regs);
/* TH, in the cache, ended without an exit event (SIGKILL'd: the others
   of an exit_group): its log drained through another thread of the
   process; its trace ends at the last branch it logged (false: the log
   could not be read).  */
bool cc_on_gone(struct cc *cc, struct emu_thread *th);
/* Thread TID ended: its data mapping is kept for a new thread (its
   counts stay); dropped: its counts go too.  */
void cc_thread_gone(struct cc *cc, pid_t tid);
void cc_thread_drop(struct cc *cc, pid_t tid);
/* Exec: the mappings are gone.  */
void cc_on_exec(struct cc *cc);
/* A fork child's copy of the mappings is removed.  */
void cc_on_fork(struct cc *cc, pid_t child);


/* Thread TID's counts (entries, traps and their causes, fills,
   branches, insns, signals: its own; blocks, bytes, times, flushes: the process's) and
   why it is off (its own reason, and the process's apart); TID 0: the
   process's counts and reason.  */
void cc_status(const struct cc *cc, pid_t tid,
	       struct emu_cache_status *st);

#endif
