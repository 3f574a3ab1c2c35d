/* The function-call history, printed exactly as GDB 13.1's
   `record function-call-history` does (gdb/record-btrace.c), including
   its window arithmetic: the call iterator below keeps GDB's unsigned
   semantics so that edge cases print the same lines.  */
#include "btrace/bt_history.h"
#include "btrace/bt_image.h"
#include "btrace/bt_json.h"
#include "btrace/bt_msym_name.h"

#include <intel-pt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* GDB's btrace_call_iterator: an index into the segments, 0..length
   (the index of struct bt_hist_it).  */
static int bt_ends_with_single_insn(const struct bt_ftrace *ft)
{
	uint32_t last = bt_nsegs(ft);

	return last && bt_seg_ninsn(ft, last) == 1;
}

static unsigned int bt_call_next(const struct bt_ftrace *ft,
				 struct bt_hist_it *it, unsigned int stride)
{
	const unsigned int length = bt_nsegs(ft);

	if (it->index + stride < length - 1)
		it->index += stride;
	else if (it->index + stride == length - 1)
		it->index = bt_ends_with_single_insn(ft) ? length : length - 1;
	else {
		/* Past the end; the current instruction alone is not part of
		   the trace.  (Unsigned, as in GDB.)  */
		if (bt_ends_with_single_insn(ft))
			stride = length - it->index - 1;
		else
			stride = length - it->index;
		it->index = length;
	}
	return stride;
}

static unsigned int bt_call_prev(const struct bt_ftrace *ft,
				 struct bt_hist_it *it, unsigned int stride)
{
	const unsigned int length = bt_nsegs(ft);
	unsigned int steps = 0;

	if (stride == 0 || it->index == 0)
		return 0;

	if (it->index == length && length > 1) {
		it->index = bt_ends_with_single_insn(ft) ? length - 2
			: length - 1;
		steps = 1;
		stride -= 1;
	}
	if (stride > it->index)
		stride = it->index;
	it->index -= stride;
	return steps + stride;
}

/* Whether the trace has no instruction but the current one.  */
static int bt_trace_empty(const struct bt_ftrace *ft)
{
	if (!bt_nsegs(ft))
		return 1;
	return bt_nsegs(ft) == 1 && bt_seg_ninsn(ft, 1) <= 1;
}

const char *bt_gap_string(enum bt_format format, int errcode)
{
	switch (format) {
	case btf_bts:
		if (errcode == btg_bts_overflow)
			return "instruction overflow";
		if (errcode == btg_bts_insn_size)
			return "unknown instruction";
		break;
	case btf_pt:
		if (errcode == btg_pt_user_quit)
			return "trace decode cancelled";
		if (errcode == btg_pt_disabled)
			return "disabled";
		if (errcode == btg_pt_overflow)
			return "overflow";
		if (errcode < 0)
			return pt_errstr(pt_errcode(errcode));
		break;
	default:
		break;
	}
	return "unknown";
}

void bt_print_edge(FILE *out, int at_edge, int json)
{
	struct bt_json_list l;

	if (json) {
		bt_json_list_init(&l, out, "");
		bt_json_list_fini(&l, "\n");
	} else
		fprintf(out, "At the %s of the branch trace record.\n",
			at_edge < 0 ? "start" : "end");
}

void bt_print_gap(FILE *out, enum bt_format format, int errcode)
{
	/* Positive PT codes are notifications, not errors.  */
	fputc('[', out);
	if (!(format == btf_pt && errcode > 0))
		fprintf(out, "decode error (%d): ", errcode);
	fprintf(out, "%s]\n", bt_gap_string(format, errcode));
}

/* The lowest and highest line of SEG's instructions that lie in its
   function's own file (GDB's btrace_compute_src_line_range).  Each
   instruction's line is looked up only where it may differ from the
   last one's: the lookup gives the addresses its answer holds for, and
   the rest of a block that lies inside them is skipped undecoded.  */
struct bt_line_range {
	const struct bt_image *image;
	const char *file;
	int begin, end;
	/* The last answer and where it holds.  */
	uint64_t lo, hi;
	struct bt_insn_cursor cursor;
	struct bt_line_cache *cache;
};

/* Blocks recur (a loop, a function called again): the lines of a block
   in a file, by its address and length, in a direct-mapped table.  */
struct bt_line_block_ent {
	uint64_t ip;
	const char *file;
	uint32_t ninsn;
	int begin, end;
};

enum { bt_line_cache_size = 1 << 13 };

struct bt_line_cache {
	struct bt_line_block_ent v[bt_line_cache_size];
};

/* A longest instruction: how far a block's next instruction may be.  */
enum { bt_max_insn = 15 };

static void bt_line_block_walk(struct bt_line_range *r, uint64_t ip,
			       uint32_t ninsn)
{
	for (uint32_t left = ninsn - 1;; --left) {
		int size;

		if (ip < r->lo || ip >= r->hi) {
			const char *file = NULL;
			int line = 0;

			if (bt_image_line_extent(r->image, ip, &line, &file,
						 &r->lo, &r->hi) == 0 &&
			    line != 0 && file && (file == r->file ||
						  strcmp(file, r->file) == 0)) {
				if (line < r->begin)
					r->begin = line;
				if (line > r->end)
					r->end = line;
			}
		}
		/* The rest of the block is inside [lo, hi).  */
		if (!left || (r->hi - ip) / bt_max_insn > left)
			return;
		size = bt_image_insn_length_at(r->image, &r->cursor, ip);
		if (size <= 0)
			return;
		ip += (unsigned int) size;
	}
}

static int bt_line_block(uint64_t ip, uint32_t ninsn, void *ctx)
{
	struct bt_line_range *r = ctx, whole;
	struct bt_line_block_ent *e;

	if (!r->cache) {
		bt_line_block_walk(r, ip, ninsn);
		return 0;
	}
	e = &r->cache->v[(ip ^ (ip >> 12) ^ ((uint64_t) ninsn << 5)) &
			 (bt_line_cache_size - 1)];
	if (e->ip != ip || e->ninsn != ninsn || e->file != r->file) {
		/* The block's own lines, then merged.  */
		whole = *r;
		whole.begin = INT_MAX;
		whole.end = INT_MIN;
		bt_line_block_walk(&whole, ip, ninsn);
		r->lo = whole.lo;
		r->hi = whole.hi;
		r->cursor = whole.cursor;
		e->ip = ip;
		e->ninsn = ninsn;
		e->file = r->file;
		e->begin = whole.begin;
		e->end = whole.end;
	}
	if (e->begin < r->begin)
		r->begin = e->begin;
	if (e->end > r->end)
		r->end = e->end;
	return 0;
}

static void bt_seg_lines(const struct bt_ftrace *ft,
			 const struct bt_image *image,
			 struct bt_line_cache *cache, uint32_t number,
			 const char *file, int *begin, int *end)
{
	struct bt_line_range r;

	r.cache = cache;
	r.image = image;
	r.file = file;
	r.begin = INT_MAX;
	r.end = INT_MIN;
	r.lo = r.hi = 0;
	r.cursor.base = 0;
	r.cursor.size = 0;
	if (image && file)
		bt_ftrace_for_each_block(ft, number, bt_line_block, &r);
	*begin = r.begin;
	*end = r.end;
}

/* The function's name as GDB prints it (btrace_get_bfun_name).  */
static const char *bt_key_name(const struct bt_func_key *key, char *buf,
			       size_t size)
{
	if (key->sym)
		return key->sym;
	return key->msym ? bt_msym_print_name(key->msym, buf, size) : "??";
}

/* Lines of output gathered for one fwrite: stdio's cost per call
   (fprintf most of all) was most of printing a million-line history.  */
struct bt_line {
	FILE *out;
	size_t n;
	char text[16384];
};

static void bt_line_flush(struct bt_line *l)
{
	fwrite(l->text, 1, l->n, l->out);
	l->n = 0;
}

static inline void bt_line_put(struct bt_line *l, const char *s,
			       size_t len)
{
	if (l->n + len > sizeof(l->text)) {
		bt_line_flush(l);
		if (len > sizeof(l->text)) {
			fwrite(s, 1, len, l->out);
			return;
		}
	}
	memcpy(l->text + l->n, s, len);
	l->n += len;
}

static inline void bt_line_str(struct bt_line *l, const char *s)
{
	bt_line_put(l, s, strlen(s));
}

/* N in decimal, as "%u" prints it, written in place two digits a step.  */
static inline void bt_line_uint(struct bt_line *l, unsigned int n)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	size_t len = 1;
	char *p;

	for (unsigned int m = n; m >= 10; m /= 10)
		len += 1;
	if (l->n + len > sizeof(l->text))
		bt_line_flush(l);
	l->n += len;
	p = l->text + l->n;
	while (n >= 100) {
		unsigned int k = (n % 100) * 2;

		n /= 100;
		*--p = pairs[k + 1];
		*--p = pairs[k];
	}
	if (n >= 10) {
		*--p = pairs[n * 2 + 1];
		*--p = pairs[n * 2];
	} else
		*--p = (char) ('0' + n);
}

/* Segment NUMBER's level, one step from the last one asked in order.  */
struct bt_level_walk {
	uint32_t number;          /* 0: none asked yet */
	int level;
};

static int bt_walk_level(const struct bt_ftrace *ft, struct bt_level_walk *w,
			 uint32_t number)
{
	if (w->number && number == w->number + 1)
		w->level = bt_segs_level_next(&ft->segs, number, w->level);
	else
		w->level = bt_seg_level(ft, number);
	w->number = number;
	return w->level;
}

static void bt_print_seg(struct bt_line *l, const struct bt_ftrace *ft,
			 const struct bt_image *image,
			 struct bt_line_cache *cache, uint32_t number,
			 int flags, struct bt_level_walk *walk)
{
	const struct bt_func_key *key = bt_seg_func(ft, number);
	int errcode = bt_seg_errcode(ft, number);
	char name[1024];
	int begin, end;

	bt_line_uint(l, number);
	bt_line_put(l, "\t", 1);
	if (errcode) {
		bt_line_flush(l);
		bt_print_gap(l->out, ft->format, errcode);
		return;
	}

	if (flags & btcf_indent)
		for (int i = 0, n = bt_walk_level(ft, walk, number) + ft->level;
		     i < n; ++i)
			bt_line_put(l, "  ", 2);

	bt_line_str(l, bt_key_name(key, name, sizeof(name)));

	if (flags & btcf_insn_range) {
		uint32_t first = bt_seg_insn_offset(ft, number);

		bt_line_str(l, "\tinst ");
		bt_line_uint(l, first);
		bt_line_put(l, ",", 1);
		bt_line_uint(l, first + bt_seg_ninsn(ft, number) - 1);
	}

	if (flags & btcf_src_line) {
		bt_line_str(l, "\tat ");
		if (key->sym && key->file) {
			bt_line_str(l, key->file);
			bt_seg_lines(ft, image, cache, number, key->file,
				     &begin, &end);
			/* Lines are positive: 0 is never recorded.  */
			if (begin <= end) {
				bt_line_put(l, ":", 1);
				bt_line_uint(l, (unsigned int) begin);
				if (end != begin) {
					bt_line_put(l, ",", 1);
					bt_line_uint(l, (unsigned int) end);
				}
			}
		}
	}
	bt_line_put(l, "\n", 1);
}

/* The JSON call history's entries, refilled for each segment: a gap's
   and a function's, whose keys come in this order.  */
struct bt_call_json {
	json_t *gap;
	json_t *func;
};

static int bt_call_json_init(struct bt_call_json *j)
{
	j->gap = json_pack("{s:i, s:b, s:i, s:s}", "index", 0, "gap", 1,
			   "errcode", 0, "error", "");
	j->func = json_pack("{s:i, s:i, s:s}", "index", 0, "level", 0,
			    "function", "");
	return j->gap && j->func ? 0 : -1;
}

static void bt_call_json_fini(struct bt_call_json *j)
{
	json_decref(j->gap);
	json_decref(j->func);
}

/* SEG's entry in the JSON call history, or NULL if out of memory.  */
static const json_t *bt_seg_json(const struct bt_ftrace *ft,
				 const struct bt_image *image,
				 struct bt_line_cache *cache, uint32_t number,
				 int flags, struct bt_level_walk *walk,
				 struct bt_call_json *j)
{
	const struct bt_func_key *key = bt_seg_func(ft, number);
	int errcode = bt_seg_errcode(ft, number);
	uint32_t insn = bt_seg_insn_offset(ft, number);
	char name[1024];
	int begin, end, bad = 0;
	json_t *o = errcode ? j->gap : j->func;

	bad |= bt_json_set_int(o, "index", number);
	if (errcode) {
		bad |= bt_json_set_int(o, "errcode", errcode);
		bad |= bt_json_set_text(o, "error",
					bt_gap_string(ft->format, errcode));
		return bad ? NULL : o;
	}
	bad |= bt_json_set_int(o, "level",
			       bt_walk_level(ft, walk, number) + ft->level);
	bad |= bt_json_set_text(o, "function",
				bt_key_name(key, name, sizeof(name)));
	if (flags & btcf_insn_range) {
		bad |= bt_json_set_int(o, "insn_begin", insn);
		bad |= bt_json_set_int(o, "insn_end",
				       insn + bt_seg_ninsn(ft, number) - 1);
	}
	/* The keys below come last, so that dropping them and adding them
	   again keeps the order.  */
	begin = 1;
	end = 0;
	if ((flags & btcf_src_line) && key->sym && key->file) {
		bad |= bt_json_set_text(o, "file", key->file);
		bt_seg_lines(ft, image, cache, number, key->file, &begin,
			     &end);
	} else
		json_object_del(o, "file");
	if (begin <= end) {
		bad |= bt_json_set_int(o, "min_line", begin);
		bad |= bt_json_set_int(o, "max_line", end);
	} else {
		json_object_del(o, "min_line");
		json_object_del(o, "max_line");
	}
	return bad ? NULL : o;
}

/* The window [BEGIN, END) GDB would print for RANGE, or an error.  Sets
   *AT_EDGE to -1/1 when GDB says it is at the start/end instead.  */
static int bt_call_window(const struct bt_ftrace *ft,
			  const struct bt_call_range *range, unsigned int size,
			  struct bt_hist_it *begin, struct bt_hist_it *end,
			  int *at_edge, struct bt_diag *diag)
{
	const unsigned int length = bt_nsegs(ft);
	unsigned int low, high;
	int errcode, sized;

	*at_edge = 0;
	if (bt_trace_empty(ft))
		return bt_diag_set(diag, bte_no_trace, 0, 0, "No trace.");

	sized = bt_history_size(size);
	switch (range->kind) {
	case btcr_default:
	case btcr_backward:
		begin->index = length;
		bt_history_end_window(ft, bt_call_next, bt_call_prev,
				      range->kind == btcr_backward,
				      (unsigned int) sized, begin, end,
				      at_edge);
		return 0;

	default:
		break;
	}

	errcode = bt_history_range_numbers(range, sized,
					   "function-call-history", &low,
					   &high, diag);
	if (errcode < 0)
		return errcode;
	if (low == 0 || low > length)
		return bt_diag_set(diag, bte_range, 0, 0,
				   "Range out of bounds.");
	begin->index = low - 1;
	if (high == 0 || high > length)
		end->index = length;
	else {
		end->index = high - 1;
		bt_call_next(ft, end, 1);
	}
	return 0;
}

static int bt_call_history_run(FILE *out, const struct bt_ftrace *ft,
			       const struct bt_image *image,
			       const struct bt_call_range *range, int flags,
			       unsigned int size, int json,
			       struct bt_diag *diag)
{
	struct bt_hist_it begin = { 0 }, end = { 0 }, it;
	int at_edge, errcode;
	struct bt_line_cache *cache = NULL;
	struct bt_json_list *list = NULL;
	struct bt_call_json entries = { NULL, NULL };
	struct bt_level_walk walk = { 0, 0 };
	struct bt_line *l;

	if (!out || !ft || !range)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");

	errcode = bt_call_window(ft, range, size, &begin, &end, &at_edge,
				 diag);
	if (errcode < 0)
		return errcode;

	if (at_edge) {
		bt_print_edge(out, at_edge, json);
		return 0;
	}

	/* Not zeroed: the buffer is written before it is read.  */
	l = malloc(sizeof(*l));
	if (!l)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	l->out = out;
	l->n = 0;
	/* Worth its size on long windows only; without it, lines are
	   looked up the same way.  */
	if ((flags & btcf_src_line) && end.index - begin.index > 64)
		cache = calloc(1, sizeof(*cache));
	if (json) {
		list = malloc(sizeof(*list));
		if (!list || bt_call_json_init(&entries) < 0) {
			bt_call_json_fini(&entries);
			free(list);
			free(l);
			free(cache);
			return bt_diag_set(diag, bte_nomem, 0, 0,
					   "out of memory");
		}
		bt_json_list_init(list, out, "");
	}
	for (it = begin; it.index < end.index; bt_call_next(ft, &it, 1)) {
		if (json)
			bt_json_list_put(list, bt_seg_json(ft, image, cache,
							   it.index + 1, flags,
							   &walk, &entries));
		else
			bt_print_seg(l, ft, image, cache, it.index + 1,
				     flags, &walk);
	}
	bt_line_flush(l);
	free(l);
	free(cache);
	errcode = list ? bt_json_list_fini(list, "\n") : 0;
	free(list);
	bt_call_json_fini(&entries);
	if (errcode < 0)
		return bt_diag_set(diag, bte_nomem, 0, 0,
				   "cannot write a JSON entry");
	return 0;
}

int bt_call_history_print(FILE *out, const struct bt_ftrace *ft,
			  const struct bt_image *image,
			  const struct bt_call_range *range, int flags,
			  unsigned int size, struct bt_diag *diag)
{
	return bt_call_history_run(out, ft, image, range, flags, size, 0,
				   diag);
}

int bt_call_history_print_json(FILE *out, const struct bt_ftrace *ft,
			       const struct bt_image *image,
			       const struct bt_call_range *range, int flags,
			       unsigned int size, struct bt_diag *diag)
{
	return bt_call_history_run(out, ft, image, range, flags, size, 1,
				   diag);
}
