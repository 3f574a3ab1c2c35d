/* What the history printers share (call, instruction and packet
   histories, the exporters): the iterator and window rules GDB's record
   commands use, and their common pieces of output.  */
#ifndef BT_HISTORY_H
#define BT_HISTORY_H

#include "btrace/bt_seg.h"

#include <stdio.h>

/* A gap's text in the histories, "[...]\n" (GDB's
   btrace_ui_out_decode_error).  */
void bt_print_gap(FILE *out, enum bt_format format, int errcode);

/* A history iterator: a segment index (the call history uses it alone)
   and an instruction index in it.  */
struct bt_hist_it {
	uint32_t seg;
	uint32_t index;
};

typedef unsigned int (*bt_hist_step_fn)(const struct bt_ftrace *ft,
					struct bt_hist_it *it,
					unsigned int stride);

/* GDB's window for "", "+" (forward) and "-" (BACKWARD) without prior
   history: BEGIN and END start at the trace's end and grow by CONTEXT
   with NEXT and PREV.  Returns how much they cover; *AT_EDGE is set to
   -1/1 (GDB's "At the start/end ...") when nothing.  */
void bt_history_end_window(const struct bt_ftrace *ft, bt_hist_step_fn next,
			   bt_hist_step_fn prev, int backward,
			   unsigned int context, struct bt_hist_it *begin,
			   struct bt_hist_it *end, int *at_edge);

/* The packet history's RANGE of a trace of END > 0 packets, read as
   GDB's maint_btrace_packet_history_cmd reads it, with its complaints:
   no modifiers, numbers that fit an unsigned int, the first below END
   ("'N' is out of range."), a +K or -K count kept unsigned in COUNT's
   magnitude.  0, or a negative error code with DIAG set.  */
int bt_packet_history_parse(const char *text, unsigned int end,
			    struct bt_call_range *range, struct bt_diag *diag);

/* GDB's history size: 0 ("unlimited") is INT_MAX.  */
int bt_history_size(unsigned int size);

/* The instruction or segment numbers [*LOW, *HIGH] a numeric RANGE
   (btcr_from, btcr_between) names, as GDB's *_history_from and
   *_history_range compute them, with their errors; WHAT is the setting
   ("function-call-history").  */
int bt_history_range_numbers(const struct bt_call_range *range, int size,
			     const char *what, unsigned int *low,
			     unsigned int *high, struct bt_diag *diag);

/* GDB's "At the start/end of the branch trace record." for AT_EDGE
   -1/1, or an empty JSON array.  */
void bt_print_edge(FILE *out, int at_edge, int json);

#endif
