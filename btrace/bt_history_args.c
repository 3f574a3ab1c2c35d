/* Arguments of the history commands, parsed as GDB 13.1's record.c does
   (modifiers, then "+", "-", "N", "N,M", "N,+K", "N,-K"), with its
   error messages, so that a script can pass GDB's argument text.  */
#include "btrace/ptbtrace.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *bt_skip_spaces(const char *text)
{
	while (isspace((unsigned char) *text))
		text++;
	return text;
}

/* GDB's get_insn_number: a decimal number after optional spaces.  */
static int bt_get_number(const char **arg, uint64_t *number,
			 struct bt_diag *diag)
{
	const char *pos = bt_skip_spaces(*arg);
	char *end;

	if (!isdigit((unsigned char) *pos))
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "Expected positive number, got: %s.", pos);
	*number = strtoull(pos, &end, 10);
	*arg = end;
	return 0;
}

static int bt_no_junk(const char *arg, struct bt_diag *diag)
{
	if (*arg)
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "Junk after argument: %s.", arg);
	return 0;
}

static int bt_call_modifiers(const char **arg, struct bt_diag *diag)
{
	const char *args = *arg;
	int flags = 0;

	while (*args == '/') {
		++args;
		if (!*args)
			return bt_diag_set(diag, bte_invalid, 0, 0,
					   "Missing modifier.");
		for (; *args && !isspace((unsigned char) *args); ++args) {
			switch (*args) {
			case '/': break;
			case 'l': flags |= btcf_src_line; break;
			case 'i': flags |= btcf_insn_range; break;
			case 'c': flags |= btcf_indent; break;
			default:
				return bt_diag_set(diag, bte_invalid, 0, 0,
						   "Invalid modifier: %c.",
						   *args);
			}
		}
		args = bt_skip_spaces(args);
	}
	*arg = args;
	return flags;
}

int bt_call_history_parse(const char *text, struct bt_call_range *range,
			  struct bt_diag *diag)
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
	text = bt_skip_spaces(text);
	len = strlen(text);
	while (len && isspace((unsigned char) text[len - 1]))
		len--;
	if (len >= sizeof(buf))
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "argument too long");
	memcpy(buf, text, len);
	buf[len] = 0;

	flags = bt_call_modifiers(&arg, diag);
	if (flags < 0)
		return flags;

	if (!*arg || strcmp(arg, "+") == 0)
		return flags;
	if (strcmp(arg, "-") == 0) {
		range->kind = btcr_backward;
		return flags;
	}

	errcode = bt_get_number(&arg, &range->begin, diag);
	if (errcode < 0)
		return errcode;
	range->kind = btcr_from;

	if (*arg != ',')
		return bt_no_junk(arg, diag) < 0 ? -bte_invalid : flags;

	arg = bt_skip_spaces(arg + 1);
	if (*arg == '+' || *arg == '-') {
		int negative = *arg == '-';
		const char *pos = bt_skip_spaces(arg + 1);
		char *end;
		long count;

		if (!isdigit((unsigned char) *pos))
			return bt_diag_set(diag, bte_invalid, 0, 0,
					   "Expected positive number, got: "
					   "%s.", pos);
		count = strtol(pos, &end, 10);
		errcode = bt_no_junk(end, diag);
		if (errcode < 0)
			return errcode;
		/* GDB keeps the size in an int.  */
		range->count = negative ? -(int64_t) (int) count
			: (int64_t) (int) count;
		range->has_count = 1;
		return flags;
	}

	errcode = bt_get_number(&arg, &range->end, diag);
	if (errcode < 0)
		return errcode;
	errcode = bt_no_junk(arg, diag);
	if (errcode < 0)
		return errcode;
	range->kind = btcr_between;
	return flags;
}
