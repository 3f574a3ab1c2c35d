/* The code-cache engine's state and mappings (cc.h says what the engine
   does): its allocation and end, the code chunks and per-thread data it
   maps into the inferior and removes again (at the end, after exec, in
   a fork child), and blocks translated into the chunks on demand.  The
   other parts run a thread on what this file sets up: cc_enter.c,
   cc_drain.c, cc_stop.c.  */
#define _GNU_SOURCE
#include "nat/emu/cc_int.h"
#include "nat/emu/cc_inject.h"
#include "common/ps_array.h"
#include "nat/emu/emu_engine.h"
#include "nat/int3_table.h"
#include "nat/mem.h"
#include "common/ps_error.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

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
	*out = cc;
	return 0;
}

static void cc_drop_blocks(struct cc *cc)
{
	cc->npatches = 0;
	cc_blocks_clear(&cc->bs);
	for (size_t i = 0; i < cc->nchunks; i++)
		cc->chunks[i].used = cc_chunk_head;
}

struct cc_thread *cc_thread_find(const struct cc *cc, pid_t tid)
{
	for (size_t i = 0; i < cc->nthreads; i++)
		if (cc->threads[i]->tid == tid)
			return cc->threads[i];
	return NULL;
}

struct cc_thread *cc_thread_get(struct cc *cc, pid_t tid)
{
	struct cc_thread *ct = cc_thread_find(cc, tid);

	if (ct)
		return ct;
	if (PS_ARRAY_RESERVE(cc->threads, cc->cap, cc->nthreads + 1))
		return NULL;
	ct = calloc(1, sizeof(*ct));
	if (!ct)
		return NULL;
	ct->tid = tid;
	cc->threads[cc->nthreads++] = ct;
	cc->st.threads++;
	return ct;
}

/* Every data mapping: the threads' and the spare ones.  */
static void cc_unmap_data(struct cc *cc, pid_t tid, struct nat_mem *mem)
{
	for (size_t i = 0; i < cc->nthreads; i++) {
		if (cc->threads[i]->data)
			cc_inject_munmap(tid, mem, cc->syscall_at,
					 cc->threads[i]->data,
					 cc_data_size(cc));
	}
	for (size_t i = 0; i < cc->nspare; i++)
		cc_inject_munmap(tid, mem, cc->syscall_at, cc->spare[i].addr,
				 cc_data_size(cc));
}

static void cc_unmap_local(uint8_t **local, uint64_t size)
{
	if (*local)
		munmap(*local, size);
	*local = NULL;
}

/* The mappings are gone (or about to be): no thread has any, and
   ptstub's views of them go too.  */
static void cc_forget_data(struct cc *cc)
{
	for (size_t i = 0; i < cc->nthreads; i++) {
		cc->threads[i]->data = 0;
		cc_unmap_local(&cc->threads[i]->local, cc_data_size(cc));
	}
	for (size_t i = 0; i < cc->nspare; i++)
		cc_unmap_local(&cc->spare[i].local, cc_data_size(cc));
	cc->nspare = 0;
	for (size_t i = 0; i < cc->nchunks; i++)
		cc_unmap_local(&cc->chunks[i].local, cc_chunk_size);
}

static void cc_unmap(struct cc *cc, pid_t tid)
{
	struct nat_mem *mem = cc->emu->mem;
	uint64_t at = cc->syscall_at;

	cc_unmap_data(cc, tid, mem);
	/* The chunk holding the SYSCALL goes last.  */
	for (size_t i = cc->nchunks; i-- > 0;)
		cc_inject_munmap(tid, mem, i ? at : 0, cc->chunks[i].addr,
				 cc_chunk_size);
	cc_forget_data(cc);
	cc->nchunks = 0;
	cc->syscall_at = 0;
}

void cc_free(struct cc *cc, pid_t tid)
{
	if (!cc)
		return;
	cc_drop_blocks(cc);
	if (tid)
		cc_unmap(cc, tid);
	cc_forget_data(cc);
	cc_blocks_fini(&cc->bs);
	for (size_t i = 0; i < cc->nthreads; i++)
		free(cc->threads[i]);
	free(cc->threads);
	free(cc->spare);
	free(cc->logbuf);
	free(cc->xcode);
	free(cc->patches);
	free(cc);
}

void cc_thread_gone(struct cc *cc, pid_t tid)
{
	struct cc_thread *ct;

	if (!cc || !(ct = cc_thread_find(cc, tid)) || !ct->data)
		return;
	if (!PS_ARRAY_RESERVE(cc->spare, cc->sparecap, cc->nspare + 1))
		cc->spare[cc->nspare++] = (struct cc_spare) {
			ct->data, ct->local };
	else
		cc_unmap_local(&ct->local, cc_data_size(cc));
	ct->data = 0;
	ct->local = NULL;
}

/* Add a thread's own counts (those cc_status says are its own) to TO.  */
static void cc_count_add(struct emu_cache_status *to, const struct emu_cache_status *from)
{
	to->entries += from->entries;
	to->traps += from->traps;
	to->links += from->links;
	to->misses += from->misses;
	to->leaves += from->leaves;
	to->fills += from->fills;
	to->branches += from->branches;
	to->insns += from->insns;
	to->signals += from->signals;
}

void cc_thread_drop(struct cc *cc, pid_t tid)
{
	struct cc_thread *ct;

	if (!cc || !(ct = cc_thread_find(cc, tid)))
		return;
	cc_thread_gone(cc, tid);
	/* The process keeps what the thread ran.  */
	cc_count_add(&cc->st, &ct->st);
	for (size_t i = 0; i < cc->nthreads; i++) {
		if (cc->threads[i] == ct) {
			cc->threads[i] = cc->threads[--cc->nthreads];
			break;
		}
	}
	free(ct);
}

/* Lookups must not find blocks that are gone.  */
static void cc_table_clear(struct cc *cc, const struct cc_thread *ct,
			   pid_t tid)
{
	void *zero;

	if (ct->local) {
		memset(ct->local + cc_ctl_table, 0, (size_t) cc_table_size * 32);
		return;
	}
	zero = calloc(cc_table_size, 32);
	if (zero)
		cc_poke(tid, ct->data + cc_ctl_table, zero,
			(size_t) cc_table_size * 32);
	free(zero);
}

bool cc_others_inside(const struct cc *cc,
			     const struct emu_thread *self)
{
	const struct emu *emu = cc->emu;

	for (size_t i = 0; i < emu->nthreads; i++)
		if (emu->threads[i] != self &&
		    emu->threads[i]->mode == emu_mode_cache)
			return true;
	return false;
}

bool cc_flush_for(struct cc *cc, const struct emu_thread *self)
{
	if (cc_others_inside(cc, self)) {
		cc->flush_pending = true;
		return false;
	}
	cc->flush_pending = false;
	cc->st.flushes++;
	cc_drop_blocks(cc);
	/* The spare mappings' tables are cleared when they are taken.  */
	for (size_t i = 0; i < cc->nthreads; i++)
		if (cc->threads[i]->data)
			cc_table_clear(cc, cc->threads[i],
				       cc->threads[i]->tid);
	return true;
}

void cc_flush(struct cc *cc)
{
	if (!cc || (!cc->bs.nblocks && !cc->bs.nbad && !cc->flush_pending))
		return;
	cc_flush_for(cc, NULL);
}

void cc_flush_range(struct cc *cc, uint64_t lo, uint64_t hi)
{
	if (!cc || cc->flush_pending)
		return;
	/* Starts found uncopyable may be copyable now.  */
	for (size_t i = 0; i < cc->bs.nbad; i++) {
		if (cc->bs.bad[i]->start < hi &&
		    cc->bs.bad[i]->start + 15 >= lo) {
			cc_flush(cc);
			return;
		}
	}
	for (size_t i = 0; i < cc->bs.nblocks; i++) {
		const struct cc_block *blk = cc->bs.blocks[i];

		/* 15 bytes: the longest instruction.  */
		if (blk->span_lo >= hi || blk->span_hi + 15 < lo)
			continue;
		for (uint16_t k = 0; k < blk->ninsns; k++) {
			if (blk->insns[k].ip < hi &&
			    blk->insns[k].ip + 15 >= lo) {
				cc_flush(cc);
				return;
			}
		}
	}
}

void cc_on_site(struct cc *cc, uint64_t addr)
{
	static const uint8_t int3 = 0xcc;

	if (!cc)
		return;
	for (size_t i = 0; i < cc->bs.nblocks; i++) {
		const struct cc_block *blk = cc->bs.blocks[i];

		if (addr < blk->span_lo || addr > blk->span_hi)
			continue;
		for (uint16_t k = 0; k < blk->npos; k++) {
			const struct cc_pos *p = &blk->pos[k];

			if (p->kind != cc_pos_orig ||
			    blk->insns[p->insn].ip != addr ||
			    PS_ARRAY_RESERVE(cc->patches, cc->patchcap,
					     cc->npatches + 1))
				continue;
			if (cc_code_write(cc, blk->cache + p->off, &int3, 1) == 0)
				cc->patches[cc->npatches++] =
					blk->cache + p->off;
		}
	}
}

bool cc_patched(const struct cc *cc, uint64_t cache)
{
	for (size_t i = 0; i < cc->npatches; i++)
		if (cc->patches[i] == cache)
			return true;
	return false;
}

void cc_on_exec(struct cc *cc)
{
	cc_drop_blocks(cc);
	cc_forget_data(cc);
	cc->nchunks = 0;
	cc->syscall_at = 0;
	cc->flush_pending = false;
}

void cc_on_fork(struct cc *cc, pid_t child)
{
	struct nat_mem mem;

	if (!cc->nchunks && !cc->nthreads && !cc->nspare)
		return;
	/* A vfork child shares the memory (and so the cache): only a
	   child proven to have its own copy is cleaned.  */
	if (syscall(SYS_kcmp, cc->emu->pid, child, 1 /* KCMP_VM */, 0, 0) <= 0)
		return;
	nat_mem_init(&mem, child);
	cc_unmap_data(cc, child, &mem);
	for (size_t i = cc->nchunks; i-- > 0;)
		cc_inject_munmap(child, &mem, i ? cc->syscall_at : 0,
				 cc->chunks[i].addr, cc_chunk_size);
	nat_mem_fini(&mem);
}

void cc_status(const struct cc *cc, pid_t tid, struct emu_cache_status *st)
{
	const struct cc_thread *ct = tid ? cc_thread_find(cc, tid) : NULL;

	*st = cc->st;
	st->fallback = cc->fallback;
	if (!tid) {
		/* The threads' own counts: those dropped are in cc->st.  */
		for (size_t i = 0; i < cc->nthreads; i++)
			cc_count_add(st, &cc->threads[i]->st);
		return;
	}
	st->process_fallback = cc->fallback;
	st->fallback = NULL;
	st->entries = st->traps = st->links = st->misses = st->leaves = 0;
	st->fills = st->branches = st->insns = st->signals = 0;
	if (!ct)
		return;
	cc_count_add(st, &ct->st);
	st->fallback = ct->fallback;
}

/* Others' int3s (GDB's breakpoints): a block never copies one.  */
uint64_t cc_sites_sig(const struct cc *cc)
{
	const struct int3_table *t = cc->emu->sites;
	uint64_t h = t->count;

	for (size_t i = 0; i < t->count; i++)
		if (t->sites[i].owners & ~(unsigned) int3_owner_emu)
			h = h * 1000003u ^ t->sites[i].addr;
	/* Sites of the engine's own come and go: only others count.  */
	return h - t->count;
}

bool cc_others_site(const struct cc *cc, uint64_t ip)
{
	const struct int3_site *site = int3_lookup(cc->emu->sites, ip);

	return site && (site->owners & ~(unsigned) int3_owner_emu);
}

bool cc_may_copy(void *ctx, uint64_t ip)
{
	struct cc *cc = ctx;

	return !cc_others_site(cc, ip) &&
		emu_maps_cacheable(&cc->emu->maps, ip);
}

/* The page of code at PAGE, read whole once per batch (NULL if it
   cannot be read).  */
static const uint8_t *cc_code_page(struct cc *cc, uint64_t page)
{
	struct cc_code_page *p;

	if (!page)
		return NULL;
	for (size_t i = 0; i < cc->npages; i++)
		if (cc->pages[i].addr == page)
			return cc->pages[i].bytes;
	p = &cc->pages[cc->npages < cc_code_pages ? cc->npages++
		       : (size_t) (page / cc_page) % cc_code_pages];
	p->addr = 0;
	if (nat_mem_read(cc->emu->mem, page, p->bytes, cc_page) != cc_page)
		return NULL;
	p->addr = page;
	return p->bytes;
}

/* Original code, GDB's and the engine's int3s shadowed: within a batch
   from whole pages read once (an instruction read alone costs a system
   call, and translation reads every one), else straight.  */
static long cc_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct cc *cc = ctx;
	size_t done = 0;

	if (!cc->batch)
		return emu_read_code(cc->emu, addr, buf, len);
	while (done < len) {
		uint64_t at = addr + done, page = at & ~(uint64_t) (cc_page - 1);
		const uint8_t *bytes = cc_code_page(cc, page);
		size_t n = cc_page - (size_t) (at - page);

		if (!bytes)
			break;
		if (n > len - done)
			n = len - done;
		memcpy((uint8_t *) buf + done, bytes + (at - page), n);
		done += n;
	}
	if (!done)
		return -pse_fault;
	int3_shadow(cc->emu->sites, addr, buf, done);
	return (long) done;
}

void cc_batch(struct cc *cc, bool on)
{
	cc->batch = on;
	cc->npages = 0;
}

int cc_code_write(struct cc *cc, uint64_t addr, const void *buf, size_t len)
{
	for (size_t i = 0; i < cc->nchunks; i++) {
		const struct cc_chunk *c = &cc->chunks[i];

		if (addr < c->addr || addr - c->addr + len > cc_chunk_size ||
		    !c->local)
			continue;
		/* A 4-byte copy compiles to one store: a link other
		   threads may be running changes whole.  */
		memcpy(c->local + (addr - c->addr), buf, len);
		return 0;
	}
	return nat_mem_write(cc->emu->mem, addr, buf, len);
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
	void *local;

	if (cc->nchunks == cc_max_chunks)
		return NULL;
	if (cc_inject_mmap(tid, mem, cc->syscall_at, ip, true, cc_chunk_size,
			   PROT_READ | PROT_EXEC, CC_MAP_NAME("code cache"),
			   &addr, &local) < 0)
		return NULL;
	c = &cc->chunks[cc->nchunks++];
	c->addr = addr;
	c->used = cc_chunk_head;
	c->local = local;
	if (cc_code_write(cc, addr, head, sizeof(head)) < 0) {
		cc_inject_munmap(tid, mem, cc->syscall_at, addr,
				 cc_chunk_size);
		cc_unmap_local(&c->local, cc_chunk_size);
		cc->nchunks--;
		return NULL;
	}
	if (!cc->syscall_at)
		cc->syscall_at = addr;
	return c;
}

/* A new thread's table starts as another thread's (its entries name
   the code shared by all), page by page where that one has entries: a
   service that makes a thread per request would otherwise pay a trap
   for every hot return each new thread meets.  */
static void cc_table_inherit(struct cc *cc, struct cc_thread *ct)
{
	const struct cc_thread *from = NULL;

	for (size_t i = 0; i < cc->nthreads && !from; i++)
		if (cc->threads[i] != ct && cc->threads[i]->local)
			from = cc->threads[i];
	if (!from || !ct->local)
		return;
	for (uint64_t off = cc_ctl_table; off < cc_log_off; off += cc_page) {
		const uint64_t *w = (const uint64_t *) (from->local + off);
		size_t k = 0;

		while (k < cc_page / 8 && !w[k])
			k++;
		if (k < cc_page / 8)
			memcpy(ct->local + off, from->local + off, cc_page);
	}
}

/* The per-thread data mapping (control page, log, guard page): a
   spare one (its table cleared), else a new one, shared with ptstub
   where it can be.  */
int cc_thread_data(struct cc *cc, struct cc_thread *ct)
{
	struct nat_mem *mem = cc->emu->mem;
	pid_t tid = ct->tid;
	uint64_t addr, log;
	void *local = NULL;
	int err;

	if (ct->data)
		return 0;
	if (cc->nspare) {
		cc->nspare--;
		addr = cc->spare[cc->nspare].addr;
		local = cc->spare[cc->nspare].local;
		ct->data = addr;
		ct->local = local;
		/* Its table names blocks that may be gone.  */
		cc_table_clear(cc, ct, tid);
	} else {
		err = cc_inject_mmap(tid, mem, cc->syscall_at, cc_data_hint,
				     true, cc_data_size(cc),
				     PROT_READ | PROT_WRITE,
				     CC_MAP_NAME("branch log"), &addr, &local);
		if (err < 0)
			return err;
		err = cc_inject_mprotect(tid, mem, cc->syscall_at,
					 addr + cc_log_off + cc->log_size,
					 cc_page, PROT_NONE);
		if (err < 0) {
			cc_inject_munmap(tid, mem, cc->syscall_at, addr,
					 cc_data_size(cc));
			if (local)
				munmap(local, cc_data_size(cc));
			return err;
		}
	}
	ct->data = addr;
	ct->local = local;
	cc_table_inherit(cc, ct);
	log = addr + cc_log_off;
	if (cc_data_write(ct, tid, cc_ctl_cursor, &log, 8) < 0)
		return -pse_fault;
	return 0;
}

static bool cc_reach(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return d < (1ull << 30);
}

/* The block at START, translated now if need be; NULL if it cannot be
   taken.  */
struct cc_block *cc_block_get(struct cc *cc, pid_t tid, uint64_t start)
{
	struct cc_xlate_env env = { cc_read, cc, cc_may_copy };
	struct cc_block *blk = cc_blocks_find(&cc->bs, start);
	struct cc_chunk *chunk = NULL;
	uint8_t *code;
	uint64_t t0;
	int err;

	/* Stale: none is taken until the flush is done.  */
	if (cc->flush_pending)
		return NULL;
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
	if (!cc->xcode && !(cc->xcode = malloc(cc_block_max_bytes)))
		return NULL;
	code = cc->xcode;
	blk = cc_blocks_new(&cc->bs);
	if (!blk)
		return NULL;
	t0 = cc_now_ns();
	err = cc_xlate(blk, &env, start, chunk->addr + chunk->used, code,
		       cc_block_max_bytes);
	if (!err && cc_code_write(cc, blk->cache, code, blk->size) < 0)
		err = -pse_fault;
	if (!err)
		err = cc_blocks_add(&cc->bs, blk);
	cc->st.xlate_ns += cc_now_ns() - t0;
	if (err < 0) {
		/* Its slot is given again by the next cc_blocks_new.  */
		cc_block_fini(blk);
		cc_blocks_mark_bad(&cc->bs, start);
		return NULL;
	}
	chunk->used += (blk->size + 15) & ~15u;
	blk->span_lo = blk->span_hi = start;
	for (uint16_t k = 0; k < blk->ninsns; k++) {
		if (blk->insns[k].ip < blk->span_lo)
			blk->span_lo = blk->insns[k].ip;
		if (blk->insns[k].ip > blk->span_hi)
			blk->span_hi = blk->insns[k].ip;
	}
	cc->st.blocks++;
	cc->st.bytes += blk->size;
	return blk;
}
