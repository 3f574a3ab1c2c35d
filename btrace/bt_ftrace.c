/* Function segments built with GDB's rules (gdb/btrace.c): a new segment
   on call, return, tail call and change of function; up/prev/next links;
   gaps for decode errors.  Blocks, not instructions, are stored.  */
#include "btrace/bt_seg.h"
#include "common/ps_array.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

	if (PS_ARRAY_RESERVE(ft->keys, ft->keys_cap, ft->nkeys + 1))
		return -bte_nomem;
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

static const char *bt_seg_name(const struct bt_ftrace *ft, uint32_t seg)
{
	const struct bt_func_key *key = bt_seg_func(ft, seg);

	if (key->sym)
		return key->sym;
	return key->msym ? key->msym : "??";
}

static int bt_seg_switched(const struct bt_ftrace *ft, uint32_t seg,
			   uint32_t key)
{
	if (bt_segs_key(&ft->segs, seg) == key)
		return 0;
	return bt_func_key_switched(bt_seg_func(ft, seg), &ft->keys[key]);
}

/* GDB's ftrace_new_function: a segment at the end, on its
   predecessor's level (as bt_segs_append leaves it).  */
static int bt_new_function(struct bt_ftrace *ft, uint32_t key, uint32_t *out)
{
	uint32_t number;
	int errcode;

	errcode = bt_segs_append(&ft->segs);
	if (errcode < 0)
		return errcode;
	number = bt_nsegs(ft);
	bt_segs_set_key(&ft->segs, number, key);
	*out = number;
	return 0;
}

static int bt_new_call(struct bt_ftrace *ft, uint32_t key, unsigned int flags,
		       uint32_t *out)
{
	uint32_t caller = bt_nsegs(ft);
	int errcode;

	errcode = bt_new_function(ft, key, out);
	if (errcode < 0)
		return errcode;
	bt_segs_set_up(&ft->segs, *out, caller);
	bt_segs_set_level(&ft->segs, *out, bt_seg_level(ft, *out) + 1);
	bt_seg_set_flags(ft, *out, bt_seg_flags(ft, *out) | flags);
	return 0;
}

/* The innermost segment up from SEG whose function is KEY.  */
static uint32_t bt_find_caller(const struct bt_ftrace *ft, uint32_t seg,
			       uint32_t key)
{
	for (; seg; seg = bt_seg_up(ft, seg))
		if (!bt_seg_switched(ft, seg, key))
			break;
	return seg;
}

static unsigned int bt_seg_last_iclass(const struct bt_ftrace *ft,
				       uint32_t seg)
{
	return bt_segs_bits(&ft->segs, seg, bt_segs_iclass_shift,
			    bt_segs_iclass_mask);
}

/* The innermost segment up from SEG that ends in a call.  */
static uint32_t bt_find_call(const struct bt_ftrace *ft, uint32_t seg)
{
	for (; seg; seg = bt_seg_up(ft, seg)) {
		if (!bt_seg_ninsn(ft, seg))
			continue;
		if (bt_seg_last_iclass(ft, seg) == btic_call)
			break;
	}
	return seg;
}

static int bt_new_return(struct bt_ftrace *ft, uint32_t key, uint32_t *out)
{
	uint32_t seg, prev, caller;
	int errcode;

	errcode = bt_new_function(ft, key, out);
	if (errcode < 0)
		return errcode;
	seg = *out;
	prev = seg - 1;

	/* Start at PREV's caller, or a recursive PREV would find itself.  */
	caller = bt_find_caller(ft, bt_seg_up(ft, prev), key);
	if (caller) {
		bt_segs_set_next(&ft->segs, caller, seg);
		bt_segs_set_prev(&ft->segs, seg, caller);
		bt_segs_set_level(&ft->segs, seg, bt_seg_level(ft, caller));
		bt_segs_set_up(&ft->segs, seg, bt_seg_up(ft, caller));
		bt_seg_set_flags(ft, seg, bt_seg_flags(ft, caller));
		return 0;
	}

	/* The call is not in the trace, or we returned elsewhere.  */
	caller = bt_find_call(ft, bt_seg_up(ft, prev));
	if (!caller) {
		/* No call at all: give the topmost function a new caller
		   (this also covers a series of initial tail calls).  */
		while (bt_seg_up(ft, prev))
			prev = bt_seg_up(ft, prev);
		bt_segs_set_level(&ft->segs, seg, bt_seg_level(ft, prev) - 1);
		bt_ftrace_set_caller(ft, prev, seg, btff_up_links_to_ret);
	} else {
		/* A call we should have returned to but did not: start a new
		   back trace from PREV's level (think of context switches).  */
		bt_segs_set_level(&ft->segs, seg, bt_seg_level(ft, prev) - 1);
		bt_segs_set_up(&ft->segs, prev, seg);
		bt_seg_set_flags(ft, prev, btff_up_links_to_ret);
	}
	return 0;
}

static int bt_new_switch(struct bt_ftrace *ft, uint32_t key, uint32_t *out)
{
	int errcode;

	/* Unexplained: keep the call stack, the best guess there is.  */
	errcode = bt_new_function(ft, key, out);
	if (errcode < 0)
		return errcode;
	bt_segs_set_up(&ft->segs, *out, bt_seg_up(ft, *out - 1));
	bt_seg_set_flags(ft, *out, bt_seg_flags(ft, *out - 1));
	return 0;
}

int bt_ftrace_add_gap(struct bt_ftrace *ft, int errcode)
{
	struct bt_func_key none = { NULL, NULL, NULL };
	uint32_t number, key, last = bt_nsegs(ft);
	int status;

	status = bt_key_intern(ft, &none, &key);
	if (status < 0)
		return status;

	/* Take over the last segment if it is still empty.  */
	if (!last || bt_seg_is_gap(ft, last) || bt_seg_nnum(ft, last)) {
		status = bt_new_function(ft, key, &number);
		if (status < 0)
			return status;
	}
	return bt_segs_make_gap(&ft->segs, errcode);
}

int bt_ftrace_add_time(struct bt_ftrace *ft, uint64_t tsc)
{
	uint32_t last = bt_nsegs(ft);
	uint32_t next = last ? bt_seg_insn_offset(ft, last) +
		bt_seg_nnum(ft, last) : 1;

	return bt_times_push(&ft->times, next, tsc);
}

/* The length of the last segment's last instruction, decoded if need be.  */
static int bt_last_size(struct bt_ftrace *ft, uint32_t seg)
{
	int size = (int) bt_segs_bits(&ft->segs, seg, bt_segs_size_shift,
				      bt_segs_size_mask);

	if (size)
		return size;
	size = bt_image_insn_decode(ft->image, ft->last_ip, NULL);
	if (size > 0 && size <= (int) bt_segs_size_mask)
		bt_segs_set_bits(&ft->segs, seg, bt_segs_size_shift,
				 bt_segs_size_mask, (unsigned int) size);
	return size;
}

/* Whether SEG's function is _dl_runtime_resolve, remembered for the
   last function asked about: a million returns come from a few.  */
static int bt_seg_is_resolver(struct bt_ftrace *ft, uint32_t seg)
{
	uint32_t key = bt_segs_key(&ft->segs, seg);

	if (!ft->resolver_asked || ft->resolver_key != key) {
		ft->resolver_asked = 1;
		ft->resolver_key = key;
		ft->resolver = strcmp(bt_seg_name(ft, seg),
				      "_dl_runtime_resolve") == 0;
	}
	return ft->resolver;
}

/* GDB's ftrace_update_function: the segment the instruction at PC (with
   identity KEY) belongs to, creating one as the last branch demands.  */
static int bt_update_function(struct bt_ftrace *ft, uint64_t pc, uint32_t key,
			      uint32_t *out)
{
	uint32_t seg = bt_nsegs(ft);
	const char *name;

	if (!seg || bt_seg_is_gap(ft, seg))
		return bt_new_function(ft, key, out);

	if (bt_seg_nnum(ft, seg)) {
		uint64_t last_ip = ft->last_ip, start;

		switch (bt_seg_last_iclass(ft, seg)) {
		case btic_return:
			/* _dl_runtime_resolve "returns" into the resolved
			   function: that is a tail call.  */
			if (bt_seg_is_resolver(ft, seg))
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
			    bt_find_caller(ft, bt_seg_up(ft, seg), key))
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

	*out = seg;
	return 0;
}

/* The longest block a segment stores: its count is a byte.  */
enum { bt_block_max = UINT8_MAX };

static inline int bt_push_block(struct bt_ftrace *ft, uint64_t ip,
				uint64_t end_ip, uint32_t ninsn,
				enum bt_insn_class iclass,
				unsigned int last_size)
{
	uint32_t seg = bt_nsegs(ft), hi = (uint32_t) (ip >> 32);
	int errcode, index;

	if (!ft->segs.last_nnum) {
		/* Past the table's size, a marker block sets the half.  */
		index = bt_segs_hi_index(&ft->segs, hi);
		if (index < 0)
			index = 0;
		bt_segs_set_bits(&ft->segs, seg, bt_segs_hi_shift,
				 bt_segs_hi_mask, (unsigned int) index);
		ft->cur_hi = ft->segs.his[index];
	}
	if (hi != ft->cur_hi) {
		/* Rare: the segment's code crosses a 4 GiB boundary, or
		   the table of high halves is full.  */
		errcode = bt_segs_push_block(&ft->segs, hi, 0);
		if (errcode < 0)
			return errcode;
		ft->cur_hi = hi;
	}
	errcode = bt_segs_push_block(&ft->segs, (uint32_t) ip, ninsn);
	if (errcode < 0)
		return errcode;

	bt_segs_set_last_insn(&ft->segs, seg, iclass,
			      last_size <= bt_segs_size_mask ? last_size : 0);
	ft->last_ip = end_ip;
	if (ft->track_level && bt_seg_level(ft, seg) < ft->min_level)
		ft->min_level = bt_seg_level(ft, seg);
	return 0;
}

/* Append a block to the last segment, cutting it where it would not fit
   the compact encoding (more than bt_block_max instructions).  */
static int bt_append_block(struct bt_ftrace *ft, uint64_t ip, uint64_t end_ip,
			   uint32_t ninsn, enum bt_insn_class iclass,
			   unsigned int last_size)
{
	while (ninsn > bt_block_max) {
		uint64_t at = ip, last = ip;
		uint32_t n = 0;
		int errcode;

		while (n < bt_block_max) {
			int size = bt_image_insn_length(ft->image, at);

			if (size <= 0)
				return -bte_decode;
			last = at;
			at += (unsigned int) size;
			n += 1;
		}
		if (at > end_ip)
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
			if (ninsn <= bt_block_max)
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
static void bt_ftrace_shrink(struct bt_ftrace *ft)
{
	bt_segs_shrink(&ft->segs);
	if (ft->nkeys && ft->nkeys < ft->keys_cap) {
		void *exact = realloc(ft->keys, ft->nkeys * sizeof(*ft->keys));

		if (exact) {
			ft->keys = exact;
			ft->keys_cap = ft->nkeys;
		}
	}
}

struct bt_ftrace *bt_ftrace_alloc(enum bt_format format,
				   const struct bt_image *image,
				   bt_progress_fn *progress, void *ctx)
{
	struct bt_ftrace *ft = calloc(1, sizeof(*ft));

	if (!ft)
		return NULL;
	bt_segs_init(&ft->segs);
	bt_times_init(&ft->times);
	ft->format = format;
	ft->image = image;
	ft->min_level = INT_MAX;
	ft->track_level = 1;
	ft->progress = progress;
	ft->progress_ctx = ctx;
	return ft;
}

int bt_ftrace_finish(struct bt_ftrace *ft, struct bt_diag *diag)
{
	if (ft->segs.ngaps)
		bt_ftrace_bridge_gaps(ft);
	else
		ft->level = bt_nsegs(ft) ? -ft->min_level : 0;
	/* A wide value the escape table could not take is a lost trace.  */
	if (ft->segs.error < 0)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	bt_ftrace_shrink(ft);
	return 0;
}

void bt_ftrace_free(struct bt_ftrace *ft)
{
	if (!ft)
		return;
	bt_segs_fini(&ft->segs);
	bt_times_fini(&ft->times);
	free(ft->keys);
	free(ft->key_hash);
	free(ft);
}

size_t bt_ftrace_nfunctions(const struct bt_ftrace *ft)
{
	return ft ? ft->segs.count : 0;
}

int bt_ftrace_function(const struct bt_ftrace *ft, uint32_t number,
		       struct bt_function *out)
{
	const struct bt_func_key *key;

	if (!ft || !out)
		return -bte_invalid;
	if (!number || !bt_seg_valid(ft, number))
		return -bte_range;
	key = bt_seg_func(ft, number);

	out->number = number;
	out->insn_offset = bt_seg_insn_offset(ft, number);
	out->ninsn = bt_seg_ninsn(ft, number);
	out->up = bt_seg_up(ft, number);
	out->prev = bt_seg_prev(ft, number);
	out->next = bt_seg_next(ft, number);
	out->level = bt_seg_level(ft, number);
	out->flags = bt_seg_flags(ft, number);
	out->errcode = bt_seg_errcode(ft, number);
	out->msym = key->msym;
	out->sym = key->sym;
	out->file = key->file;
	out->block_begin = bt_segs_first_block(&ft->segs, number);
	out->nblocks = bt_segs_nblocks(&ft->segs, number);
	return 0;
}

int bt_ftrace_level(const struct bt_ftrace *ft)
{
	return ft ? ft->level : 0;
}

uint32_t bt_ftrace_ngaps(const struct bt_ftrace *ft)
{
	return ft ? (uint32_t) ft->segs.ngaps : 0;
}

enum bt_format bt_ftrace_format(const struct bt_ftrace *ft)
{
	return ft ? ft->format : btf_none;
}

size_t bt_ftrace_memory(const struct bt_ftrace *ft)
{
	if (!ft)
		return 0;
	return bt_segs_memory(&ft->segs)
		+ ft->keys_cap * sizeof(*ft->keys)
		+ ft->key_hash_size * sizeof(*ft->key_hash)
		+ ft->times.cap * (sizeof(*ft->times.number) +
				   sizeof(*ft->times.tsc));
}

int bt_ftrace_for_each_block(const struct bt_ftrace *ft, uint32_t number,
			     int (*fn)(uint64_t ip, uint32_t ninsn, void *ctx),
			     void *ctx)
{
	const struct bt_segs *segs;
	uint32_t hi, nblocks, first;

	if (!ft || !fn)
		return -bte_invalid;
	if (!number || !bt_seg_valid(ft, number))
		return -bte_range;

	segs = &ft->segs;
	hi = segs->his[bt_segs_bits(segs, number, bt_segs_hi_shift,
				    bt_segs_hi_mask)];
	nblocks = bt_segs_nblocks(segs, number);
	first = bt_segs_first_block(segs, number);
	for (uint32_t i = first; i < first + nblocks; ++i) {
		uint32_t ninsn = segs->block_ninsn[i];
		int status;

		if (!ninsn) {
			hi = segs->block_ip[i];
			continue;
		}
		status = fn(((uint64_t) hi << 32) | segs->block_ip[i], ninsn,
			    ctx);
		if (status)
			return status;
	}
	return 0;
}

struct bt_insn_walk {
	const struct bt_ftrace *ft;
	int (*fn)(uint64_t ip, void *ctx);
	void *ctx;
	struct bt_insn_cursor cursor;
};

static int bt_insn_walk_block(uint64_t ip, uint32_t ninsn, void *ctx)
{
	struct bt_insn_walk *w = ctx;

	for (uint32_t k = 0; k < ninsn; ++k) {
		int status = w->fn(ip, w->ctx), size;

		if (status)
			return status;
		if (k + 1 == ninsn)
			break;
		size = bt_image_insn_length_at(w->ft->image, &w->cursor, ip);
		if (size <= 0)
			return -bte_decode;
		ip += (unsigned int) size;
	}
	return 0;
}

int bt_ftrace_for_each_insn(const struct bt_ftrace *ft, uint32_t number,
			    int (*fn)(uint64_t ip, void *ctx), void *ctx)
{
	struct bt_insn_walk w;

	if (!ft || !fn)
		return -bte_invalid;
	w.ft = ft;
	w.fn = fn;
	w.ctx = ctx;
	w.cursor.base = 0;
	w.cursor.size = 0;
	return bt_ftrace_for_each_block(ft, number, bt_insn_walk_block, &w);
}

int bt_ftrace_counts(const struct bt_ftrace *ft, uint32_t *insns,
		     uint32_t *functions, uint32_t *gaps)
{
	uint32_t n = 0, calls = 0, last;

	if (!ft)
		return -bte_invalid;

	last = bt_nsegs(ft);
	if (last) {
		int gap = bt_seg_is_gap(ft, last);
		uint32_t ninsn = bt_seg_ninsn(ft, last);

		/* The current instruction ends the trace but is not part of
		   it; a last segment holding only it does not count.  */
		if (last == 1)
			calls = 1;
		else if (!gap && ninsn == 1)
			calls = last - 1;
		else
			calls = last;

		n = bt_seg_insn_offset(ft, last) + (ninsn ? ninsn - 1 : 0);
		if (!gap)
			n -= 1;
	}
	if (insns)
		*insns = n;
	if (functions)
		*functions = calls;
	if (gaps)
		*gaps = (uint32_t) ft->segs.ngaps;
	return 0;
}
