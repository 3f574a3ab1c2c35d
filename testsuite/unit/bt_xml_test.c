/* GDB's btrace and btrace-conf documents, as gdbserver writes them, and
   every kind of malformed one rejected with its line and offset.  */
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static const char pt_doc[] =
	"<!DOCTYPE btrace SYSTEM \"btrace.dtd\">\n"
	"<btrace version=\"1.0\">\n"
	"<pt>\n"
	"<pt-config>\n"
	"<cpu vendor=\"GenuineIntel\" family=\"6\" model=\"85\" "
	"stepping=\"4\"/>\n"
	"</pt-config>\n"
	"<raw>\n"
	"028202820282028202820282028202820223\n"
	"</raw>\n"
	"</pt>\n"
	"</btrace>\n";

static int parse(const char *xml, struct bt_xml_btrace *t,
		 struct bt_diag *diag)
{
	bt_diag_init(diag);
	return bt_xml_parse_btrace(xml, strlen(xml), t, diag);
}

Test(bt_xml, a_pt_trace_as_gdbserver_sends_it)
{
	struct bt_xml_btrace t;
	struct bt_diag diag;

	cr_assert_eq(parse(pt_doc, &t, &diag), 0, "%s", diag.text);
	cr_assert_eq(t.format, btf_pt);
	cr_assert_eq(t.cpu.vendor, btv_intel);
	cr_assert_eq(t.cpu.family, 6);
	cr_assert_eq(t.cpu.model, 85);
	cr_assert_eq(t.cpu.stepping, 4);
	cr_assert_eq(t.trace_size, 18);
	cr_assert_eq(t.trace[0], 0x02);
	cr_assert_eq(t.trace[1], 0x82);
	cr_assert_eq(t.trace[17], 0x23);
	bt_xml_btrace_fini(&t);
}

Test(bt_xml, other_vendors_are_unknown_and_cpu_is_optional)
{
	struct bt_xml_btrace t;
	struct bt_diag diag;

	cr_assert_eq(parse("<btrace version=\"1.0\"><pt><pt-config><cpu "
			   "vendor=\"AuthenticAMD\" family=\"0x19\" model=\"1\""
			   " stepping=\"0\"/></pt-config><raw>00</raw></pt>"
			   "</btrace>", &t, &diag), 0, "%s", diag.text);
	cr_assert_eq(t.cpu.vendor, btv_unknown);
	cr_assert_eq(t.cpu.family, 0x19);
	bt_xml_btrace_fini(&t);

	cr_assert_eq(parse("<btrace><pt><raw>ab</raw></pt></btrace>", &t,
			   &diag), 0);
	cr_assert_eq(t.cpu.vendor, btv_unknown);
	cr_assert_eq(t.trace_size, 1);
	cr_assert_eq(t.trace[0], 0xab);
	bt_xml_btrace_fini(&t);
}

Test(bt_xml, bts_blocks_become_bundle_records)
{
	struct bt_xml_btrace t;
	struct bt_diag diag;
	uint64_t v[4] = { 0 };

	cr_assert_eq(parse("<btrace version=\"1.0\">\n"
			   "<block begin=\"0x401000\" end=\"0x401010\"/>\n"
			   "<block begin=\"0x400f00\" end=\"0x400f08\"/>\n"
			   "</btrace>\n", &t, &diag), 0, "%s", diag.text);
	cr_assert_eq(t.format, btf_bts);
	cr_assert_eq(t.trace_size, 32);
	for (int i = 0; i < 4; ++i)
		for (int k = 7; k >= 0; --k)
			v[i] = (v[i] << 8) | t.trace[8 * i + k];
	cr_assert_eq(v[0], 0x401000);
	cr_assert_eq(v[1], 0x401010);
	cr_assert_eq(v[2], 0x400f00);
	cr_assert_eq(v[3], 0x400f08);
	bt_xml_btrace_fini(&t);

	cr_assert_eq(parse("<btrace version=\"1.0\"/>", &t, &diag), 0);
	cr_assert_eq(t.format, btf_none);
	cr_assert_eq(t.trace_size, 0);
	bt_xml_btrace_fini(&t);
}

static void expect_error(const char *xml, const char *words)
{
	struct bt_xml_btrace t;
	struct bt_diag diag;

	cr_assert_eq(parse(xml, &t, &diag), -bte_bad_xml, "accepted: %s",
		     xml);
	cr_assert(diag.has_offset);
	cr_assert_leq(diag.offset, strlen(xml));
	cr_assert_not_null(strstr(diag.text, words), "'%s' for %s",
			   diag.text, xml);
	cr_assert_not_null(strstr(diag.text, "line "), "%s", diag.text);
	cr_assert_null(t.trace);
}

Test(bt_xml, malformed_documents_name_the_element)
{
	expect_error("<btrace><pt>", "no element found");
	expect_error("<btrace><pt></btrace>", "mismatched tag");
	expect_error("<trace/>", "<trace> is not a btrace document");
	expect_error("<btrace><frob/></btrace>", "<frob> is not allowed in "
		     "<btrace>");
	expect_error("<btrace><pt><cpu vendor=\"x\" family=\"1\" model=\"1\" "
		     "stepping=\"1\"/></pt></btrace>",
		     "<cpu> is not allowed in <pt>");
	expect_error("<btrace version=\"2.0\"/>", "version 2.0");
	expect_error("<btrace><block begin=\"1\"/></btrace>",
		     "needs attribute 'end'");
	expect_error("<btrace><block begin=\"1\" end=\"x\"/></btrace>",
		     "<block end>: not a number");
	expect_error("<btrace><block begin=\"1\" end=\"2\" side=\"3\"/>"
		     "</btrace>", "no attribute 'side'");
	expect_error("<btrace><pt/><block begin=\"1\" end=\"2\"/></btrace>",
		     "<block> after <pt>");
	expect_error("<btrace><pt><raw>abc</raw></pt></btrace>",
		     "odd number of hex digits");
	expect_error("<btrace><pt><raw>zz</raw></pt></btrace>", "not hex");
	/* Only surrounding white space is dropped, as GDB does.  */
	expect_error("<btrace><pt><raw>02 882</raw></pt></btrace>", "not hex");
	expect_error("<btrace>text</btrace>", "text in <btrace>");
	expect_error("<btrace><pt><pt-config><cpu vendor=\"GenuineIntel\" "
		     "family=\"99999\" model=\"1\" stepping=\"1\"/>"
		     "</pt-config></pt></btrace>", "too big");
}

Test(bt_xml, every_truncation_is_rejected)
{
	size_t len = strlen(pt_doc);

	for (size_t n = 0; n < len - 1; ++n) {
		struct bt_xml_btrace t;
		struct bt_diag diag;
		char *copy = malloc(n + 1);

		/* An exact heap copy: ASan catches reads past N.  */
		memcpy(copy, pt_doc, n);
		copy[n] = 0;
		cr_assert_lt(bt_xml_parse_btrace(copy, n, &t, &diag), 0,
			     "length %zu accepted", n);
		cr_assert(diag.text[0]);
		free(copy);
	}
}

Test(bt_xml, btrace_conf_documents)
{
	enum bt_format format;
	uint32_t size;
	struct bt_diag diag;
	const char *pt = "<!DOCTYPE btrace-conf SYSTEM \"btrace-conf.dtd\">\n"
		"<btrace-conf version=\"1.0\">\n<pt size=\"0x4000\"/>\n"
		"</btrace-conf>\n";
	const char *bts = "<btrace-conf version=\"1.0\"><bts size=\"65536\"/>"
		"</btrace-conf>";
	const char *none = "<btrace-conf version=\"1.0\"/>";
	const char *two = "<btrace-conf><bts/><pt/></btrace-conf>";
	const char *bad = "<btrace-conf><pt size=\"big\"/></btrace-conf>";

	cr_assert_eq(bt_xml_parse_conf(pt, strlen(pt), &format, &size, &diag),
		     0, "%s", diag.text);
	cr_assert_eq(format, btf_pt);
	cr_assert_eq(size, 16384);
	cr_assert_eq(bt_xml_parse_conf(bts, strlen(bts), &format, &size,
				       &diag), 0);
	cr_assert_eq(format, btf_bts);
	cr_assert_eq(size, 65536);
	cr_assert_eq(bt_xml_parse_conf(none, strlen(none), &format, &size,
				       &diag), 0);
	cr_assert_eq(format, btf_none);
	cr_assert_eq(bt_xml_parse_conf(two, strlen(two), &format, &size,
				       &diag), -bte_bad_xml);
	cr_assert_not_null(strstr(diag.text, "second format <pt>"), "%s",
			   diag.text);
	cr_assert_eq(bt_xml_parse_conf(bad, strlen(bad), &format, &size,
				       &diag), -bte_bad_xml);
	cr_assert_not_null(strstr(diag.text, "<pt size>: not a number"));
	cr_assert_eq(bt_xml_parse_conf(pt_doc, strlen(pt_doc), &format, &size,
				       &diag), -bte_bad_xml);
	cr_assert_not_null(strstr(diag.text, "not a btrace-conf document"),
			   "%s", diag.text);
}
