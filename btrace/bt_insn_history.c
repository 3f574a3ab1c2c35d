/* The instruction history, printed as GDB 13.1's `record
   instruction-history` does (gdb/record-btrace.c, disasm.c): its window
   arithmetic over segments (a gap counts as one instruction), GDB's
   line layout, libopcodes' text, and source lines for /m and /s.  */
#include "btrace/bt_history.h"
#include "btrace/bt_disasm.h"
#include "btrace/bt_json.h"
#include "btrace/bt_source.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* GDB's btrace_insn_iterator: a segment index and an instruction index
   inside it (struct bt_hist_it).  */
static uint32_t bt_it_size(const struct bt_ftrace *ft, uint32_t seg)
{
	return bt_seg_ninsn(ft, seg + 1);
}

static int bt_it_cmp(const struct bt_hist_it *a, const struct bt_hist_it *b)
{
	if (a->seg != b->seg)
		return a->seg < b->seg ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* The current instruction: one past the end of the trace proper.  */
static void bt_it_end(const struct bt_ftrace *ft, struct bt_hist_it *it)
{
	uint32_t size;

	it->seg = bt_nsegs(ft) - 1;
	size = bt_it_size(ft, it->seg);
	it->index = size ? size - 1 : 0;
}

static unsigned int bt_it_next(const struct bt_ftrace *ft,
			       struct bt_hist_it *it, unsigned int stride)
{
	uint32_t seg = it->seg, index = it->index;
	unsigned int steps = 0;

	while (stride) {
		uint32_t end = bt_it_size(ft, seg), adv;

		if (end == 0) {
			if (seg + 1 >= bt_nsegs(ft))
				break;
			stride -= 1;
			steps += 1;
			seg += 1;
			index = 0;
			continue;
		}
		adv = end - index < stride ? end - index : stride;
		stride -= adv;
		index += adv;
		steps += adv;
		if (index == end) {
			if (seg + 1 >= bt_nsegs(ft)) {
				/* Past the last: back onto its last one.  */
				index -= 1;
				steps -= 1;
				break;
			}
			seg += 1;
			index = 0;
		}
	}
	it->seg = seg;
	it->index = index;
	return steps;
}

static unsigned int bt_it_prev(const struct bt_ftrace *ft,
			       struct bt_hist_it *it, unsigned int stride)
{
	uint32_t seg = it->seg, index = it->index;
	unsigned int steps = 0;

	while (stride) {
		uint32_t adv;

		if (index == 0) {
			if (seg == 0)
				break;
			seg -= 1;
			index = bt_it_size(ft, seg);
			if (index == 0) {
				stride -= 1;
				steps += 1;
				continue;
			}
		}
		adv = index < stride ? index : stride;
		stride -= adv;
		index -= adv;
		steps += adv;
	}
	it->seg = seg;
	it->index = index;
	return steps;
}


/* GDB's btrace_find_insn_by_number.  */
static int bt_it_find(const struct bt_ftrace *ft, uint32_t number,
		      struct bt_hist_it *it)
{
	uint32_t lo = 1, hi = bt_nsegs(ft);

	if (!hi || number < bt_seg_insn_offset(ft, 1))
		return 0;
	if (number >= bt_seg_insn_offset(ft, hi) + bt_seg_nnum(ft, hi))
		return 0;
	for (;;) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint32_t first = bt_seg_insn_offset(ft, mid);

		if (number < first)
			hi = mid - 1;
		else if (number >= first + bt_seg_nnum(ft, mid))
			lo = mid + 1;
		else {
			it->seg = mid - 1;
			it->index = number - first;
			return 1;
		}
	}
}

/* The window [BEGIN, END) for RANGE, as GDB's insn_history,
   insn_history_from and insn_history_range compute it.  *AT_EDGE is set
   to -1/1 when GDB says it is at the start/end instead.  */
static int bt_insn_window(const struct bt_ftrace *ft,
			  const struct bt_call_range *range, unsigned int size,
			  struct bt_hist_it *begin, struct bt_hist_it *end,
			  int *at_edge, struct bt_diag *diag)
{
	unsigned int low, high;
	int errcode, sized;

	*at_edge = 0;
	if (!bt_nsegs(ft))
		return bt_diag_set(diag, bte_no_trace, 0, 0, "No trace.");
	sized = bt_history_size(size);

	switch (range->kind) {
	case btcr_default:
	case btcr_backward:
		bt_it_end(ft, begin);
		bt_history_end_window(ft, bt_it_next, bt_it_prev,
				      range->kind == btcr_backward,
				      (unsigned int) sized, begin, end,
				      at_edge);
		return 0;

	default:
		break;
	}

	errcode = bt_history_range_numbers(range, sized,
					   "instruction-history", &low, &high,
					   diag);
	if (errcode < 0)
		return errcode;
	if (!bt_it_find(ft, low, begin))
		return bt_diag_set(diag, bte_range, 0, 0,
				   "Range out of bounds.");
	if (!bt_it_find(ft, high, end))
		bt_it_end(ft, end);
	else
		bt_it_next(ft, end, 1);
	return 0;
}

/* What printing one window needs.  */
struct bt_insn_printer {
	FILE *out;
	const struct bt_ftrace *ft;
	const struct bt_image *image;
	struct bt_disasm *disasm;
	struct bt_source *source;
	int flags;
	/* The JSON list, or NULL for GDB's text, and its entries refilled
	   for each instruction: with a function and offset, without, and a
	   gap's.  */
	struct bt_json_list *json;
	json_t *entry[3];
	uint64_t pc;
	/* The instructions of the current segment to print.  */
	uint32_t number, index, from, to;
	/* GDB's last_lines: the source lines printed last.  */
	const char *last_path;
	int last_begin, last_end;
};

/* GDB's btrace_print_lines, when PC starts lines not printed last.  */
static void bt_insn_source(struct bt_insn_printer *p, uint64_t ip)
{
	const char *file = NULL, *path = NULL;
	int begin, end;

	if (bt_image_line_range(p->image, ip, &begin, &end, &file, &path) < 0
	    || end <= begin || !file || !path)
		return;
	if (p->last_path == path && p->last_begin <= begin &&
	    end <= p->last_end)
		return;
	for (int line = begin; line < end; ++line)
		bt_source_print_line(p->source, p->out, file, path, line);
	p->last_path = path;
	p->last_begin = begin;
	p->last_end = end;
}

static void bt_insn_bytes(struct bt_insn_printer *p, uint64_t ip, int size,
			  char *hex, size_t hexsize)
{
	uint8_t bytes[32];
	size_t len = 0;
	int n = size < (int) sizeof(bytes) ? size : (int) sizeof(bytes);

	hex[0] = 0;
	if (bt_image_read(p->image, ip, bytes, (size_t) n) != n)
		return;
	for (int i = 0; i < n && len + 4 < hexsize; ++i)
		len += (size_t) snprintf(hex + len, hexsize - len, "%s%02x",
					 i ? " " : "", bytes[i]);
}

/* One instruction, as gdb_pretty_print_disassembler::pretty_print_insn
   prints it with DISASSEMBLY_SPECULATIVE (always set for btrace).  */
static int bt_insn_print_one(struct bt_insn_printer *p, uint64_t ip)
{
	const char *name = NULL;
	int64_t offset = 0;
	char text[256], hex[128];
	int size, symbolic;

	size = bt_disasm_insn(p->disasm, ip, text, sizeof(text));
	if (size < 0)
		return size;
	symbolic = bt_image_symbolic(p->image, ip,
				     (p->flags & btif_omit_fname) != 0, &name,
				     &offset) == 0 && name;
	if (p->flags & (btif_raw | btif_raw_bytes))
		bt_insn_bytes(p, ip, size, hex, sizeof(hex));

	if (p->json) {
		json_t *o = p->entry[symbolic ? 0 : 1];
		char address[24];
		int bad = 0;

		snprintf(address, sizeof(address), "0x%" PRIx64, ip);
		bad |= bt_json_set_int(o, "index", p->number);
		bad |= bt_json_set_text(o, "address", address);
		if (symbolic) {
			bad |= bt_json_set_text(o, "function", name);
			bad |= bt_json_set_int(o, "offset", offset);
		}
		if (p->flags & (btif_raw | btif_raw_bytes))
			bad |= bt_json_set_text(o, "bytes", hex);
		bad |= bt_json_set_text(o, "insn", text);
		return bt_json_list_put(p->json, bad ? NULL : o) < 0
			? -bte_nomem : 0;
	}

	if (p->flags & btif_source)
		bt_insn_source(p, ip);
	fprintf(p->out, "%u\t%s0x%016" PRIx64, p->number,
		ip == p->pc && !(p->flags & btif_omit_pc) ? "=> " : "   ", ip);
	if (symbolic)
		fprintf(p->out, " <%s%s%" PRId64 ">:\t",
			p->flags & btif_omit_fname ? "" : name,
			offset >= 0 ? "+" : "", offset);
	else
		fputs(":\t", p->out);
	if (p->flags & (btif_raw | btif_raw_bytes)) {
		int per_line = bt_disasm_bytes_per_line(p->disasm);
		int nspaces = 0;

		if (per_line < size)
			per_line = size;
		/* One byte per chunk on x86: two digits and a space each.  */
		for (int i = size; i < per_line; ++i)
			nspaces += (i > size) + 2;
		fprintf(p->out, "%s%*s\t", hex, nspaces, "");
	}
	fprintf(p->out, "%s\n", text);
	return 0;
}

static int bt_insn_visit(uint64_t ip, void *ctx)
{
	struct bt_insn_printer *p = ctx;
	int status = 0;

	if (p->index >= p->from && p->index < p->to) {
		status = bt_insn_print_one(p, ip);
		p->number += 1;
	}
	p->index += 1;
	/* Stop the walk once past the window.  */
	return status < 0 ? status : p->index >= p->to;
}

static void bt_insn_gap(struct bt_insn_printer *p, int errcode)
{
	if (p->json) {
		json_t *o = p->entry[2];
		int bad = 0;

		bad |= bt_json_set_int(o, "index", p->number);
		bad |= bt_json_set_int(o, "errcode", errcode);
		bad |= bt_json_set_text(o, "error",
					bt_gap_string(p->ft->format, errcode));
		bt_json_list_put(p->json, bad ? NULL : o);
		return;
	}
	fprintf(p->out, "%u\t", p->number);
	bt_print_gap(p->out, p->ft->format, errcode);
}

static int bt_insn_print_window(struct bt_insn_printer *p,
				const struct bt_hist_it *begin,
				const struct bt_hist_it *end)
{
	uint32_t nsegs = bt_nsegs(p->ft);

	for (uint32_t s = begin->seg; s <= end->seg && s < nsegs; ++s) {
		int status;

		p->from = s == begin->seg ? begin->index : 0;
		p->to = s == end->seg ? end->index : UINT32_MAX;
		p->number = bt_seg_insn_offset(p->ft, s + 1) + p->from;
		if (bt_seg_is_gap(p->ft, s + 1)) {
			/* A gap is one instruction, at index 0.  */
			if (s != end->seg)
				bt_insn_gap(p, bt_seg_errcode(p->ft, s + 1));
			continue;
		}
		if (p->from >= p->to)
			continue;
		p->index = 0;
		status = bt_ftrace_for_each_insn(p->ft, s + 1, bt_insn_visit,
						 p);
		if (status < 0)
			return status;
	}
	return 0;
}

/* The JSON list on OUT and its entries, made with every key they will
   have, in their order, so that refilling them keeps it.  */
static int bt_insn_json_init(struct bt_insn_printer *p, FILE *out)
{
	int bytes = (p->flags & (btif_raw | btif_raw_bytes)) != 0;

	p->json = malloc(sizeof(*p->json));
	p->entry[0] = json_pack("{s:i, s:s, s:s, s:i}", "index", 0,
				"address", "", "function", "", "offset", 0);
	p->entry[1] = json_pack("{s:i, s:s}", "index", 0, "address", "");
	p->entry[2] = json_pack("{s:i, s:b, s:i, s:s}", "index", 0, "gap", 1,
				"errcode", 0, "error", "");
	for (int i = 0; i < 2 && bytes; ++i)
		if (p->entry[i] && json_object_set_new(p->entry[i], "bytes",
						       json_string("")) < 0)
			return -1;
	for (int i = 0; i < 2; ++i)
		if (p->entry[i] && json_object_set_new(p->entry[i], "insn",
						       json_string("")) < 0)
			return -1;
	if (!p->json || !p->entry[0] || !p->entry[1] || !p->entry[2])
		return -1;
	bt_json_list_init(p->json, out, "");
	return 0;
}

static void bt_insn_json_fini(struct bt_insn_printer *p)
{
	for (int i = 0; i < 3; ++i)
		json_decref(p->entry[i]);
	free(p->json);
	p->json = NULL;
}

static int bt_insn_history_run(FILE *out, const struct bt_ftrace *ft,
			       const struct bt_image *image,
			       const struct bt_call_range *range, int flags,
			       unsigned int size, uint64_t pc, int json,
			       struct bt_diag *diag)
{
	struct bt_insn_printer p;
	struct bt_hist_it begin = { 0, 0 }, end = { 0, 0 };
	int at_edge, errcode;

	if (!out || !ft || !image || !range)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	errcode = bt_insn_window(ft, range, size, &begin, &end, &at_edge,
				 diag);
	if (errcode < 0)
		return errcode;
	if (at_edge) {
		bt_print_edge(out, at_edge, json);
		return 0;
	}

	memset(&p, 0, sizeof(p));
	p.out = out;
	p.ft = ft;
	p.image = image;
	p.flags = flags;
	p.pc = pc;
	errcode = bt_disasm_alloc(&p.disasm, image);
	if (errcode < 0)
		return bt_diag_set(diag, -errcode, 0, 0,
				   "cannot set up the disassembler: %s",
				   bt_errstr(errcode));
	if (json && bt_insn_json_init(&p, out) < 0) {
		bt_insn_json_fini(&p);
		bt_disasm_free(p.disasm);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	errcode = bt_source_alloc(&p.source);
	if (errcode >= 0 && bt_it_cmp(&begin, &end) < 0)
		errcode = bt_insn_print_window(&p, &begin, &end);
	if (p.json) {
		/* Even after an error: the entries so far, as a list.  */
		if (bt_json_list_fini(p.json, "\n") < 0 && errcode >= 0)
			errcode = -bte_nomem;
	}
	bt_insn_json_fini(&p);
	bt_source_free(p.source);
	bt_disasm_free(p.disasm);
	if (errcode < 0)
		return bt_diag_set(diag, -errcode, 0, 0,
				   "instruction %u: %s", p.number,
				   bt_errstr(errcode));
	return 0;
}

int bt_insn_history_print(FILE *out, const struct bt_ftrace *ft,
			  const struct bt_image *image,
			  const struct bt_call_range *range, int flags,
			  unsigned int size, uint64_t pc,
			  struct bt_diag *diag)
{
	return bt_insn_history_run(out, ft, image, range, flags, size, pc, 0,
				   diag);
}

int bt_insn_history_print_json(FILE *out, const struct bt_ftrace *ft,
			       const struct bt_image *image,
			       const struct bt_call_range *range, int flags,
			       unsigned int size, uint64_t pc,
			       struct bt_diag *diag)
{
	return bt_insn_history_run(out, ft, image, range, flags, size, pc, 1,
				   diag);
}
