/* Function segments exported for other tools: folded stacks (flame
   graphs) and Chrome's trace event format, with instructions as time.  */
#include "btrace/bt_history.h"
#include "btrace/bt_json.h"
#include "btrace/bt_msym_name.h"

#include <stdlib.h>
#include <string.h>

/* The name GDB would print for SEG's function; BUF holds it if need be,
   so each caller passes its own.  */
static const char *bt_export_name(const struct bt_ftrace *ft,
				  uint32_t seg, char *buf, size_t size)
{
	const struct bt_func_key *key = bt_seg_func(ft, seg);

	if (key->sym)
		return key->sym;
	return key->msym ? bt_msym_print_name(key->msym, buf, size) : "??";
}

struct bt_stack {
	char *text;
	uint64_t weight;
};

static int bt_stack_cmp(const void *a, const void *b)
{
	return strcmp(((const struct bt_stack *) a)->text,
		      ((const struct bt_stack *) b)->text);
}

/* "outer;...;inner" for SEG, following the up links.  */
static char *bt_stack_text(const struct bt_ftrace *ft, uint32_t seg)
{
	uint32_t chain[256];
	size_t n = 0, len = 0;
	char *text, *at;

	for (uint32_t s = seg; s && n < 256; s = bt_seg_up(ft, s))
		chain[n++] = s;
	char buf[1024];

	for (size_t i = 0; i < n; ++i)
		len += strlen(bt_export_name(ft, chain[i], buf, sizeof(buf)))
			+ 1;
	text = malloc(len + 1);
	if (!text)
		return NULL;
	at = text;
	for (size_t i = n; i-- > 0;) {
		const char *name = bt_export_name(ft, chain[i], buf,
						  sizeof(buf));
		size_t l = strlen(name);

		memcpy(at, name, l);
		at += l;
		*at++ = i ? ';' : 0;
	}
	return text;
}

int bt_export_folded(FILE *out, const struct bt_ftrace *ft,
		     struct bt_diag *diag)
{
	struct bt_stack *stacks;
	size_t n = 0;

	if (!out || !ft)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	stacks = calloc(bt_nsegs(ft) ? bt_nsegs(ft) : 1, sizeof(*stacks));
	if (!stacks)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");

	for (uint32_t i = 1; i <= bt_nsegs(ft); ++i) {
		/* The current instruction ends the trace but is not part of
		   it (GDB's `info record` does not count it).  */
		uint32_t ninsn = bt_seg_ninsn(ft, i) -
			(i == bt_nsegs(ft) && bt_seg_ninsn(ft, i) &&
			 !bt_seg_is_gap(ft, i));

		if (!ninsn)
			continue;
		stacks[n].text = bt_stack_text(ft, i);
		if (!stacks[n].text) {
			for (size_t k = 0; k < n; ++k)
				free(stacks[k].text);
			free(stacks);
			return bt_diag_set(diag, bte_nomem, 0, 0,
					   "out of memory");
		}
		stacks[n++].weight = ninsn;
	}

	/* One line per distinct stack, summed, in a stable order.  */
	qsort(stacks, n, sizeof(*stacks), bt_stack_cmp);
	for (size_t i = 0; i < n;) {
		size_t k = i + 1;
		uint64_t weight = stacks[i].weight;

		while (k < n && strcmp(stacks[k].text, stacks[i].text) == 0)
			weight += stacks[k++].weight;
		fprintf(out, "%s %llu\n", stacks[i].text,
			(unsigned long long) weight);
		i = k;
	}
	for (size_t i = 0; i < n; ++i)
		free(stacks[i].text);
	free(stacks);
	return 0;
}

int bt_export_chrome(FILE *out, const struct bt_ftrace *ft, int pid, int tid,
		     struct bt_diag *diag)
{
	struct bt_json_list *list;
	char buf[1024];

	if (!out || !ft)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	list = malloc(sizeof(*list));
	if (!list)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");

	/* A function instance is its first segment and those its next links
	   reach: one complete event from its first instruction to its last,
	   so that callees nest inside.  */
	bt_json_list_init(list, out, "{\"traceEvents\": ");
	for (uint32_t seg = 1; seg <= bt_nsegs(ft); ++seg) {
		uint32_t last = seg, begin;
		int errcode = bt_seg_errcode(ft, seg);

		if (bt_seg_prev(ft, seg))
			continue;
		while (bt_seg_next(ft, last))
			last = bt_seg_next(ft, last);
		begin = bt_seg_insn_offset(ft, seg);
		bt_json_list_add(list, json_pack(
			"{s:o, s:s, s:s, s:I, s:I, s:i, s:i, s:{s:I}}",
			"name", bt_json_text(errcode
				? bt_gap_string(ft->format, errcode)
				: bt_export_name(ft, seg, buf, sizeof(buf))),
			"cat", errcode ? "gap" : "function", "ph", "X",
			"ts", (json_int_t) begin,
			"dur", (json_int_t) (uint32_t) (bt_seg_insn_offset(ft,
				last) + bt_seg_nnum(ft, last) - begin),
			"pid", pid, "tid", tid,
			"args", "segment", (json_int_t) seg));
	}
	if (bt_json_list_fini(list, ",\n \"displayTimeUnit\": \"ns\"}\n")
	    < 0) {
		free(list);
		return bt_diag_set(diag, bte_nomem, 0, 0,
				   "cannot write a JSON event");
	}
	free(list);
	return 0;
}
