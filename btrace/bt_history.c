/* The function-call history, printed exactly as GDB 13.1's
   `record function-call-history` does (gdb/record-btrace.c), including
   its window arithmetic: the call iterator below keeps GDB's unsigned
   semantics so that edge cases print the same lines.  */
#include "btrace/bt_history.h"
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
	if (json)
		fputs("[]\n", out);
	else
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
   function's own file (GDB's btrace_compute_src_line_range).  */
struct bt_line_range {
	const struct bt_image *image;
	const char *file;
	int begin, end;
};

static int bt_line_visit(uint64_t ip, void *ctx)
{
	struct bt_line_range *r = ctx;
	const char *file;
	int line;

	if (bt_image_line(r->image, ip, &line, &file) < 0 || line == 0)
		return 0;
	if (!file || strcmp(file, r->file) != 0)
		return 0;
	if (line < r->begin)
		r->begin = line;
	if (line > r->end)
		r->end = line;
	return 0;
}

static void bt_seg_lines(const struct bt_ftrace *ft,
			 const struct bt_image *image, uint32_t number,
			 const char *file, int *begin, int *end)
{
	struct bt_line_range r = { image, file, INT_MAX, INT_MIN };

	if (image && file)
		bt_ftrace_for_each_insn(ft, number, bt_line_visit, &r);
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

void bt_json_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (; *text; ++text) {
		unsigned char c = (unsigned char) *text;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
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

static void bt_print_seg(struct bt_line *l, const struct bt_ftrace *ft,
			 const struct bt_image *image, uint32_t number,
			 int flags)
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
		for (int i = 0; i < bt_seg_level(ft, number) + ft->level; ++i)
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
			bt_seg_lines(ft, image, number, key->file, &begin,
				     &end);
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

static void bt_print_seg_json(FILE *out, const struct bt_ftrace *ft,
			      const struct bt_image *image, uint32_t number,
			      int flags, int first)
{
	const struct bt_func_key *key = bt_seg_func(ft, number);
	int errcode = bt_seg_errcode(ft, number);
	uint32_t insn = bt_seg_insn_offset(ft, number);
	char name[1024];
	int begin, end;

	fprintf(out, "%s\n  {\"index\": %u", first ? "" : ",", number);
	if (errcode) {
		fprintf(out, ", \"gap\": true, \"errcode\": %d, \"error\": ",
			errcode);
		bt_json_string(out, bt_gap_string(ft->format, errcode));
		fputc('}', out);
		return;
	}
	fprintf(out, ", \"level\": %d, \"function\": ",
		bt_seg_level(ft, number) + ft->level);
	bt_json_string(out, bt_key_name(key, name, sizeof(name)));
	if (flags & btcf_insn_range)
		fprintf(out, ", \"insn_begin\": %u, \"insn_end\": %u",
			insn, insn + bt_seg_ninsn(ft, number) - 1);
	if ((flags & btcf_src_line) && key->sym && key->file) {
		fputs(", \"file\": ", out);
		bt_json_string(out, key->file);
		bt_seg_lines(ft, image, number, key->file, &begin, &end);
		if (begin <= end)
			fprintf(out, ", \"min_line\": %d, \"max_line\": %d",
				begin, end);
	}
	fputc('}', out);
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
	int at_edge, errcode, first = 1;
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
	if (json)
		fputc('[', out);
	for (it = begin; it.index < end.index; bt_call_next(ft, &it, 1)) {
		if (json)
			bt_print_seg_json(out, ft, image, it.index + 1, flags,
					  first);
		else
			bt_print_seg(l, ft, image, it.index + 1, flags);
		first = 0;
	}
	bt_line_flush(l);
	free(l);
	if (json)
		fputs(first ? "]\n" : "\n]\n", out);
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
