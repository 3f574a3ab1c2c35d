/* Arguments of the history commands, parsed as GDB 13.1's record.c does
   (modifiers, then "+", "-", "N", "N,M", "N,+K", "N,-K"), with its
   error messages, so that a script can pass GDB's argument text; the
   packet history's the same way with btrace.c's few differences.  */
#include "btrace/bt_history.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *bt_arg_skip(const char *text)
{
	while (isspace((unsigned char) *text))
		text++;
	return text;
}

/* The digits after optional spaces, or GDB's complaint.  */
static const char *bt_arg_digits(const char *arg, struct bt_diag *diag)
{
	const char *pos = bt_arg_skip(arg);

	if (!isdigit((unsigned char) *pos)) {
		bt_diag_set(diag, bte_invalid, 0, 0,
			    "Expected positive number, got: %s.", pos);
		return NULL;
	}
	return pos;
}

static int bt_arg_number(const char **arg, uint64_t *number,
			 struct bt_diag *diag)
{
	const char *pos = bt_arg_digits(*arg, diag);
	char *end;

	if (!pos)
		return -bte_invalid;
	*number = strtoull(pos, &end, 10);
	*arg = end;
	return 0;
}

static int bt_arg_count(const char **arg, int *count, struct bt_diag *diag)
{
	const char *pos = bt_arg_digits(*arg, diag);
	char *end;

	if (!pos)
		return -bte_invalid;
	*count = (int) strtol(pos, &end, 10);
	*arg = end;
	return 0;
}

static int bt_arg_end(const char *arg, struct bt_diag *diag)
{
	if (*arg)
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "Junk after argument: %s.", arg);
	return 0;
}

/* One modifier letter: its flag, or 0 if the command has none such.  */
typedef int (*bt_modifier_fn)(char c);

static int bt_call_modifier(char c)
{
	switch (c) {
	case 'l': return btcf_src_line;
	case 'i': return btcf_insn_range;
	case 'c': return btcf_indent;
	default: return 0;
	}
}

static int bt_insn_modifier(char c)
{
	switch (c) {
	case 'm': case 's': return btif_source;
	case 'r': return btif_raw;
	case 'b': return btif_raw_bytes;
	case 'f': return btif_omit_fname;
	case 'p': return btif_omit_pc;
	default: return 0;
	}
}

static int bt_modifiers(const char **arg, bt_modifier_fn modifier,
			struct bt_diag *diag)
{
	const char *args = *arg;
	int flags = 0;

	while (*args == '/') {
		++args;
		if (!*args)
			return bt_diag_set(diag, bte_invalid, 0, 0,
					   "Missing modifier.");
		for (; *args && !isspace((unsigned char) *args); ++args) {
			int flag;

			if (*args == '/')
				continue;
			flag = modifier(*args);
			if (!flag)
				return bt_diag_set(diag, bte_invalid, 0, 0,
						   "Invalid modifier: %c.",
						   *args);
			flags |= flag;
		}
		args = bt_arg_skip(args);
	}
	*arg = args;
	return flags;
}

/* How a command reads its arguments: the modifiers it takes (NULL for
   none) and, for the packet history (GDB's maint_btrace_packet_history_cmd
   and its get_uint), END > 0: numbers are unsigned ints, the first below
   END, white space may come before the comma, and a count is unsigned.  */
struct bt_arg_rules {
	bt_modifier_fn modifier;
	unsigned int end;
};

/* A number read for the packet history, as get_uint checks it.  */
static int bt_arg_uint(uint64_t n, struct bt_diag *diag)
{
	if (n > UINT_MAX)
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "Number too big.");
	return 0;
}

static int bt_history_parse(const char *text,
			    const struct bt_arg_rules *rules,
			    struct bt_call_range *range, struct bt_diag *diag)
{
	char buf[512];
	const char *arg = buf;
	size_t len;
	int flags, errcode;

	if (!range)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	memset(range, 0, sizeof(*range));
	range->kind = btcr_default;
	if (!text)
		return 0;

	/* GDB's command line drops surrounding white space.  */
	text = bt_arg_skip(text);
	len = strlen(text);
	while (len && isspace((unsigned char) text[len - 1]))
		len--;
	if (len >= sizeof(buf))
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "argument too long");
	memcpy(buf, text, len);
	buf[len] = 0;

	flags = rules->modifier ? bt_modifiers(&arg, rules->modifier, diag)
		: 0;
	if (flags < 0)
		return flags;

	if (!*arg || strcmp(arg, "+") == 0)
		return flags;
	if (strcmp(arg, "-") == 0) {
		range->kind = btcr_backward;
		return flags;
	}

	errcode = bt_arg_number(&arg, &range->begin, diag);
	if (errcode < 0)
		return errcode;
	range->kind = btcr_from;
	if (rules->end) {
		errcode = bt_arg_uint(range->begin, diag);
		if (errcode < 0)
			return errcode;
		if (rules->end <= range->begin)
			return bt_diag_set(diag, bte_range, 0, 0,
					   "'%u' is out of range.",
					   (unsigned int) range->begin);
		arg = bt_arg_skip(arg);
	}

	if (*arg != ',')
		return bt_arg_end(arg, diag) < 0 ? -bte_invalid : flags;

	arg = bt_arg_skip(arg + 1);
	if (*arg == '+' || *arg == '-') {
		int negative = *arg == '-';
		int count;

		arg++;
		errcode = bt_arg_count(&arg, &count, diag);
		if (errcode < 0)
			return errcode;
		errcode = bt_arg_end(arg, diag);
		if (errcode < 0)
			return errcode;
		/* The packet history compares the int unsigned.  */
		if (rules->end)
			range->count = (int64_t) (unsigned int) count;
		else
			range->count = count;
		if (negative)
			range->count = -range->count;
		range->has_count = 1;
		return flags;
	}

	errcode = bt_arg_number(&arg, &range->end, diag);
	if (errcode >= 0 && rules->end)
		errcode = bt_arg_uint(range->end, diag);
	if (errcode < 0)
		return errcode;
	errcode = bt_arg_end(arg, diag);
	if (errcode < 0)
		return errcode;
	range->kind = btcr_between;
	return flags;
}

int bt_call_history_parse(const char *text, struct bt_call_range *range,
			  struct bt_diag *diag)
{
	const struct bt_arg_rules rules = { bt_call_modifier, 0 };

	return bt_history_parse(text, &rules, range, diag);
}

int bt_insn_history_parse(const char *text, struct bt_call_range *range,
			  struct bt_diag *diag)
{
	const struct bt_arg_rules rules = { bt_insn_modifier, 0 };

	return bt_history_parse(text, &rules, range, diag);
}

int bt_packet_history_parse(const char *text, unsigned int end,
			    struct bt_call_range *range, struct bt_diag *diag)
{
	const struct bt_arg_rules rules = { NULL, end };

	if (!end)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	return bt_history_parse(text, &rules, range, diag);
}

int bt_history_size(unsigned int size)
{
	/* GDB maps "unlimited" (0) to INT_MAX.  */
	return size == 0 || size > INT_MAX ? INT_MAX : (int) size;
}

int bt_history_range_numbers(const struct bt_call_range *range, int size,
			     const char *what, unsigned int *low,
			     unsigned int *high, struct bt_diag *diag)
{
	uint64_t from, to, context;

	if (range->kind == btcr_from) {
		int64_t count = range->has_count ? range->count : size;

		context = (uint64_t) llabs(count);
		if (!context)
			return bt_diag_set(diag, bte_range, 0, 0,
					   "Bad record %s-size.", what);
		if (count < 0) {
			to = range->begin;
			from = range->begin < context ? 0
				: range->begin - context + 1;
		} else {
			from = range->begin;
			to = range->begin + context - 1;
			if (to < from)
				to = UINT64_MAX;
		}
	} else if (range->kind == btcr_between) {
		from = range->begin;
		to = range->end;
	} else
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad range kind");

	*low = (unsigned int) from;
	*high = (unsigned int) to;
	if (*low != from || *high != to || *high < *low)
		return bt_diag_set(diag, bte_range, 0, 0, "Bad range.");
	return 0;
}

void bt_history_end_window(const struct bt_ftrace *ft, bt_hist_step_fn next,
			   bt_hist_step_fn prev, int backward,
			   unsigned int context, struct bt_hist_it *begin,
			   struct bt_hist_it *end, int *at_edge)
{
	unsigned int covered;

	*end = *begin;
	if (backward) {
		/* The current position is to be covered, too.  */
		covered = next(ft, end, 1);
		covered += prev(ft, begin, context - covered);
		covered += next(ft, end, context - covered);
	} else {
		covered = next(ft, end, context);
		covered += prev(ft, begin, context - covered);
	}
	*at_edge = covered ? 0 : backward ? -1 : 1;
}
