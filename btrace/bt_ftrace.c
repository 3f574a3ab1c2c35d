/* Function segments built with GDB's rules (gdb/btrace.c): a new segment
   on call, return, tail call and change of function; up/prev/next links;
   gaps for decode errors.  Blocks, not instructions, are stored.  */
#include "btrace/bt_ftrace.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23    /* Linux 5.14; older kernels say EINVAL */
#endif

/* Fault in [ADDR, ADDR + SIZE) of a large array that is about to be
   filled, in one call: a page fault each was a third of a 10M-instruction
   decode's time in a VM.  A refusal is harmless.  */
static void bt_prefault(void *addr, size_t size)
{
	uintptr_t page = 4096, begin = (uintptr_t) addr, end = begin + size;

	begin = (begin + page - 1) & ~(page - 1);
	end &= ~(page - 1);
	if (size >= (1u << 20) && end > begin)
		(void) madvise((void *) begin, end - begin,
			       MADV_POPULATE_WRITE);
}

static int bt_grow_slow(void **array, size_t *cap, size_t size)
{
	size_t ncap;
	void *grown;

	ncap = *cap ? 2 * *cap : 256;
	grown = realloc(*array, ncap * size);
	if (!grown)
		return -bte_nomem;
	bt_prefault((char *) grown + *cap * size, (ncap - *cap) * size);
	*array = grown;
	*cap = ncap;
	return 0;
}

/* Inline: called once or twice per block, it rarely has to grow.  */
static inline int bt_grow(void **array, size_t *cap, size_t count,
			  size_t size)
{
	return count < *cap ? 0 : bt_grow_slow(array, cap, size);
}

static size_t bt_key_hash(const struct bt_func_key *key, size_t size)
{
	uint64_t h = (uintptr_t) key->msym * 0x9e3779b97f4a7c15ull;

	h ^= (uintptr_t) key->sym * 0xc2b2ae3d27d4eb4full;
	h ^= (uintptr_t) key->file * 0x165667b19e3779f9ull;
	return (size_t) (h ^ (h >> 29)) & (size - 1);
}

static int bt_key_rehash(struct bt_ftrace *ft)
{
	size_t size = ft->key_hash_size ? 2 * ft->key_hash_size : 256;
	uint32_t *hash = calloc(size, sizeof(*hash));

	if (!hash)
		return -bte_nomem;
	for (size_t i = 0; i < ft->nkeys; ++i) {
		size_t h = bt_key_hash(&ft->keys[i], size);

		while (hash[h])
			h = (h + 1) & (size - 1);
		hash[h] = (uint32_t) i + 1;
	}
	free(ft->key_hash);
	ft->key_hash = hash;
	ft->key_hash_size = size;
	return 0;
}

/* The index of KEY in the key table, adding it if new.  */
static int bt_key_intern(struct bt_ftrace *ft, const struct bt_func_key *key,
			 uint32_t *index)
{
	size_t h;
	int errcode;

	if (2 * (ft->nkeys + 1) > ft->key_hash_size) {
		errcode = bt_key_rehash(ft);
		if (errcode < 0)
			return errcode;
	}
	h = bt_key_hash(key, ft->key_hash_size);
	for (; ft->key_hash[h]; h = (h + 1) & (ft->key_hash_size - 1)) {
		const struct bt_func_key *k = &ft->keys[ft->key_hash[h] - 1];

		if (k->msym == key->msym && k->sym == key->sym &&
		    k->file == key->file) {
			*index = ft->key_hash[h] - 1;
			return 0;
		}
	}

	errcode = bt_grow((void **) &ft->keys, &ft->keys_cap, ft->nkeys,
			  sizeof(*ft->keys));
	if (errcode < 0)
		return errcode;
	ft->keys[ft->nkeys] = *key;
	ft->key_hash[h] = (uint32_t) ft->nkeys + 1;
	*index = (uint32_t) ft->nkeys++;
	return 0;
}

/* The identity at PC and the end of the range where it holds.  */
static int bt_lookup_key(struct bt_ftrace *ft, uint64_t pc, uint32_t *index,
			 uint64_t *hi)
{
	struct bt_func_key key;
	int errcode;

	if (ft->cache_valid && pc >= ft->cache_lo && pc < ft->cache_hi) {
		*index = ft->cache_key;
		*hi = ft->cache_hi;
		return 0;
	}

	errcode = bt_image_func(ft->image, pc, &key, hi);
	if (errcode < 0)
		return errcode;
	errcode = bt_key_intern(ft, &key, index);
	if (errcode < 0)
		return errcode;

	ft->cache_lo = pc;
	ft->cache_hi = *hi;
	ft->cache_key = *index;
	ft->cache_valid = 1;
	return 0;
}

static uint32_t bt_call_num_insn(const struct bt_ftrace *ft,
				 const struct bt_seg *seg)
{
	if (!seg)
		return 0;
	return seg->errcode ? 1 : bt_seg_ninsn(ft, seg);
}

static const char *bt_seg_name(const struct bt_ftrace *ft,
			       const struct bt_seg *seg)
{
	const struct bt_func_key *key = bt_seg_key(ft, seg);

	if (key->sym)
		return key->sym;
	return key->msym ? key->msym : "??";
}

static int bt_seg_switched(const struct bt_ftrace *ft, const struct bt_seg *seg,
			   uint32_t key)
{
	if (seg->key == key)
		return 0;
	return bt_func_key_switched(bt_seg_key(ft, seg), &ft->keys[key]);
}

/* GDB's ftrace_new_function: a segment at the end, on its
   predecessor's level.  Invalidates segment pointers.  */
static int bt_new_function(struct bt_ftrace *ft, uint32_t key, uint32_t *out)
{
	struct bt_seg *seg;
	int errcode;

	errcode = bt_grow((void **) &ft->segs, &ft->segs_cap, ft->nsegs,
			  sizeof(*ft->segs));
	if (errcode < 0)
		return errcode;

	seg = &ft->segs[ft->nsegs];
	memset(seg, 0, sizeof(*seg));
	seg->key = key;
	seg->block_begin = (uint32_t) ft->nblocks;
	if (ft->nsegs == 0)
		seg->insn_offset = 1;
	else {
		const struct bt_seg *prev = &ft->segs[ft->nsegs - 1];

		seg->level = prev->level;
		seg->insn_offset = prev->insn_offset +
			bt_call_num_insn(ft, prev);
	}
	ft->nsegs += 1;
	ft->last_ninsn = 0;
	*out = (uint32_t) ft->nsegs;
	return 0;
}

static int bt_new_call(struct bt_ftrace *ft, uint32_t key, uint8_t flags,
		       uint32_t *out)
{
	uint32_t caller = (uint32_t) ft->nsegs;
	struct bt_seg *seg;
	int errcode;

	errcode = bt_new_function(ft, key, out);
	if (errcode < 0)
		return errcode;
	seg = bt_ftrace_seg(ft, *out);
	seg->up = caller;
	seg->level += 1;
	seg->flags |= flags;
	return 0;
}

/* The innermost segment up from SEG whose function is KEY.  */
static struct bt_seg *bt_find_caller(struct bt_ftrace *ft, struct bt_seg *seg,
				     uint32_t key)
{
	for (; seg; seg = bt_ftrace_seg(ft, seg->up))
		if (!bt_seg_switched(ft, seg, key))
			break;
	return seg;
}

/* The innermost segment up from SEG that ends in a call.  */
static struct bt_seg *bt_find_call(struct bt_ftrace *ft, struct bt_seg *seg)
{
	for (; seg; seg = bt_ftrace_seg(ft, seg->up)) {
		if (seg->errcode || !bt_seg_ninsn(ft, seg))
			continue;
		if (seg->last_iclass == btic_call)
			break;
	}
	return seg;
}

static int bt_new_return(struct bt_ftrace *ft, uint32_t key, uint32_t *out)
{
	struct bt_seg *seg, *prev, *caller;
	int errcode;

	errcode = bt_new_function(ft, key, out);
	if (errcode < 0)
		return errcode;
	seg = bt_ftrace_seg(ft, *out);
	prev = bt_ftrace_seg(ft, *out - 1);

	/* Start at PREV's caller, or a recursive PREV would find itself.  */
	caller = bt_find_caller(ft, bt_ftrace_seg(ft, prev->up), key);
	if (caller) {
		caller->next = *out;
		seg->prev = bt_seg_number(ft, caller);
		seg->level = caller->level;
		seg->up = caller->up;
		seg->flags = caller->flags;
		return 0;
	}

	/* The call is not in the trace, or we returned elsewhere.  */
	caller = bt_find_call(ft, bt_ftrace_seg(ft, prev->up));
	if (!caller) {
		/* No call at all: give the topmost function a new caller
		   (this also covers a series of initial tail calls).  */
		while (prev->up)
			prev = bt_ftrace_seg(ft, prev->up);
		seg->level = prev->level - 1;
		bt_ftrace_set_caller(ft, prev, seg, btff_up_links_to_ret);
	} else {
		/* A call we should have returned to but did not: start a new
		   back trace from PREV's level (think of context switches).  */
		seg->level = prev->level - 1;
		prev->up = *out;
		prev->flags = btff_up_links_to_ret;
	}
	return 0;
}

static int bt_new_switch(struct bt_ftrace *ft, uint32_t key, uint32_t *out)
{
	struct bt_seg *seg, *prev;
	int errcode;

	/* Unexplained: keep the call stack, the best guess there is.  */
	errcode = bt_new_function(ft, key, out);
	if (errcode < 0)
		return errcode;
	seg = bt_ftrace_seg(ft, *out);
	prev = bt_ftrace_seg(ft, *out - 1);
	seg->up = prev->up;
	seg->flags = prev->flags;
	return 0;
}

int bt_ftrace_add_gap(struct bt_ftrace *ft, int errcode)
{
	struct bt_func_key none = { NULL, NULL, NULL };
	uint32_t number, key;
	struct bt_seg *seg = NULL;
	int status;

	status = bt_key_intern(ft, &none, &key);
	if (status < 0)
		return status;

	/* Take over the last segment if it is still empty.  */
	if (ft->nsegs) {
		seg = &ft->segs[ft->nsegs - 1];
		if (seg->errcode || ft->last_ninsn)
			seg = NULL;
	}
	if (seg)
		number = (uint32_t) ft->nsegs;
	else {
		status = bt_new_function(ft, key, &number);
		if (status < 0)
			return status;
		seg = bt_ftrace_seg(ft, number);
	}
	seg->errcode = (int8_t) errcode;

	status = bt_grow((void **) &ft->gaps, &ft->gaps_cap, ft->ngaps,
			 sizeof(*ft->gaps));
	if (status < 0)
		return status;
	ft->gaps[ft->ngaps++] = number;
	return 0;
}

/* The length of the last segment's last instruction, decoded if need be.  */
static int bt_last_size(struct bt_ftrace *ft, struct bt_seg *seg)
{
	int size;

	if (seg->last_size)
		return seg->last_size;
	size = bt_image_insn_decode(ft->image, ft->last_ip, NULL);
	if (size > 0)
		seg->last_size = (uint8_t) size;
	return size;
}

/* GDB's ftrace_update_function: the segment the instruction at PC (with
   identity KEY) belongs to, creating one as the last branch demands.  */
static int bt_update_function(struct bt_ftrace *ft, uint64_t pc, uint32_t key,
			      uint32_t *out)
{
	struct bt_seg *seg;
	const char *name;

	if (!ft->nsegs)
		return bt_new_function(ft, key, out);
	seg = &ft->segs[ft->nsegs - 1];
	if (seg->errcode)
		return bt_new_function(ft, key, out);

	if (ft->last_ninsn) {
		uint64_t last_ip = ft->last_ip, start;

		switch (seg->last_iclass) {
		case btic_return:
			/* _dl_runtime_resolve "returns" into the resolved
			   function: that is a tail call.  */
			if (strcmp(bt_seg_name(ft, seg),
				   "_dl_runtime_resolve") == 0)
				return bt_new_call(ft, key,
						   btff_up_links_to_tailcall,
						   out);
			return bt_new_return(ft, key, out);

		case btic_call:
			/* A call to the next instruction is PIC, not a call.  */
			if (pc > last_ip && pc - last_ip <= 15 &&
			    last_ip + bt_last_size(ft, seg) == pc)
				break;
			return bt_new_call(ft, key, 0, out);

		case btic_jump:
			start = bt_image_func_start(ft->image, pc);
			if (start == pc)
				return bt_new_call(ft, key,
						   btff_up_links_to_tailcall,
						   out);

			/* Some _Unwind_ functions "return" by a jump.  */
			name = bt_seg_name(ft, seg);
			if (strncmp(name, "_Unwind_", 8) == 0 &&
			    bt_find_caller(ft, bt_ftrace_seg(ft, seg->up), key))
				return bt_new_return(ft, key, out);

			if (start == 0 && bt_seg_switched(ft, seg, key))
				return bt_new_call(ft, key,
						   btff_up_links_to_tailcall,
						   out);
			break;

		default:
			break;
		}
	}

	if (bt_seg_switched(ft, seg, key))
		return bt_new_switch(ft, key, out);

	*out = (uint32_t) ft->nsegs;
	return 0;
}

/* The index of HI in the table of high halves, added if there is room;
   else 0 (a marker block then sets HI).  */
static uint8_t bt_hi_index(struct bt_ftrace *ft, uint32_t hi)
{
	for (uint32_t i = 0; i < ft->nhis; ++i)
		if (ft->his[i] == hi)
			return (uint8_t) i;
	if (ft->nhis < sizeof(ft->his) / sizeof(ft->his[0])) {
		ft->his[ft->nhis] = hi;
		return (uint8_t) ft->nhis++;
	}
	return 0;
}

static inline int bt_push_raw(struct bt_ftrace *ft, uint32_t ip_lo,
			      uint32_t ninsn, uint32_t end_off)
{
	struct bt_block *b;
	int errcode;

	errcode = bt_grow((void **) &ft->blocks, &ft->blocks_cap, ft->nblocks,
			  sizeof(*ft->blocks));
	if (errcode < 0)
		return errcode;
	b = &ft->blocks[ft->nblocks++];
	b->ip_lo = ip_lo;
	b->ninsn = (uint16_t) ninsn;
	b->end_off = (uint16_t) end_off;
	return 0;
}

static inline int bt_push_block(struct bt_ftrace *ft, uint64_t ip,
				uint64_t end_ip, uint32_t ninsn,
				enum bt_insn_class iclass,
				unsigned int last_size)
{
	struct bt_seg *seg = &ft->segs[ft->nsegs - 1];
	uint32_t hi = (uint32_t) (ip >> 32);
	int errcode;

	if (!ft->last_ninsn) {
		seg->hi = bt_hi_index(ft, hi);
		ft->cur_hi = ft->his[seg->hi];
	}
	if (hi != ft->cur_hi) {
		/* Rare: the segment's code crosses a 4 GiB boundary, or
		   the table of high halves is full.  */
		errcode = bt_push_raw(ft, hi, 0, 0);
		if (errcode < 0)
			return errcode;
		ft->cur_hi = hi;
	}
	errcode = bt_push_raw(ft, (uint32_t) ip, ninsn,
			      (uint32_t) (end_ip - ip));
	if (errcode < 0)
		return errcode;

	seg = &ft->segs[ft->nsegs - 1];
	ft->last_ninsn += ninsn;
	seg->last_iclass = (uint8_t) iclass;
	seg->last_size = last_size <= 15 ? (uint8_t) last_size : 0;
	ft->last_ip = end_ip;
	if (ft->track_level && seg->level < ft->min_level)
		ft->min_level = seg->level;
	return 0;
}

/* Append a block to the last segment, cutting it where it would not fit
   the compact encoding (more than 64 KiB of code or instructions).  */
static int bt_append_block(struct bt_ftrace *ft, uint64_t ip, uint64_t end_ip,
			   uint32_t ninsn, enum bt_insn_class iclass,
			   unsigned int last_size)
{
	while (end_ip - ip > UINT16_MAX || ninsn > UINT16_MAX) {
		uint64_t at = ip, last = ip;
		uint32_t n = 0;
		int errcode;

		for (;;) {
			int size = bt_image_insn_length(ft->image, at);

			if (size <= 0)
				return -bte_decode;
			last = at;
			at += (unsigned int) size;
			n += 1;
			if (n == UINT16_MAX || at - ip > UINT16_MAX)
				break;
		}
		if (n >= ninsn || at > end_ip)
			return -bte_decode;

		errcode = bt_push_block(ft, ip, last, n, btic_other,
					(unsigned int) (at - last));
		if (errcode < 0)
			return errcode;
		ip = at;
		ninsn -= n;
	}
	return bt_push_block(ft, ip, end_ip, ninsn, iclass, last_size);
}

int bt_ftrace_add_block(struct bt_ftrace *ft, uint64_t ip, uint64_t end_ip,
			uint32_t ninsn, enum bt_insn_class iclass,
			unsigned int last_size)
{
	int errcode;

	if (!ft || !ninsn || end_ip < ip)
		return -bte_invalid;

	while (ninsn) {
		uint32_t key, number, n = 0;
		uint64_t hi, at = ip, last = ip;

		errcode = bt_lookup_key(ft, ip, &key, &hi);
		if (errcode < 0)
			return errcode;
		errcode = bt_update_function(ft, ip, key, &number);
		if (errcode < 0)
			return errcode;

		if (end_ip < hi) {
			/* Most blocks: one function, fitting the encoding.  */
			if (end_ip - ip <= UINT16_MAX && ninsn <= UINT16_MAX)
				return bt_push_block(ft, ip, end_ip, ninsn,
						     iclass, last_size);
			return bt_append_block(ft, ip, end_ip, ninsn, iclass,
					       last_size);
		}

		/* The function changes inside the block (code falls through
		   into the next symbol): cut it there.  */
		while (n < ninsn && at < hi) {
			int size = bt_image_insn_length(ft->image, at);

			if (size <= 0)
				break;
			last = at;
			at += (unsigned int) size;
			n += 1;
		}
		if (n == 0 || n >= ninsn || at > end_ip)
			return bt_append_block(ft, ip, end_ip, ninsn, iclass,
					       last_size);

		errcode = bt_append_block(ft, ip, last, n, btic_other,
					  (unsigned int) (at - last));
		if (errcode < 0)
			return errcode;
		ip = at;
		ninsn -= n;
	}
	return 0;
}

/* Give back what doubling reserved: the arrays no longer grow.  */
static void bt_shrink(void **array, size_t *cap, size_t count, size_t size)
{
	void *exact;

	if (!count || count == *cap)
		return;
	exact = realloc(*array, count * size);
	if (exact) {
		*array = exact;
		*cap = count;
	}
}

static void bt_ftrace_shrink(struct bt_ftrace *ft)
{
	bt_shrink((void **) &ft->blocks, &ft->blocks_cap, ft->nblocks,
		  sizeof(*ft->blocks));
	bt_shrink((void **) &ft->segs, &ft->segs_cap, ft->nsegs,
		  sizeof(*ft->segs));
	bt_shrink((void **) &ft->gaps, &ft->gaps_cap, ft->ngaps,
		  sizeof(*ft->gaps));
	bt_shrink((void **) &ft->keys, &ft->keys_cap, ft->nkeys,
		  sizeof(*ft->keys));
}

int bt_ftrace_build(struct bt_ftrace **pft, const struct bt_bundle *bundle,
		    const struct bt_image *image, struct bt_diag *diag)
{
	return bt_ftrace_build_progress(pft, bundle, image, diag, NULL, NULL);
}

int bt_ftrace_build_progress(struct bt_ftrace **pft,
			     const struct bt_bundle *bundle,
			     const struct bt_image *image, struct bt_diag *diag,
			     bt_progress_fn *progress, void *ctx)
{
	struct bt_ftrace *ft;
	int errcode;

	if (!pft || !bundle || !image)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");

	ft = calloc(1, sizeof(*ft));
	if (!ft)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	ft->format = bundle->format;
	ft->image = image;
	ft->min_level = INT_MAX;
	ft->track_level = 1;
	ft->progress = progress;
	ft->progress_ctx = ctx;

	switch (bundle->format) {
	case btf_pt:
		errcode = bt_pt_decode(ft, bundle, diag);
		break;
	case btf_bts:
		errcode = bt_bts_decode(ft, bundle, diag);
		break;
	default:
		errcode = bt_diag_set(diag, bte_unsupported, 0, 0,
				      "unknown trace format %d",
				      (int) bundle->format);
		break;
	}
	if (errcode < 0) {
		bt_ftrace_free(ft);
		return errcode;
	}

	if (ft->ngaps)
		bt_ftrace_bridge_gaps(ft);
	else
		ft->level = ft->nsegs ? -ft->min_level : 0;

	bt_ftrace_shrink(ft);
	*pft = ft;
	return 0;
}

void bt_ftrace_free(struct bt_ftrace *ft)
{
	if (!ft)
		return;
	free(ft->blocks);
	free(ft->segs);
	free(ft->keys);
	free(ft->key_hash);
	free(ft->gaps);
	free(ft);
}

size_t bt_ftrace_nfunctions(const struct bt_ftrace *ft)
{
	return ft ? ft->nsegs : 0;
}

int bt_ftrace_function(const struct bt_ftrace *ft, uint32_t number,
		       struct bt_function *out)
{
	const struct bt_seg *seg;
	const struct bt_func_key *key;

	if (!ft || !out)
		return -bte_invalid;
	seg = bt_ftrace_seg(ft, number);
	if (!seg)
		return -bte_range;
	key = bt_seg_key(ft, seg);

	out->number = number;
	out->insn_offset = seg->insn_offset;
	out->ninsn = bt_seg_ninsn(ft, seg);
	out->up = seg->up;
	out->prev = seg->prev;
	out->next = seg->next;
	out->level = seg->level;
	out->flags = seg->flags;
	out->errcode = seg->errcode;
	out->msym = key->msym;
	out->sym = key->sym;
	out->file = key->file;
	out->block_begin = seg->block_begin;
	out->nblocks = bt_seg_nblocks(ft, seg);
	return 0;
}

int bt_ftrace_level(const struct bt_ftrace *ft)
{
	return ft ? ft->level : 0;
}

uint32_t bt_ftrace_ngaps(const struct bt_ftrace *ft)
{
	return ft ? (uint32_t) ft->ngaps : 0;
}

enum bt_format bt_ftrace_format(const struct bt_ftrace *ft)
{
	return ft ? ft->format : btf_none;
}

size_t bt_ftrace_memory(const struct bt_ftrace *ft)
{
	if (!ft)
		return 0;
	return ft->blocks_cap * sizeof(*ft->blocks)
		+ ft->segs_cap * sizeof(*ft->segs)
		+ ft->keys_cap * sizeof(*ft->keys)
		+ ft->key_hash_size * sizeof(*ft->key_hash)
		+ ft->gaps_cap * sizeof(*ft->gaps);
}

int bt_ftrace_for_each_insn(const struct bt_ftrace *ft, uint32_t number,
			    int (*fn)(uint64_t ip, void *ctx), void *ctx)
{
	const struct bt_seg *seg;
	uint32_t hi, nblocks;

	if (!ft || !fn)
		return -bte_invalid;
	seg = bt_ftrace_seg(ft, number);
	if (!seg)
		return -bte_range;

	hi = ft->his[seg->hi];
	nblocks = bt_seg_nblocks(ft, seg);
	for (uint32_t i = 0; i < nblocks; ++i) {
		const struct bt_block *b = &ft->blocks[seg->block_begin + i];
		uint64_t ip = ((uint64_t) hi << 32) | b->ip_lo;
		uint64_t end_ip = ip + b->end_off;

		if (!b->ninsn) {
			hi = b->ip_lo;
			continue;
		}
		for (uint32_t k = 0; k < b->ninsn; ++k) {
			int status, size;

			/* Blocks are contiguous: the walk must end exactly at
			   the block's last instruction.  */
			if (k + 1 == b->ninsn && ip != end_ip)
				return -bte_decode;
			status = fn(ip, ctx);
			if (status)
				return status;
			if (k + 1 == b->ninsn)
				break;
			size = bt_image_insn_length(ft->image, ip);
			if (size <= 0)
				return -bte_decode;
			ip += (unsigned int) size;
		}
	}
	return 0;
}

int bt_ftrace_counts(const struct bt_ftrace *ft, uint32_t *insns,
		     uint32_t *functions, uint32_t *gaps)
{
	const struct bt_seg *last;
	uint32_t n = 0, calls = 0;

	if (!ft)
		return -bte_invalid;

	if (ft->nsegs) {
		last = &ft->segs[ft->nsegs - 1];
		/* The current instruction ends the trace but is not part of
		   it; a last segment holding only it does not count.  */
		if (ft->nsegs == 1)
			calls = 1;
		else if (!last->errcode && ft->last_ninsn == 1)
			calls = (uint32_t) ft->nsegs - 1;
		else
			calls = (uint32_t) ft->nsegs;

		n = last->insn_offset + (ft->last_ninsn ? ft->last_ninsn - 1
					 : 0);
		if (!last->errcode)
			n -= 1;
	}
	if (insns)
		*insns = n;
	if (functions)
		*functions = calls;
	if (gaps)
		*gaps = (uint32_t) ft->ngaps;
	return 0;
}
