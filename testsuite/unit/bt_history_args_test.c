/* Call-history arguments parsed as GDB's record.c parses them.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_history.h"

#include <criterion/criterion.h>
#include <string.h>

static int parse(const char *arg, struct bt_call_range *r,
		 struct bt_diag *diag)
{
	bt_diag_init(diag);
	return bt_call_history_parse(arg, r, diag);
}

Test(bt_history_args, modifiers)
{
	struct bt_call_range r;
	struct bt_diag d;

	cr_assert_eq(parse("", &r, &d), 0);
	cr_assert_eq(r.kind, btcr_default);
	cr_assert_eq(parse(NULL, &r, &d), 0);
	cr_assert_eq(parse("/i", &r, &d), btcf_insn_range);
	cr_assert_eq(parse("/l", &r, &d), btcf_src_line);
	cr_assert_eq(parse("/c", &r, &d), btcf_indent);
	cr_assert_eq(parse("/ilc", &r, &d),
		     btcf_insn_range | btcf_src_line | btcf_indent);
	cr_assert_eq(parse("/i /c", &r, &d), btcf_insn_range | btcf_indent);
	cr_assert_eq(parse("/i//l", &r, &d), btcf_insn_range | btcf_src_line);
	cr_assert_eq(r.kind, btcr_default);
}

Test(bt_history_args, modifier_errors_use_gdbs_words)
{
	struct bt_call_range r;
	struct bt_diag d;

	cr_assert_eq(parse("/", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Missing modifier.");
	cr_assert_eq(parse("/x", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Invalid modifier: x.");
	cr_assert_eq(parse("/im", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Invalid modifier: m.");
}

Test(bt_history_args, ranges)
{
	struct bt_call_range r;
	struct bt_diag d;

	cr_assert_eq(parse("+", &r, &d), 0);
	cr_assert_eq(r.kind, btcr_default);
	cr_assert_eq(parse("/c -", &r, &d), btcf_indent);
	cr_assert_eq(r.kind, btcr_backward);

	cr_assert_eq(parse("12", &r, &d), 0);
	cr_assert_eq(r.kind, btcr_from);
	cr_assert_eq(r.begin, 12);
	cr_assert_eq(r.has_count, 0);

	cr_assert_eq(parse("3,+5", &r, &d), 0);
	cr_assert_eq(r.kind, btcr_from);
	cr_assert_eq(r.begin, 3);
	cr_assert_eq(r.count, 5);
	cr_assert(r.has_count);

	cr_assert_eq(parse("7, -2", &r, &d), 0);
	cr_assert_eq(r.kind, btcr_from);
	cr_assert_eq(r.begin, 7);
	cr_assert_eq(r.count, -2);

	cr_assert_eq(parse("/i 4,9", &r, &d), btcf_insn_range);
	cr_assert_eq(r.kind, btcr_between);
	cr_assert_eq(r.begin, 4);
	cr_assert_eq(r.end, 9);

	cr_assert_eq(parse("  5  ", &r, &d), 0, "%s", d.text);
	cr_assert_eq(r.begin, 5);
}

Test(bt_history_args, range_errors_use_gdbs_words)
{
	struct bt_call_range r;
	struct bt_diag d;

	cr_assert_eq(parse("x", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Expected positive number, got: x.");
	cr_assert_eq(parse("3,x", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Expected positive number, got: x.");
	cr_assert_eq(parse("3,+", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Expected positive number, got: .");
	cr_assert_eq(parse("3 4", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Junk after argument:  4.");
	cr_assert_eq(parse("3,4x", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Junk after argument: x.");
	cr_assert_eq(parse("3,+4 5", &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Junk after argument:  5.");
}

/* The packet history reads the same pieces by
   maint_btrace_packet_history_cmd's rules.  */
Test(bt_history_args, packet_ranges)
{
	struct bt_call_range r;
	struct bt_diag d;

	bt_diag_init(&d);
	cr_assert_eq(bt_packet_history_parse(" - ", 7, &r, &d), 0);
	cr_assert_eq(r.kind, btcr_backward);
	cr_assert_eq(bt_packet_history_parse("2 , 5", 7, &r, &d), 0);
	cr_assert_eq(r.kind, btcr_between);
	cr_assert(r.begin == 2 && r.end == 5);
	cr_assert_eq(bt_packet_history_parse("2,-3", 7, &r, &d), 0);
	cr_assert(r.kind == btcr_from && r.has_count && r.count == -3);
	cr_assert_eq(bt_packet_history_parse("1,+3000000000", 7, &r, &d), 0);
	/* strtol's value cut to an int, then read unsigned again.  */
	cr_assert_eq(r.count, 3000000000);
}

Test(bt_history_args, packet_range_errors_use_gdbs_words)
{
	struct bt_call_range r;
	struct bt_diag d;

	bt_diag_init(&d);
	cr_assert_eq(bt_packet_history_parse("/r", 7, &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Expected positive number, got: /r.");
	cr_assert_eq(bt_packet_history_parse("4294967296", 7, &r, &d),
		     -bte_invalid);
	cr_assert_str_eq(d.text, "Number too big.");
	cr_assert_eq(bt_packet_history_parse("7 x", 7, &r, &d), -bte_range);
	cr_assert_str_eq(d.text, "'7' is out of range.");
	cr_assert_eq(bt_packet_history_parse("2,4294967296", 7, &r, &d),
		     -bte_invalid);
	cr_assert_str_eq(d.text, "Number too big.");
	cr_assert_eq(bt_packet_history_parse("2 x", 7, &r, &d), -bte_invalid);
	cr_assert_str_eq(d.text, "Junk after argument: x.");
}
