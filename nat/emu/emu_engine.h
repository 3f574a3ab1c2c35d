/* The engine's shared state and the steps its stop handling and its
   resume path both use (internal to nat/emu/).  */
#ifndef NAT_EMU_EMU_ENGINE_H
#define NAT_EMU_EMU_ENGINE_H

#include "nat/emu/emu.h"
#include "nat/emu/emu_cache.h"
#include "nat/emu/emu_maps.h"
#include "nat/emu/emu_planted.h"
#include "nat/emu/emu_thread.h"

#include <stdbool.h>
#include <sys/user.h>

/* Emulated branches followed in a row before a trap is planted (so a
   branch to itself still lets the thread run).  */
enum { emu_chain_max = 64 };

struct emu {
	pid_t pid;
	struct int3_table *sites;
	struct nat_mem *mem;
	struct emu_config config;
	struct emu_decoder *decoder;
	struct emu_cache cache;
	struct emu_maps maps;
	struct emu_planted planted;
	struct emu_thread **threads;
	size_t nthreads, cap;
	size_t ntraced;
	struct cc *cc;            /* the code-cache engine, or NULL */
};

/* Memory access for the evaluator and the walker.  */
struct emu_access {
	struct emu *emu;
	pid_t tid;
};

long emu_read_code(void *ctx, uint64_t addr, void *buf, size_t len);
int emu_read_data(void *ctx, uint64_t addr, void *buf, size_t len);
int emu_getregs(pid_t tid, struct user_regs_struct *regs);
int emu_setregs(pid_t tid, const struct user_regs_struct *regs);

struct emu_thread *emu_thread_find(const struct emu *emu, pid_t tid);
struct emu_thread *emu_thread_get(struct emu *emu, pid_t tid);
void emu_thread_drop(struct emu *emu, pid_t tid);

/* Re-read the memory map if it may have changed.  */
int emu_maps_fresh(struct emu *emu);
/* Take every trap of the engine out and forget decoded code.  */
void emu_unplant_all(struct emu *emu);

int emu_decode_at(struct emu *emu, uint64_t ip, struct emu_insn *insn);
struct emu_walk *emu_walk_get(struct emu *emu, uint64_t ip);

/* Evaluate and record the branch INSN at REGS->rip; REGS unchanged on
   failure.  */
int emu_emulate(struct emu_thread *th, struct emu_access *acc,
		const struct emu_insn *insn, struct user_regs_struct *regs);

/* Syscalls after which code may be gone or changed under its traps.  */
bool emu_syscall_changes_map(uint64_t nr);

/* The syscall NR (arguments in REGS) may change the map: take out the
   traps it could reach, forget decoded code, re-read the map.  */
void emu_unplant_for_syscall(struct emu *emu,
			     const struct user_regs_struct *regs, uint64_t nr);

/* Set the thread up to run INSN by one single-step, original bytes.  */
void emu_begin_step(struct emu *emu, struct emu_thread *th,
		    const struct emu_insn *insn,
		    struct user_regs_struct *regs, bool user);

/* From REGS->rip on: follow, plant, and say how to resume; registers
   are written back if they changed from BEFORE.  */
enum emu_resume emu_continue(struct emu *emu, struct emu_thread *th,
			     struct user_regs_struct *regs, bool at_resume);
int emu_resume_from(struct emu *emu, struct emu_thread *th,
		    struct user_regs_struct *regs,
		    const struct user_regs_struct *before, bool at_resume,
		    enum emu_resume *how);

#endif
