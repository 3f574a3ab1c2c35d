#define _GNU_SOURCE
#include "nat/emu/cc.h"
#include "nat/emu/cc_blocks.h"
#include "nat/emu/cc_inject.h"
#include "nat/emu/cc_xlate.h"
#include "nat/emu/emu_engine.h"
#include "nat/int3_table.h"
#include "nat/mem.h"
#include "common/ps_error.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Code chunks are mapped near the code they copy (RIP-relative operands
   must reach), each with a SYSCALL; INT3 at its start for later
   injections.  */
enum { cc_chunk_size = 4 << 20, cc_chunk_head = 16, cc_max_chunks = 64 };
/* Per-thread data: the control page and lookup table (cc_xlate.h), the
   log, a guard page.  */
enum { cc_page = 4096, cc_log_default = 1 << 20,
       cc_log_off = cc_ctl_table + cc_table_size * 16 };

struct cc_chunk {
	uint64_t addr, used;
};

struct cc_thread {
	pid_t tid;
	uint64_t data;       /* control page; the log follows */
	uint64_t cur_ip;     /* the block the undrained log starts in */
};

struct cc {
	struct emu *emu;
	struct cc_chunk chunks[cc_max_chunks];
	size_t nchunks;
	uint64_t syscall_at;           /* in the first chunk */
	struct cc_blocks bs;
	uint8_t *logbuf;               /* a drained log */
	struct cc_thread th;           /* the one thread it runs */
	uint64_t skip;                 /* an IP not to enter at, once */
	uint64_t sites_sig;            /* others' int3s at translation */
	const char *fallback;
	size_t log_size;               /* bytes of log per thread */
	struct cc_status st;
};

static uint64_t cc_data_size(const struct cc *cc)
{
	return cc_log_off + cc->log_size + cc_page;
}

static uint64_t cc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static bool cc_process_single(pid_t pid)
{
	char path[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int) pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n == 1;
}

int cc_alloc(struct cc **out, struct emu *emu)
{
	struct cc *cc = calloc(1, sizeof(*cc));

	if (!cc)
		return -pse_nomem;
	cc->emu = emu;
	cc->log_size = emu->config.cache_log ?
		(emu->config.cache_log + cc_page - 1) & ~(size_t) (cc_page - 1)
		: cc_log_default;
	if (cc_blocks_init(&cc->bs) < 0) {
		free(cc);
		return -pse_nomem;
	}
	if (!cc_process_single(emu->pid))
		cc->fallback = "more than one thread";
	*out = cc;
	return 0;
}

static void cc_drop_blocks(struct cc *cc)
{
	cc_blocks_clear(&cc->bs);
	for (size_t i = 0; i < cc->nchunks; i++)
		cc->chunks[i].used = cc_chunk_head;
}

static void cc_unmap(struct cc *cc, pid_t tid)
{
	struct nat_mem *mem = cc->emu->mem;
	uint64_t at = cc->syscall_at;

	if (cc->th.data)
		cc_inject_munmap(tid, mem, at, cc->th.data, cc_data_size(cc));
	/* The chunk holding the SYSCALL goes last.  */
	for (size_t i = cc->nchunks; i-- > 0;)
		cc_inject_munmap(tid, mem, i ? at : 0, cc->chunks[i].addr,
				 cc_chunk_size);
	cc->nchunks = 0;
	cc->th.data = 0;
	cc->syscall_at = 0;
}

void cc_free(struct cc *cc, pid_t tid)
{
	if (!cc)
		return;
	cc_drop_blocks(cc);
	if (tid)
		cc_unmap(cc, tid);
	cc_blocks_fini(&cc->bs);
	free(cc->logbuf);
	free(cc);
}

static int cc_peek(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *) addr, len };

	return process_vm_readv(tid, &local, 1, &remote, 1, 0) ==
		(ssize_t) len ? 0 : -pse_fault;
}

static int cc_poke(pid_t tid, uint64_t addr, const void *buf, size_t len)
{
	struct iovec local = { (void *) buf, len },
		remote = { (void *) addr, len };

	return process_vm_writev(tid, &local, 1, &remote, 1, 0) ==
		(ssize_t) len ? 0 : -pse_fault;
}

/* Lookups must not find blocks that are gone.  */
static void cc_table_clear(struct cc *cc)
{
	void *zero;

	if (!cc->th.data)
		return;
	zero = calloc(cc_table_size, 16);
	if (zero)
		cc_poke(cc->th.tid, cc->th.data + cc_ctl_table, zero,
			(size_t) cc_table_size * 16);
	free(zero);
}

void cc_flush(struct cc *cc)
{
	if (!cc || !cc->bs.nblocks)
		return;
	cc->st.flushes++;
	cc_drop_blocks(cc);
	cc_table_clear(cc);
}

void cc_on_exec(struct cc *cc)
{
	cc_drop_blocks(cc);
	cc->nchunks = 0;
	cc->syscall_at = 0;
	cc->th.data = 0;
}

void cc_on_fork(struct cc *cc, pid_t child)
{
	struct nat_mem mem;

	if (!cc->nchunks && !cc->th.data)
		return;
	/* A vfork child shares the memory (and so the cache): only a
	   child proven to have its own copy is cleaned.  */
	if (syscall(SYS_kcmp, cc->emu->pid, child, 1 /* KCMP_VM */, 0, 0) <= 0)
		return;
	nat_mem_init(&mem, child);
	if (cc->th.data)
		cc_inject_munmap(child, &mem, cc->syscall_at, cc->th.data,
				 cc_data_size(cc));
	for (size_t i = cc->nchunks; i-- > 0;)
		cc_inject_munmap(child, &mem, i ? cc->syscall_at : 0,
				 cc->chunks[i].addr, cc_chunk_size);
	nat_mem_fini(&mem);
}

void cc_status(const struct cc *cc, struct cc_status *st)
{
	*st = cc->st;
	st->fallback = cc->fallback;
}

/* Others' int3s (GDB's breakpoints): a block never copies one.  */
static uint64_t cc_sites_sig(const struct cc *cc)
{
	const struct int3_table *t = cc->emu->sites;
	uint64_t h = t->count;

	for (size_t i = 0; i < t->count; i++)
		if (t->sites[i].owners & ~(unsigned) int3_owner_emu)
			h = h * 1000003u ^ t->sites[i].addr;
	/* Sites of the engine's own come and go: only others count.  */
	return h - t->count;
}

static bool cc_may_copy(void *ctx, uint64_t ip)
{
	struct cc *cc = ctx;
	const struct int3_site *site = int3_lookup(cc->emu->sites, ip);

	if (site && (site->owners & ~(unsigned) int3_owner_emu))
		return false;
	return emu_maps_cacheable(&cc->emu->maps, ip);
}

static long cc_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct cc *cc = ctx;

	return emu_read_code(cc->emu, addr, buf, len);
}

/* A new chunk near IP (stopped thread TID makes the call).  */
static struct cc_chunk *cc_chunk_new(struct cc *cc, pid_t tid, uint64_t ip)
{
	static const uint8_t head[cc_chunk_head] = {
		0x0f, 0x05, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
		0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	};
	struct nat_mem *mem = cc->emu->mem;
	struct cc_chunk *c;
	uint64_t addr;

	if (cc->nchunks == cc_max_chunks)
		return NULL;
	if (cc_inject_mmap(tid, mem, cc->syscall_at, ip, true, cc_chunk_size,
			   PROT_READ | PROT_EXEC, CC_MAP_NAME("code cache"), &addr) < 0)
		return NULL;
	if (nat_mem_write(mem, addr, head, sizeof(head)) < 0) {
		cc_inject_munmap(tid, mem, cc->syscall_at, addr,
				 cc_chunk_size);
		return NULL;
	}
	c = &cc->chunks[cc->nchunks++];
	c->addr = addr;
	c->used = cc_chunk_head;
	if (!cc->syscall_at)
		cc->syscall_at = addr;
	return c;
}

/* The per-thread data mapping (control page, log, guard page).  */
static int cc_thread_data(struct cc *cc, pid_t tid)
{
	struct nat_mem *mem = cc->emu->mem;
	uint64_t addr, log;
	int err;

	if (cc->th.data && cc->th.tid == tid)
		return 0;
	if (cc->th.data)
		return -pse_unsupported;
	err = cc_inject_mmap(tid, mem, cc->syscall_at, 0, false,
			     cc_data_size(cc), PROT_READ | PROT_WRITE,
			     CC_MAP_NAME("branch log"), &addr);
	if (err < 0)
		return err;
	err = cc_inject_mprotect(tid, mem, cc->syscall_at,
				 addr + cc_log_off + cc->log_size, cc_page,
				 PROT_NONE);
	if (err < 0) {
		cc_inject_munmap(tid, mem, cc->syscall_at, addr, cc_data_size(cc));
		return err;
	}
	log = addr + cc_log_off;
	if (nat_mem_write(mem, addr + cc_ctl_cursor, &log, 8) < 0)
		return -pse_fault;
	cc->th.tid = tid;
	cc->th.data = addr;
	return 0;
}

static bool cc_reach(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return d < (1ull << 30);
}

/* The block at START, translated now if need be; NULL if it cannot be
   taken.  */
static struct cc_block *cc_block_get(struct cc *cc, pid_t tid,
				     uint64_t start)
{
	struct cc_xlate_env env = {
		cc->emu->decoder, cc_read, cc, cc_may_copy,
	};
	struct cc_block *blk = cc_blocks_find(&cc->bs, start);
	struct cc_chunk *chunk = NULL;
	uint8_t *code;
	uint64_t t0;
	int err;

	if (blk)
		return blk->size ? blk : NULL;
	for (size_t i = 0; i < cc->nchunks; i++)
		if (cc_reach(cc->chunks[i].addr, start) &&
		    cc->chunks[i].used + cc_block_max_bytes <= cc_chunk_size) {
			chunk = &cc->chunks[i];
			break;
		}
	if (!chunk)
		chunk = cc_chunk_new(cc, tid, start);
	if (!chunk) {
		cc_blocks_mark_bad(&cc->bs, start);
		return NULL;
	}
	blk = calloc(1, sizeof(*blk));
	code = malloc(cc_block_max_bytes);
	if (!blk || !code) {
		free(blk);
		free(code);
		return NULL;
	}
	t0 = cc_now_ns();
	err = cc_xlate(blk, &env, start, chunk->addr + chunk->used, code,
		       cc_block_max_bytes);
	if (!err && nat_mem_write(cc->emu->mem, blk->cache, code,
				  blk->size) < 0)
		err = -pse_fault;
	if (!err)
		err = cc_blocks_add(&cc->bs, blk);
	cc->st.xlate_ns += cc_now_ns() - t0;
	free(code);
	if (err < 0) {
		cc_block_fini(blk);
		free(blk);
		cc_blocks_mark_bad(&cc->bs, start);
		return NULL;
	}
	chunk->used += (blk->size + 15) & ~15u;
	cc->st.blocks++;
	cc->st.bytes += blk->size;
	return blk;
}

/* The direct branches of BLK before its instruction K, and the last
   instruction run before K.  */
static void cc_rec_upto(struct emu_thread *th, const struct cc_block *blk,
			uint16_t k)
{
	for (uint16_t e = 0; e < blk->insns[k].edges; e++)
		emu_rec_edge(th, &blk->edges[e]);
	if (blk->insns[k].prev)
		th->last_exec = blk->insns[k].prev;
}

/* The block the log goes on in after BLK: way TAKEN of a conditional,
   else TARGET (found once per block and target, not per entry).  */
static struct cc_block *cc_drain_next(struct cc *cc, struct cc_block *blk,
				      bool taken, uint64_t target)
{
	struct cc_block *to;

	if (blk->end == cc_end_cond) {
		if (!blk->next[taken]) {
			to = cc_blocks_find(&cc->bs, blk->ways[taken].target);
			blk->next[taken] = to && to->size ? to : NULL;
		}
		return blk->next[taken];
	}
	if (blk->last_next && blk->last_target == target)
		return blk->last_next;
	to = cc_blocks_find(&cc->bs, target);
	if (!to || !to->size)
		return NULL;
	blk->last_target = target;
	blk->last_next = to;
	return to;
}

/* One block's record up to its last branch, for a thread recording PT
   (the primitives of emu_pt.h straight: the checks of emu_rec_* hold
   for the whole log).  */
static void cc_drain_pt_block(struct emu_thread *th,
			      const struct cc_block *blk)
{
	struct emu_pt *pt = &th->pt;

	if (th->ring.head - pt->psb_at >= pt->psb_period)
		emu_pt_psb(pt, true, blk->start);
	for (uint16_t e = 0; e < blk->nedges; e++)
		if (blk->edges[e].call)
			emu_pt_call(pt, blk->edges[e].from + blk->edges[e].len);
}

/* Turn N bytes of log into trace: each entry is the outcome of the
   conditional (one byte) or the target of the lookup (eight) that ends
   the block the thread was in.  False if the log does not fit the
   blocks (never expected; the caller records a gap).  */
static bool cc_drain_log(struct cc *cc, struct emu_thread *th,
			 const uint8_t *buf, size_t n)
{
	struct cc_block *blk = cc_blocks_find(&cc->bs, cc->th.cur_ip);
	bool pt = th->format == trace_format_pt && th->traced && th->on;
	uint64_t insns = 0, branches = 0;
	bool ok = true;

	if (blk && !blk->size)
		blk = NULL;
	for (size_t i = 0; i < n;) {
		uint64_t target = 0;
		bool taken = false;

		if (!blk || blk->end == cc_end_exit ||
		    (blk->end != cc_end_cond && n - i < 8)) {
			ok = false;
			break;
		}
		insns += blk->ncopied + blk->nedges;
		branches++;
		if (pt) {
			cc_drain_pt_block(th, blk);
		} else {
			emu_rec_psb(th, blk->start);
			cc_rec_upto(th, blk, (uint16_t) (blk->ninsns - 1));
		}
		if (blk->end == cc_end_cond) {
			taken = buf[i++] != 0;
			if (pt)
				emu_pt_tnt(&th->pt, taken);
			else
				emu_rec_cond(th, blk->jcc_ip, taken,
					     blk->jcc_target);
		} else {
			memcpy(&target, buf + i, 8);
			i += 8;
			if (pt && blk->end == cc_end_ret) {
				emu_pt_ret(&th->pt, target);
			} else if (pt) {
				emu_pt_tip(&th->pt, target);
				if (blk->ind_call)
					emu_pt_call(&th->pt, blk->jcc_target);
			} else if (blk->end == cc_end_ret) {
				emu_rec_ret(th, blk->jcc_ip, target);
			} else {
				emu_rec_indirect(th, blk->jcc_ip, target,
						 blk->jcc_target,
						 blk->ind_call);
			}
		}
		th->last_exec = blk->jcc_ip;
		cc->th.cur_ip = blk->end == cc_end_cond ?
			blk->ways[taken].target : target;
		blk = cc_drain_next(cc, blk, taken, target);
	}
	cc->st.insns += insns;
	cc->st.branches += branches;
	return ok;
}

/* Turn the thread's log into trace, and empty it.  */
static bool cc_drain(struct cc *cc, struct emu_thread *th)
{
	uint64_t log = cc->th.data + cc_log_off, cursor;
	uint64_t t0;
	size_t n;
	bool ok;

	if (cc_peek(th->tid, cc->th.data + cc_ctl_cursor, &cursor, 8) < 0 ||
	    cursor < log || cursor > log + cc->log_size)
		return false;
	n = (size_t) (cursor - log);
	if (!n)
		return true;
	if (!cc->logbuf && !(cc->logbuf = malloc(cc->log_size)))
		return false;
	t0 = cc_now_ns();
	if (cc_peek(th->tid, log, cc->logbuf, n) < 0)
		return false;
	ok = cc_drain_log(cc, th, cc->logbuf, n);
	cc_poke(th->tid, cc->th.data + cc_ctl_cursor, &log, 8);
	cc->st.drain_ns += cc_now_ns() - t0;
	return ok;
}

bool cc_enter(struct cc *cc, struct emu_thread *th,
	      struct user_regs_struct *regs)
{
	struct emu *emu = cc->emu;
	struct cc_block *blk;
	uint64_t sig;

	if (cc->fallback || !th->traced || !th->on)
		return false;
	if (cc->skip && cc->skip == regs->rip) {
		cc->skip = 0;
		return false;
	}
	if (emu->nthreads != 1 || emu->ntraced != 1)
		return false;
	if (regs->gs_base || regs->gs) {
		cc->fallback = "the program uses GS";
		return false;
	}
	sig = cc_sites_sig(cc);
	if (sig != cc->sites_sig) {
		cc_flush(cc);
		cc->sites_sig = sig;
	}
	if (!cc_may_copy(cc, regs->rip))
		return false;
	blk = cc_block_get(cc, th->tid, regs->rip);
	if (!blk)
		return false;
	if (cc_thread_data(cc, th->tid) < 0) {
		cc->fallback = "its mappings could not be made";
		return false;
	}
	{
		/* Returns find this block through the table.  */
		uint64_t at = cc->th.data + cc_ctl_table +
			((regs->rip & (cc_table_size - 1)) << 3);
		uint64_t neg = -regs->rip;

		cc_poke(th->tid, at, &neg, 8);
		cc_poke(th->tid, at + cc_table_size * 8, &blk->cache, 8);
	}
	cc->th.cur_ip = regs->rip;
	regs->rip = blk->cache;
	regs->gs_base = cc->th.data;
	th->mode = emu_mode_cache;
	cc->st.entries++;
	return true;
}

/* Point way W of BLK at TO.  */
static void cc_link(struct cc *cc, const struct cc_block *blk, uint8_t w,
		    const struct cc_block *to)
{
	const struct cc_way *way = &blk->ways[w];
	uint64_t jmp = blk->cache + way->jmp_off;
	int64_t rel = (int64_t) (to->cache - (jmp + 5));

	if (rel >= INT32_MIN && rel <= INT32_MAX) {
		int32_t r = (int32_t) rel;

		nat_mem_write(cc->emu->mem, jmp + 1, &r, 4);
	} else {
		uint8_t stub[cc_stub_size];

		cc_stub_abs_jmp(stub, to->cache);
		nat_mem_write(cc->emu->mem, blk->cache + way->stub_off, stub,
			      sizeof(stub));
	}
}

/* A stop in a return's lookup: registers back from their slots; before
   the target is logged the return has not run, after it, it has.  */
static bool cc_settle_ret(struct cc *cc, struct emu_thread *th,
			  const struct cc_block *blk,
			  const struct cc_pos *pos,
			  struct user_regs_struct *regs, uint64_t *orig)
{
	uint64_t v;

	if (pos->flags & cc_ret_rax) {
		if (cc_peek(th->tid, cc->th.data + cc_ctl_save, &v, 8) < 0)
			return false;
		regs->rax = v;
	}
	if (pos->flags & cc_ret_rcx) {
		if (cc_peek(th->tid, cc->th.data + cc_ctl_save2, &v, 8) < 0)
			return false;
		regs->rcx = v;
	}
	if (pos->flags & cc_ret_logged) {
		/* The drain recorded the return and moved on to its
		   target.  */
		if (blk->end == cc_end_ret && !(pos->flags & cc_ret_rsp))
			regs->rsp += blk->ret_pop;
		if (blk->ind_call) {
			/* The call's push, finished.  */
			if (!(pos->flags & cc_ret_rsp))
				regs->rsp -= 8;
			if (cc_poke(th->tid, regs->rsp, &blk->jcc_target, 8) < 0)
				return false;
		}
		*orig = cc->th.cur_ip;
		return true;
	}
	if (cc->th.cur_ip != blk->start)
		return false;
	cc_rec_upto(th, blk, (uint16_t) (blk->ninsns - 1));
	cc->st.insns += blk->ncopied - 1 + blk->nedges;
	*orig = blk->jcc_ip;
	return true;
}

/* Where a thread stopped at cache address IP stands in original terms:
   the trace up to there is recorded, the glue it was in finished, and
   *ORIG is the original IP of the next instruction.  */
static bool cc_settle(struct cc *cc, struct emu_thread *th,
		      struct user_regs_struct *regs, uint64_t ip,
		      uint64_t *orig)
{
	const struct cc_block *blk = cc_blocks_at(&cc->bs, ip);
	const struct cc_pos *pos;
	bool drained = cc_drain(cc, th);

	if (!blk || !drained)
		return false;
	pos = cc_block_pos(blk, (uint32_t) (ip - blk->cache));
	if (!pos)
		return false;
	switch (pos->kind) {
	case cc_pos_push: {
		/* Finish the push: the thread is then at the callee.  */
		const struct emu_edge *e = &blk->edges[pos->insn];
		uint64_t ret = e->from + e->len;

		if (pos->flags == 0)
			regs->rsp -= 8;
		if (cc->th.cur_ip != blk->start ||
		    cc_poke(th->tid, regs->rsp, &ret, 8) < 0)
			return false;
		for (uint16_t i = 0; i <= pos->insn; i++)
			emu_rec_edge(th, &blk->edges[i]);
		*orig = e->to;
		return true;
	}
	case cc_pos_orig:
		if (cc->th.cur_ip != blk->start)
			return false;
		cc_rec_upto(th, blk, pos->insn);
		*orig = blk->insns[pos->insn].ip;
		return true;
	case cc_pos_ret:
	case cc_pos_miss:
		return cc_settle_ret(cc, th, blk, pos, regs, orig);
	default:
		break;
	}
	/* In an exit's glue or at its stub.  */
	if (pos->flags & cc_way_rax_saved) {
		uint64_t rax;

		if (cc_peek(th->tid, cc->th.data + cc_ctl_save, &rax, 8) < 0)
			return false;
		regs->rax = rax;
	}
	if (blk->end == cc_end_exit || !(pos->flags & cc_way_logged)) {
		if (cc->th.cur_ip != blk->start)
			return false;
		cc_rec_upto(th, blk, (uint16_t) (blk->ninsns - 1));
		cc->st.insns += blk->ncopied + blk->nedges;
		if (blk->end == cc_end_cond) {
			emu_rec_cond(th, blk->jcc_ip, pos->way == 1,
				     blk->jcc_target);
			cc->st.branches++;
		}
	} else if (cc->th.cur_ip != blk->ways[pos->way].target) {
		return false;
	}
	*orig = blk->ways[pos->way].target;
	cc->th.cur_ip = *orig;
	return true;
}

/* Leave the cache at ORIG: registers as the program knows them.  */
static void cc_leave(struct emu_thread *th, struct user_regs_struct *regs,
		     uint64_t orig)
{
	regs->rip = orig;
	regs->gs_base = 0;
	th->mode = emu_mode_stopped;
}

/* A signal's siginfo may name the faulting instruction: the original.  */
static void cc_fix_siginfo(struct cc *cc, pid_t tid, uint64_t cache_ip,
			   uint64_t orig)
{
	siginfo_t si;

	if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) < 0)
		return;
	if ((uint64_t) si.si_addr == cache_ip ||
	    cc_blocks_at(&cc->bs, (uint64_t) si.si_addr)) {
		si.si_addr = (void *) orig;
		ptrace(PTRACE_SETSIGINFO, tid, 0, &si);
	}
}

static bool cc_si_kernel(pid_t tid, uint64_t *addr)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) < 0)
		return false;
	*addr = (uint64_t) si.si_addr;
	return si.si_code == SI_KERNEL || si.si_code > 0;
}

/* Run the return or indirect branch ending BLK at ORIG, for the
   thread: recorded, registers updated, *TARGET its target.  False if
   it would fault (the ptrace engine runs it then).  */
static bool cc_run_branch(struct cc *cc, struct emu_thread *th,
			  const struct cc_block *blk,
			  struct user_regs_struct *regs, uint64_t orig,
			  uint64_t *target)
{
	struct emu_access acc = { cc->emu, th->tid };
	struct user_regs_struct r = *regs;
	struct emu_insn insn;

	if (blk->end == cc_end_ret) {
		if (cc_peek(th->tid, regs->rsp, target, 8) < 0)
			return false;
		emu_rec_ret(th, orig, *target);
		regs->rsp += blk->ret_pop;
		return true;
	}
	r.gs_base = 0;
	r.rip = orig;
	if (emu_decode_at(cc->emu, orig, &insn) < 0 ||
	    emu_emulate(th, &acc, &insn, &r) < 0)
		return false;
	*target = r.rip;
	regs->rsp = r.rsp;
	return true;
}

/* Whether a SIGSEGV at FAULT is a log store running into the guard
   page; *REG gets the register holding the cursor.  */
static bool cc_log_full(struct cc *cc, const struct cc_block *blk,
			struct user_regs_struct *regs, uint64_t fault,
			unsigned long long **reg)
{
	const struct cc_pos *pos = cc_block_pos(blk,
			(uint32_t) (regs->rip - blk->cache));
	uint64_t guard = cc->th.data + cc_log_off + cc->log_size;

	if (!pos)
		return false;
	if (pos->kind == cc_pos_way && (pos->flags & cc_way_store))
		*reg = &regs->rax;
	else if (pos->kind == cc_pos_ret && (pos->flags & cc_ret_store))
		*reg = &regs->rcx;
	else
		return false;
	return fault >= guard && fault < guard + 8 && **reg + 8 > guard &&
		**reg <= guard;
}

int cc_on_stop(struct cc *cc, struct emu_thread *th,
	       struct user_regs_struct *regs, int sig,
	       enum emu_verdict *verdict, enum emu_resume *how)
{
	struct user_regs_struct before = *regs;
	const struct cc_block *blk;
	const struct cc_pos *pos = NULL;
	uint64_t orig, fault = 0;
	unsigned long long *cursor;

	blk = cc_blocks_at(&cc->bs, regs->rip - (sig == SIGTRAP));
	if (blk)
		pos = cc_block_pos(blk, (uint32_t) (regs->rip - 1 -
						    blk->cache));
	if (sig == SIGTRAP && pos && pos->kind == cc_pos_stub &&
	    cc_si_kernel(th->tid, &fault)) {
		/* An exit: record up to it, then link or leave.  */
		uint8_t w = pos->way;
		const struct cc_block *to;

		cc->st.traps++;
		*verdict = emu_consumed;
		if (!cc_settle(cc, th, regs, regs->rip - 1, &orig)) {
			cc->fallback = "a stop it could not place";
			orig = blk->ways[w].target;
			emu_rec_gap(th, orig);
			cc_leave(th, regs, orig);
			return emu_resume_from(cc->emu, th, regs, &before,
					       false, how);
		}
		if (blk->ways[w].link && cc_sites_sig(cc) == cc->sites_sig &&
		    cc_may_copy(cc, orig) &&
		    (to = cc_block_get(cc, th->tid, orig))) {
			/* cc_block_get may have moved BLK in its array, not
			   in memory.  */
			cc_link(cc, blk, w, to);
			regs->rip = to->cache;
			*how = emu_resume_cont;
			return emu_setregs(th->tid, regs);
		}
		cc_leave(th, regs, orig);
		return emu_resume_from(cc->emu, th, regs, &before, false, how);
	}
	if (sig == SIGTRAP && pos && pos->kind == cc_pos_miss &&
	    cc_si_kernel(th->tid, &fault)) {
		/* A return whose target is not in the table: the ptrace
		   engine runs it, and the thread comes back in at its
		   target (cc_enter fills the table).  */
		uint64_t target;

		cc->st.traps++;
		*verdict = emu_consumed;
		if (!cc_settle(cc, th, regs, regs->rip - 1, &orig)) {
			cc->fallback = "a stop it could not place";
			emu_rec_gap(th, blk->jcc_ip);
			orig = blk->jcc_ip;
		} else if (cc_run_branch(cc, th, blk, regs, orig, &target)) {
			/* Run here, and go on in the cache.  */
			regs->rip = target;
			regs->gs_base = 0;
			cc->th.cur_ip = target;
			if (cc_enter(cc, th, regs)) {
				*how = emu_resume_cont;
				return emu_setregs(th->tid, regs);
			}
			orig = target;
		} else {
			/* It faults: the ptrace engine runs it.  */
			cc->skip = orig;
		}
		cc_leave(th, regs, orig);
		return emu_resume_from(cc->emu, th, regs, &before, false, how);
	}
	if (sig == SIGSEGV && blk && cc_si_kernel(th->tid, &fault) &&
	    cc_log_full(cc, blk, regs, fault, &cursor)) {
		/* The log is full: drained, the store goes on at its start. */
		cc->st.fills++;
		if (!cc_drain(cc, th)) {
			emu_rec_gap(th, 0);
			cc->fallback = "its log could not be read";
		}
		*cursor = cc->th.data + cc_log_off;
		*verdict = emu_consumed;
		*how = emu_resume_cont;
		return emu_setregs(th->tid, regs);
	}
	/* Someone else's stop: out of the cache, then as the ptrace engine
	   would see it.  */
	if (!cc_settle(cc, th, regs, regs->rip, &orig)) {
		emu_rec_gap(th, 0);
		cc->fallback = "a stop it could not place";
		cc_leave(th, regs, cc->th.cur_ip);
		return emu_setregs(th->tid, regs);
	}
	if (sig != SIGTRAP && sig != SIGSTOP)
		cc_fix_siginfo(cc, th->tid, before.rip, orig);
	cc->st.signals++;
	cc_leave(th, regs, orig);
	emu_rec_interrupt(th, orig, th->last_exec);
	return emu_setregs(th->tid, regs);
}
