/* nat/emu/emu.c: the engine object: its threads, enabling and disabling
   trace, its traps on exec, fork and memory writes, and the resume path
   that follows a thread from a stop and plants its next one.  The path
   itself is planned in emu_plan.c.  */
#define _GNU_SOURCE
#include "nat/emu/emu.h"
#include "common/ps_array.h"
#include "nat/emu/cc.h"
#include "nat/emu/emu_branch.h"
#include "nat/emu/emu_engine.h"
#include "nat/emu/emu_cache.h"
#include "nat/emu/emu_maps.h"
#include "nat/emu/emu_plan.h"
#include "nat/emu/emu_signal.h"
#include "nat/emu/emu_walk.h"
#include "nat/emu/emu_rec.h"
#include "nat/emu/emu_thread.h"
#include "nat/int3_table.h"
#include "nat/mem.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

long emu_read_code(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct emu *emu = ctx;
	long n = nat_mem_read(emu->mem, addr, buf, len);

	if (n > 0)
		int3_shadow(emu->sites, addr, buf, (size_t) n);
	return n;
}

/* Data as the thread sees it: its own permissions (process_vm_readv
   does not force), original bytes under traps.  */
int emu_read_data(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct emu_access *acc = ctx;
	struct iovec local = { buf, len }, remote = { (void *) addr, len };

	if (process_vm_readv(acc->tid, &local, 1, &remote, 1, 0) !=
	    (ssize_t) len)
		return -pse_fault;
	int3_shadow(acc->emu->sites, addr, buf, len);
	return 0;
}

static int emu_write_data(pid_t tid, uint64_t addr, uint64_t value)
{
	struct iovec local = { &value, 8 }, remote = { (void *) addr, 8 };

	return process_vm_writev(tid, &local, 1, &remote, 1, 0) == 8 ? 0
		: -pse_fault;
}

int emu_ptrace_request(enum emu_resume how)
{
	switch (how) {
	case emu_resume_step:
		return PTRACE_SINGLESTEP;
	case emu_resume_syscall:
		return PTRACE_SYSCALL;
	default:
		return PTRACE_CONT;
	}
}

int emu_getregs(pid_t tid, struct user_regs_struct *regs)
{
	return ptrace(PTRACE_GETREGS, tid, 0, regs) < 0 ? -pse_io : 0;
}

int emu_setregs(pid_t tid, const struct user_regs_struct *regs)
{
	return ptrace(PTRACE_SETREGS, tid, 0, regs) < 0 ? -pse_io : 0;
}

int emu_alloc(struct emu **out, pid_t pid, struct int3_table *sites,
	      struct nat_mem *mem, const struct emu_config *config)
{
	struct emu *emu = calloc(1, sizeof(*emu));
	int err;

	if (!emu)
		return -pse_nomem;
	emu->pid = pid;
	emu->sites = sites;
	emu->mem = mem;
	if (config)
		emu->config = *config;
	emu_maps_init(&emu->maps);
	emu_planted_init(&emu->planted);
	err = emu_decoder_alloc(&emu->decoder);
	if (!err)
		err = emu_cache_init(&emu->cache, emu->config.cache_limit);
	if (!err && emu->config.engine == emu_engine_cache)
		err = cc_alloc(&emu->cc, emu);
	if (err < 0) {
		emu_decoder_free(emu->decoder);
		free(emu);
		return err;
	}
	*out = emu;
	return 0;
}

static void emu_thread_free(struct emu_thread *th)
{
	if (th->traced)
		emu_thread_trace_fini(th);
	free(th);
}

void emu_free(struct emu *emu)
{
	if (!emu)
		return;
	int3_remove_all(emu->sites, emu->mem, int3_owner_emu);
	cc_free(emu->cc, 0);
	for (size_t i = 0; i < emu->nthreads; i++)
		emu_thread_free(emu->threads[i]);
	free(emu->threads);
	emu_cache_fini(&emu->cache);
	emu_maps_fini(&emu->maps);
	emu_planted_fini(&emu->planted);
	emu_decoder_free(emu->decoder);
	free(emu);
}

struct emu_thread *emu_thread_find(const struct emu *emu, pid_t tid)
{
	for (size_t i = 0; i < emu->nthreads; i++)
		if (emu->threads[i]->tid == tid)
			return emu->threads[i];
	return NULL;
}

struct emu_thread *emu_thread_get(struct emu *emu, pid_t tid)
{
	struct emu_thread *th = emu_thread_find(emu, tid);

	if (th)
		return th;
	if (PS_ARRAY_RESERVE(emu->threads, emu->cap, emu->nthreads + 1))
		return NULL;
	th = calloc(1, sizeof(*th));
	if (!th)
		return NULL;
	th->tid = tid;
	emu->threads[emu->nthreads++] = th;
	return th;
}

void emu_thread_drop(struct emu *emu, pid_t tid)
{
	cc_thread_drop(emu->cc, tid);
	for (size_t i = 0; i < emu->nthreads; i++) {
		if (emu->threads[i]->tid != tid)
			continue;
		if (emu->threads[i]->traced)
			emu->ntraced--;
		emu_thread_free(emu->threads[i]);
		emu->threads[i] = emu->threads[--emu->nthreads];
		return;
	}
}

int emu_on_clone(struct emu *emu, pid_t tid)
{
	return emu_thread_get(emu, tid) ? 0 : -pse_nomem;
}

bool emu_traced(const struct emu *emu, pid_t tid)
{
	const struct emu_thread *th = emu_thread_find(emu, tid);

	return th && th->traced;
}

void emu_set_psb_period(struct emu *emu, uint32_t bytes)
{
	emu->config.psb_period = bytes;
}

void emu_set_untimed(struct emu *emu, bool untimed)
{
	emu->config.untimed = untimed;
}

int emu_enable(struct emu *emu, pid_t tid, enum trace_format format,
	       size_t size)
{
	struct emu_thread *th = emu_thread_get(emu, tid);
	int err;

	if (!th)
		return -pse_nomem;
	if (th->traced)
		return -pse_exists;
	if (format != trace_format_pt && format != trace_format_bts)
		return -pse_invalid;
	err = emu_thread_trace_init(th, (uint8_t) format, size,
				    emu->config.psb_period, emu->config.untimed);
	if (err < 0)
		return err;
	th->traced = true;
	th->on = false;
	th->in_syscall = 0;
	emu->ntraced++;
	return 0;
}

/* Take the engine's traps in [LO, HI) out.  A thread on its way to one
   of them may now run past it: its walk is lost.  */
static void emu_unplant_range(struct emu *emu, uint64_t lo, uint64_t hi)
{
	size_t i = 0;

	while (i < emu->sites->count) {
		const struct int3_site *site = &emu->sites->sites[i];
		size_t count = emu->sites->count;

		if (!(site->owners & int3_owner_emu) || site->addr < lo ||
		    site->addr >= hi ||
		    int3_remove(emu->sites, emu->mem, site->addr,
				int3_owner_emu) < 0 ||
		    emu->sites->count == count)
			i++;
	}
	for (size_t t = 0; t < emu->nthreads; t++) {
		struct emu_thread *th = emu->threads[t];
		uint64_t stop;

		if (th->mode != emu_mode_walk || !th->nchain)
			continue;
		stop = th->chain[th->nchain - 1].walk.stop;
		if (stop >= lo && stop < hi)
			th->walk_lost = true;
	}
}

/* Take every trap of the engine out and forget decoded code.  */
void emu_unplant_all(struct emu *emu)
{
	emu_unplant_range(emu, 0, UINT64_MAX);
	emu_cache_flush(&emu->cache);
	cc_flush(emu->cc);
}

/* [ADDR, ADDR + LEN) in whole pages, into [*LO, *HI).  */
static void emu_page_range(uint64_t addr, uint64_t len, uint64_t *lo,
			   uint64_t *hi)
{
	*lo = addr & ~(uint64_t) 4095;
	*hi = addr + len < addr ? UINT64_MAX
		: (addr + len + 4095) & ~(uint64_t) 4095;
	if (*hi < *lo)
		*hi = UINT64_MAX;
}

void emu_unplant_for_syscall(struct emu *emu,
			     const struct user_regs_struct *regs, uint64_t nr)
{
	uint64_t lo, hi;

	switch (nr) {
	case 9:      /* mmap: only MAP_FIXED replaces what is there */
		if (regs->r10 & 0x10) {
			emu_page_range(regs->rdi, regs->rsi, &lo, &hi);
			emu_unplant_range(emu, lo, hi);
			cc_flush_range(emu->cc, lo, hi);
		}
		break;
	case 25:     /* mremap: the old range, and a fixed new one */
		emu_page_range(regs->rdi, regs->rsi, &lo, &hi);
		emu_unplant_range(emu, lo, hi);
		cc_flush_range(emu->cc, lo, hi);
		if (regs->r10 & 2) {
			emu_page_range(regs->r8, regs->rdx, &lo, &hi);
			emu_unplant_range(emu, lo, hi);
			cc_flush_range(emu->cc, lo, hi);
		}
		break;
	default:     /* mprotect munmap madvise pkey_mprotect */
		emu_page_range(regs->rdi, regs->rsi, &lo, &hi);
		emu_unplant_range(emu, lo, hi);
		cc_flush_range(emu->cc, lo, hi);
		break;
	}
	emu_cache_flush(&emu->cache);
	emu->maps.stale = true;
}

int emu_disable(struct emu *emu, pid_t tid)
{
	struct emu_thread *th = emu_thread_find(emu, tid);

	if (!th || !th->traced)
		return -pse_notfound;
	emu_thread_trace_fini(th);
	th->traced = false;
	th->on = false;
	emu->ntraced--;
	if (!emu->ntraced) {
		emu_unplant_all(emu);
		if (emu->cc) {
			/* Its mappings go with the last traced thread; a
			   thread at its exit stop runs no injected call (the
			   call would end it, and the memory with it), and
			   the mappings go with the process.  */
			cc_free(emu->cc, th->exiting ? 0 : tid);
			emu->cc = NULL;
			cc_alloc(&emu->cc, emu);
		}
	}
	return 0;
}

void emu_on_breakpoint(struct emu *emu, uint64_t addr)
{
	cc_on_site(emu->cc, addr);
}

int emu_on_mem_write(struct emu *emu, uint64_t addr, size_t len)
{
	emu_unplant_all(emu);
	/* Translations copy code: those of the bytes written go.  */
	cc_flush_range(emu->cc, addr, addr + len);
	return 0;
}

int emu_on_exec(struct emu *emu)
{
	int3_table_clear(emu->sites);
	nat_mem_reset(emu->mem);
	emu_cache_flush(&emu->cache);
	emu_planted_clear(&emu->planted);
	if (emu->cc)
		cc_on_exec(emu->cc);
	emu->maps.stale = true;
	for (size_t i = 0; i < emu->nthreads; i++) {
		struct emu_thread *th = emu->threads[i];

		if (th->mode == emu_mode_step && th->on)
			emu_rec_far_kernel(th, th->step_insn.ip, 0);
		th->mode = emu_mode_stopped;
		th->on = false;
		th->in_syscall = 0;
	}
	return 0;
}

int emu_on_fork(struct emu *emu, pid_t child)
{
	struct nat_mem mem;
	int result = 0;

	nat_mem_init(&mem, child);
	for (size_t i = 0; i < emu->sites->count; i++) {
		const struct int3_site *site = &emu->sites->sites[i];

		if (site->owners != int3_owner_emu)
			continue;
		if (nat_mem_write(&mem, site->addr, &site->orig, 1) < 0)
			result = -pse_fault;
	}
	nat_mem_fini(&mem);
	if (emu->cc)
		cc_on_fork(emu->cc, child);
	return result;
}

int emu_maps_fresh(struct emu *emu)
{
	if (!emu->maps.stale)
		return 0;
	/* The code cache dropped what the change reached (cc_flush_range):
	   the others run on.  */
	emu_cache_flush(&emu->cache);
	return emu_maps_load(&emu->maps, emu->pid);
}

/* Evaluate the branch INSN at REGS->rip and record it.  On failure (a
   fault the hardware must raise) REGS is unchanged.  */
int emu_emulate(struct emu_thread *th, struct emu_access *acc,
		       const struct emu_insn *insn,
		       struct user_regs_struct *regs)
{
	struct user_regs_struct saved = *regs;
	struct emu_branch br;
	int err;

	err = emu_branch_eval(insn, regs, emu_read_data, acc, &br);
	if (!err && br.push)
		err = emu_write_data(th->tid, br.push_addr, br.push_value);
	if (err < 0) {
		*regs = saved;
		return err;
	}
	th->insns++;
	switch (insn->iclass) {
	case emu_ic_cond:
		emu_rec_cond(th, insn->ip, br.taken, br.target);
		break;
	case emu_ic_ret:
		emu_rec_ret(th, insn->ip, br.target);
		break;
	default:
		emu_rec_indirect(th, insn->ip, br.target,
				 insn->ip + insn->len,
				 insn->iclass == emu_ic_call_ind);
		break;
	}
	return 0;
}

bool emu_syscall_changes_map(uint64_t nr)
{
	switch (nr) {
	case 9: case 10: case 11: case 25: case 28: case 329:
		return true;   /* mmap mprotect munmap mremap madvise pkey_mp */
	default:
		return false;
	}
}

/* Run INSN at IP by one single-step with its original bytes.  */
void emu_begin_step(struct emu *emu, struct emu_thread *th,
			   const struct emu_insn *insn,
			   struct user_regs_struct *regs, bool user)
{
	const struct int3_site *site;

	/* INSN may live in the code cache, which unplanting flushes.  */
	th->step_insn = *insn;
	insn = &th->step_insn;
	site = int3_lookup(emu->sites, insn->ip);
	th->mode = emu_mode_step;
	th->step_user = user;
	th->step_lifted = site != NULL;
	th->step_maps = insn->iclass == emu_ic_far_kernel &&
		emu_syscall_changes_map(regs->rax);
	if (th->step_maps) {
		/* Traps in memory about to be remapped would corrupt it. */
		emu_unplant_for_syscall(emu, regs, regs->rax);
		site = int3_lookup(emu->sites, insn->ip);
		th->step_lifted = site != NULL;
	}
	if (site)
		nat_mem_write(emu->mem, insn->ip, &site->orig, 1);
	regs->rip = insn->ip;
	th->steps++;
}

int emu_decode_at(struct emu *emu, uint64_t ip, struct emu_insn *insn)
{
	uint8_t buf[16];
	long n = emu_read_code(emu, ip, buf, sizeof(buf));

	if (n <= 0) {
		memset(insn, 0, sizeof(*insn));
		insn->ip = ip;
		return -pse_fault;
	}
	if (emu_insn_decode(emu->decoder, ip, buf, (size_t) n, insn) < 0) {
		memset(insn, 0, sizeof(*insn));
		insn->ip = ip;
		return -pse_invalid;
	}
	return 0;
}

struct emu_walk *emu_walk_get(struct emu *emu, uint64_t ip)
{
	struct emu_walk *walk = emu_cache_find(&emu->cache, ip);

	if (walk)
		return walk;
	walk = malloc(sizeof(*walk));
	if (!walk)
		return NULL;
	if (emu_walk_build(walk, emu->decoder, &emu->maps, emu_read_code,
			   emu, ip) < 0 ||
	    emu_cache_add(&emu->cache, walk) < 0) {
		emu_walk_fini(walk);
		free(walk);
		return NULL;
	}
	return walk;
}

/* The thread is about to run from REGS->rip (not yet executed).  Follow
   what can be followed without running it, then either plant the next
   stop (cont) or step.  AT_RESUME: a trap at the IP is passed over (the
   caller resumes from it) rather than taken.  */
enum emu_resume emu_continue(struct emu *emu, struct emu_thread *th,
				    struct user_regs_struct *regs,
				    bool at_resume)
{
	struct emu_access acc = { emu, th->tid };
	struct emu_insn insn;

	emu_maps_fresh(emu);
	for (int chain = 0; ; chain++, at_resume = false) {
		uint64_t ip = regs->rip;
		const struct int3_site *site = int3_lookup(emu->sites, ip);
		struct emu_walk *walk;

		if (site && (site->owners & ~int3_owner_emu) && !at_resume) {
			th->mode = emu_mode_stopped;
			th->foreign_stop = ip;
			return emu_resume_cont;   /* someone else's trap */
		}
		emu_rec_psb(th, ip);
		if (!chain)
			emu_rec_time(th, false);

		if (!th->traced) {
			/* Untraced: just get past a trap at IP.  */
			if (!site) {
				th->mode = emu_mode_stopped;
				return emu_resume_cont;
			}
			emu_decode_at(emu, ip, &insn);
			if (chain < emu_chain_max &&
			    emu_insn_is_stop(&insn) && insn.emulable &&
			    emu_emulate(th, &acc, &insn, regs) == 0)
				continue;
			emu_begin_step(emu, th, &insn, regs, false);
			return emu_resume_step;
		}

		/* The code cache takes the thread from here if it can.  */
		if (emu->cc && cc_enter(emu->cc, th, regs))
			return emu_resume_cont;
		if (!emu_maps_cacheable(&emu->maps, ip) ||
		    !(walk = emu_walk_get(emu, ip))) {
			/* Code that may change (or cannot be read): step.  */
			emu_decode_at(emu, ip, &insn);
			emu_begin_step(emu, th, &insn, regs, false);
			return emu_resume_step;
		}
		if (walk->stop == ip && chain < emu_chain_max) {
			if (walk->kind == emu_stop_emulate &&
			    emu_emulate(th, &acc, &walk->insn, regs) == 0)
				continue;
			if (walk->kind != emu_stop_self) {
				emu_begin_step(emu, th, &walk->insn, regs,
					       false);
				return emu_resume_step;
			}
		} else if (site && at_resume) {
			/* Someone's trap mid-path: run its instruction.  */
			emu_decode_at(emu, ip, &insn);
			emu_begin_step(emu, th, &insn, regs, false);
			return emu_resume_step;
		}

		emu_plan_chain(emu, th, walk, regs);
		while (th->nchain) {
			const struct emu_walk *end =
				&th->chain[th->nchain - 1].walk;

			if (end->kind == emu_stop_self ||
			    (emu_planted_add(&emu->planted, end->stop) == 0 &&
			     int3_insert(emu->sites, emu->mem, end->stop,
					 int3_owner_emu) == 0))
				break;
			th->nchain--;   /* stop at the RET before instead */
		}
		if (!th->nchain) {
			emu_decode_at(emu, ip, &insn);
			emu_begin_step(emu, th, &insn, regs, false);
			return emu_resume_step;
		}
		th->mode = emu_mode_walk;
		th->walk_lost = false;
		return emu_resume_syscall;
	}
}

/* Resume after a stop the engine handled: set registers if changed.  */
int emu_resume_from(struct emu *emu, struct emu_thread *th,
			   struct user_regs_struct *regs,
			   const struct user_regs_struct *before,
			   bool at_resume, enum emu_resume *how)
{
	*how = emu_continue(emu, th, regs, at_resume);
	if (memcmp(regs, before, sizeof(*regs)) != 0)
		return emu_setregs(th->tid, regs);
	return 0;
}

int emu_prepare(struct emu *emu, pid_t tid, int sig, bool step,
		enum emu_resume *how)
{
	struct emu_thread *th = emu_thread_get(emu, tid);
	struct user_regs_struct regs, before;
	struct emu_insn insn;
	uint64_t resume;
	bool take;
	int err;

	if (!th)
		return -pse_nomem;
	err = emu_getregs(tid, &regs);
	if (err < 0)
		return err;
	before = regs;
	take = !step && th->foreign_held && th->foreign_held == regs.rip;
	th->foreign_held = 0;
	if (th->exiting) {
		/* Only its exit is left to run.  */
		*how = emu_resume_cont;
		return 0;
	}
	if (th->mode == emu_mode_step && !th->step_user) {
		/* A step interrupted by a ptrace event goes on.  */
		*how = emu_resume_step;
		return 0;
	}
	th->mode = emu_mode_stopped;

	if (th->traced && !th->on) {
		bool caught = sig && emu_signal_caught(tid, sig);

		if (caught) {
			/* The kernel stops again at the handler's entry.  */
			th->mode = emu_mode_enter;
			th->step_user = step;
			*how = emu_resume_step;
			return 0;
		}
		resume = emu_syscall_restart_ip(&regs);
		if (resume) {
			/* The kernel will move the IP back to the syscall:
			   step it from there without touching RIP.  If the
			   trace closed in this syscall, it holds it already:
			   a TIP.PGE at it would read as a gap after it (issue
			   13); the step's return resumes the trace.  */
			const struct int3_site *site =
				int3_lookup(emu->sites, resume);

			if (th->in_syscall != resume)
				emu_rec_resume(th, resume);
			emu_decode_at(emu, resume, &insn);
			th->mode = emu_mode_step;
			th->step_insn = insn;
			th->step_user = step;
			th->step_lifted = site != NULL;
			th->step_maps = false;
			if (site)
				nat_mem_write(emu->mem, resume, &site->orig, 1);
			th->steps++;
			*how = emu_resume_step;
			return 0;
		}
		emu_rec_resume(th, regs.rip);
	}

	if (step) {
		emu_decode_at(emu, regs.rip, &insn);
		emu_begin_step(emu, th, &insn, &regs, true);
		*how = emu_resume_step;
		return memcmp(&regs, &before, sizeof(regs)) ?
			emu_setregs(tid, &regs) : 0;
	}
	return emu_resume_from(emu, th, &regs, &before, !take, how);
}
