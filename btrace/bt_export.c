/* Function segments exported for other tools: folded stacks (flame
   graphs), with instructions as time, and Chrome's trace event format,
   with the trace's time where it has some.  */
#include "btrace/bt_history.h"
#include "btrace/bt_json.h"
#include "btrace/bt_msym_name.h"
#include "btrace/bt_seg.h"

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

/* Instruction NUMBER's time in CLOCK_MONOTONIC nanoseconds.  */
static uint64_t bt_export_ns(const struct bt_ftrace *ft,
			     const struct bt_time *time, uint32_t number)
{
	uint64_t tsc = 0;

	bt_times_at(&ft->times, number, &tsc);
	return bt_time_ns(time, tsc);
}

/* Nanoseconds as microseconds, Chrome's unit, written to the
   nanosecond: enough digits for NS and no more, so that no binary
   fraction shows.  */
static json_t *bt_export_us(uint64_t ns, struct bt_json_list *list)
{
	int digits = 4;

	for (uint64_t us = ns / 1000; us >= 10; us /= 10)
		digits += 1;
	if (digits > 17)
		digits = 17;
	if (JSON_REAL_PRECISION(digits) > list->flags)
		list->flags = JSON_REAL_PRECISION(digits);
	return json_real((double) ns / 1000.0);
}

int bt_export_chrome(FILE *out, const struct bt_ftrace *ft,
		     const struct bt_time *time, int pid, int tid,
		     struct bt_diag *diag)
{
	struct bt_json_list *list;
	char buf[1024];
	int timed;

	if (!out || !ft)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	list = malloc(sizeof(*list));
	if (!list)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	/* Real time needs both the trace's TSC and the bundle's
	   conversion; without them instructions stand for time.  */
	timed = time && time->mult && ft->times.n;

	/* A function instance is its first segment and those its next links
	   reach: one complete event from its first instruction to its last,
	   so that callees nest inside.  */
	bt_json_list_init(list, out, "{\"traceEvents\": ");
	for (uint32_t seg = 1; seg <= bt_nsegs(ft); ++seg) {
		uint32_t last = seg, begin, end;
		int errcode = bt_seg_errcode(ft, seg);
		json_t *ts, *dur;

		if (bt_seg_prev(ft, seg))
			continue;
		while (bt_seg_next(ft, last))
			last = bt_seg_next(ft, last);
		begin = bt_seg_insn_offset(ft, seg);
		end = bt_seg_insn_offset(ft, last) + bt_seg_nnum(ft, last);
		if (timed) {
			/* From its first instruction's time to the time
			   of the instruction after its last.  */
			uint64_t t0 = bt_export_ns(ft, time, begin);
			uint64_t t1 = bt_export_ns(ft, time, end);

			if (t1 < t0)
				t1 = t0;   /* a trace whose TSC went back */

			list->flags = 0;
			ts = bt_export_us(t0, list);
			dur = bt_export_us(t1 - t0, list);
		} else {
			ts = json_integer(begin);
			dur = json_integer((uint32_t) (end - begin));
		}
		bt_json_list_add(list, json_pack(
			"{s:o, s:s, s:s, s:o, s:o, s:i, s:i, s:{s:I}}",
			"name", bt_json_text(errcode
				? bt_gap_string(ft->format, errcode)
				: bt_export_name(ft, seg, buf, sizeof(buf))),
			"cat", errcode ? "gap" : "function", "ph", "X",
			"ts", ts, "dur", dur,
			"pid", pid, "tid", tid,
			"args", "segment", (json_int_t) seg));
	}
	if (bt_json_list_fini(list, timed
		? ",\n \"displayTimeUnit\": \"ns\",\n \"otherData\": "
		  "{\"time\": \"tsc\", \"clock\": \"CLOCK_MONOTONIC\"}}\n"
		: ",\n \"displayTimeUnit\": \"ns\",\n \"otherData\": "
		  "{\"time\": \"instructions\"}}\n") < 0) {
		free(list);
		return bt_diag_set(diag, bte_nomem, 0, 0,
				   "cannot write a JSON event");
	}
	free(list);
	return 0;
}
