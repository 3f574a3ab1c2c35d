/* The btrace writers' output, parsed with expat and checked against the
   element and attribute declarations of xml/btrace.dtd and
   xml/btrace-conf.dtd (read from the source tree, not restated here).  */
#include "xml/btrace_xml.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <criterion/criterion.h>
#include <expat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BTRACE_DTD_DIR
#error "BTRACE_DTD_DIR must name the folder holding the DTDs"
#endif

/* A DTD reduced to what the checks need.  */
struct dtd_item {
	char name[32];
	char card;                     /* '\0', '?', '*' or '+' */
};

struct dtd_element {
	char name[32];
	int empty;
	int pcdata;
	int choice;                    /* items are alternatives */
	struct dtd_item item[8];
	int n_items;
	struct {
		char name[32];
		int required;
		char fixed[32];
	} attr[8];
	int n_attrs;
};

struct dtd {
	struct dtd_element el[16];
	int n;
};

static char *slurp(const char *path)
{
	FILE *file = fopen(path, "r");
	char *text;
	long len;

	cr_assert_not_null(file, "%s", path);
	fseek(file, 0, SEEK_END);
	len = ftell(file);
	rewind(file);
	text = calloc(1, (size_t) len + 1);
	cr_assert_eq(fread(text, 1, (size_t) len, file), (size_t) len);
	fclose(file);
	return text;
}

static struct dtd_element *dtd_find(struct dtd *dtd, const char *name)
{
	for (int i = 0; i < dtd->n; i++)
		if (strcmp(dtd->el[i].name, name) == 0)
			return &dtd->el[i];
	return NULL;
}

/* Read NAME's content model: EMPTY, (#PCDATA), or a group of names with
   optional cardinalities joined by ',' or '|'.  */
static void parse_model(struct dtd_element *el, const char *model)
{
	char tok[32];
	int n;

	if (strncmp(model, "EMPTY", 5) == 0) {
		el->empty = 1;
		return;
	}
	cr_assert_eq(*model, '(');
	model++;
	if (strncmp(model, "#PCDATA", 7) == 0) {
		el->pcdata = 1;
		return;
	}
	while (*model && *model != ')') {
		struct dtd_item *item = &el->item[el->n_items++];

		cr_assert_eq(sscanf(model, " %31[a-z-]%n", tok, &n), 1);
		snprintf(item->name, sizeof(item->name), "%s", tok);
		model += n;
		if (*model == '?' || *model == '*' || *model == '+')
			item->card = *model++;
		while (*model == ' ')
			model++;
		if (*model == '|')
			el->choice = 1;
		if (*model == '|' || *model == ',')
			model++;
	}
}

static void dtd_load(struct dtd *dtd, const char *file)
{
	char path[512], *text, *p;

	snprintf(path, sizeof(path), "%s/%s", BTRACE_DTD_DIR, file);
	text = slurp(path);
	memset(dtd, 0, sizeof(*dtd));

	/* Whitespace inside declarations is insignificant: flatten it.  */
	for (p = text; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';

	for (p = strstr(text, "<!ELEMENT"); p; p = strstr(p + 1, "<!ELEMENT")) {
		struct dtd_element *el = &dtd->el[dtd->n++];
		int n;

		cr_assert_eq(sscanf(p, "<!ELEMENT %31s %n", el->name, &n), 1);
		parse_model(el, p + n);
	}
	for (p = strstr(text, "<!ATTLIST"); p; p = strstr(p + 1, "<!ATTLIST")) {
		char name[32], decl[512], *q = decl, *end = strchr(p, '>');
		struct dtd_element *el;
		int n;

		/* Parse a copy that stops before the '>'.  */
		cr_assert_not_null(end);
		cr_assert_lt((size_t) (end - p), sizeof(decl));
		memcpy(decl, p, (size_t) (end - p));
		decl[end - p] = '\0';

		cr_assert_eq(sscanf(q, "<!ATTLIST %31s %n", name, &n), 1);
		el = dtd_find(dtd, name);
		cr_assert_not_null(el, "ATTLIST for undeclared %s", name);
		q += n;
		for (;;) {
			char attr[32], type[16], deflt[64];

			if (sscanf(q, " %31s %15s %63s%n", attr, type, deflt,
				   &n) != 3)
				break;
			cr_assert_lt(el->n_attrs, 8);
			snprintf(el->attr[el->n_attrs].name, 32, "%s", attr);
			el->attr[el->n_attrs].required =
				strcmp(deflt, "#REQUIRED") == 0;
			q += n;
			if (strcmp(deflt, "#FIXED") == 0) {
				cr_assert_eq(sscanf(q, " \"%31[^\"]\"%n",
						    el->attr[el->n_attrs].fixed,
						    &n), 1);
				el->attr[el->n_attrs].required = 1;
				q += n;
			}
			el->n_attrs++;
		}
	}
	cr_assert_gt(dtd->n, 0);
	free(text);
}

/* One open element while parsing: its children so far.  */
struct frame {
	struct dtd_element *el;
	char children[4096][16];
	int n_children;
};

struct checker {
	struct dtd *dtd;
	const char *root;
	struct frame stack[8];
	int depth;
	char doctype[32];
	char sysid[32];
	int errors;
	char first_error[256];
	/* What the tests look at.  */
	struct trace_block blocks[64];
	int n_blocks;
	struct ps_buf raw;
	int seen_raw, seen_cpu, seen_bts, seen_pt_conf;
	struct trace_cpu cpu;
	unsigned long long conf_size;
};

static const char *attr_value(const XML_Char **attrs, const char *name)
{
	for (int i = 0; attrs[i]; i += 2)
		if (strcmp(attrs[i], name) == 0)
			return attrs[i + 1];
	return NULL;
}

/* Count a violation and keep the first one's text for the report.  */
static void bad(struct checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void bad(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->errors++) {
		va_start(ap, fmt);
		vsnprintf(c->first_error, sizeof(c->first_error), fmt, ap);
		va_end(ap);
	}
}

static void check_children(struct checker *c, const struct frame *f)
{
	const struct dtd_element *el = f->el;
	int at = 0;

	if (el->empty || el->pcdata) {
		if (f->n_children)
			bad(c, "<%s> must have no children", el->name);
		return;
	}
	if (el->choice) {
		/* All children are the same alternative, respecting its
		   cardinality.  */
		const struct dtd_item *alt = NULL;

		if (!f->n_children)
			return;
		for (int i = 0; i < el->n_items; i++)
			if (strcmp(el->item[i].name, f->children[0]) == 0)
				alt = &el->item[i];
		if (!alt) {
			bad(c, "<%s> in <%s>", f->children[0], el->name);
			return;
		}
		for (int i = 0; i < f->n_children; i++)
			if (strcmp(f->children[i], alt->name) != 0)
				bad(c, "<%s> mixed with <%s> in <%s>",
				    f->children[i], alt->name, el->name);
		if (alt->card != '*' && alt->card != '+' && f->n_children > 1)
			bad(c, "<%s> repeated in <%s>", alt->name, el->name);
		return;
	}
	for (int i = 0; i < el->n_items; i++) {
		const struct dtd_item *item = &el->item[i];
		int count = 0;

		while (at < f->n_children
		       && strcmp(f->children[at], item->name) == 0) {
			at++;
			count++;
		}
		if ((!item->card || item->card == '+') && count < 1)
			bad(c, "<%s> needs <%s>", el->name, item->name);
		if ((!item->card || item->card == '?') && count > 1)
			bad(c, "<%s> repeats <%s>", el->name, item->name);
	}
	if (at != f->n_children)
		bad(c, "<%s> out of order in <%s>", f->children[at], el->name);
}

static void XMLCALL on_start(void *data, const XML_Char *name,
			     const XML_Char **attrs)
{
	struct checker *c = data;
	struct dtd_element *el = dtd_find(c->dtd, name);
	struct frame *f;

	if (c->depth == 0 && strcmp(name, c->root) != 0)
		bad(c, "root <%s>, not <%s>", name, c->root);
	if (c->depth > 0) {
		struct frame *parent = &c->stack[c->depth - 1];

		cr_assert_lt(parent->n_children, 4096);
		snprintf(parent->children[parent->n_children++], 16, "%s",
			 name);
	}
	cr_assert_lt(c->depth, 8);
	f = &c->stack[c->depth++];
	f->el = el;
	f->n_children = 0;
	if (!el) {
		bad(c, "undeclared element <%s>", name);
		return;
	}

	for (int i = 0; attrs[i]; i += 2) {
		int known = 0;

		for (int a = 0; a < el->n_attrs; a++)
			if (strcmp(el->attr[a].name, attrs[i]) == 0)
				known = 1;
		if (!known)
			bad(c, "undeclared attribute %s of <%s>", attrs[i],
			    name);
	}
	for (int a = 0; a < el->n_attrs; a++) {
		const char *v = attr_value(attrs, el->attr[a].name);

		if (el->attr[a].required && !v)
			bad(c, "<%s> lacks %s", name, el->attr[a].name);
		if (el->attr[a].fixed[0] && v
		    && strcmp(v, el->attr[a].fixed) != 0)
			bad(c, "<%s %s=\"%s\">, fixed \"%s\"", name,
			    el->attr[a].name, v, el->attr[a].fixed);
	}
	if (c->errors)
		return;

	if (strcmp(name, "block") == 0) {
		const char *b = attr_value(attrs, "begin");
		const char *e = attr_value(attrs, "end");

		cr_assert_eq(strncmp(b, "0x", 2), 0);
		cr_assert_eq(strncmp(e, "0x", 2), 0);
		cr_assert_lt(c->n_blocks, 64);
		c->blocks[c->n_blocks].begin = strtoull(b, NULL, 16);
		c->blocks[c->n_blocks].end = strtoull(e, NULL, 16);
		c->n_blocks++;
	} else if (strcmp(name, "cpu") == 0) {
		c->seen_cpu = 1;
		snprintf(c->cpu.vendor, sizeof(c->cpu.vendor), "%s",
			 attr_value(attrs, "vendor"));
		c->cpu.family = strtoul(attr_value(attrs, "family"), NULL, 0);
		c->cpu.model = strtoul(attr_value(attrs, "model"), NULL, 0);
		c->cpu.stepping = strtoul(attr_value(attrs, "stepping"),
					  NULL, 0);
	} else if (strcmp(name, "raw") == 0) {
		c->seen_raw = 1;
	} else if ((strcmp(name, "bts") == 0 || strcmp(name, "pt") == 0)
		   && strcmp(c->root, "btrace-conf") == 0) {
		const char *size = attr_value(attrs, "size");

		*(name[0] == 'b' ? &c->seen_bts : &c->seen_pt_conf) = 1;
		cr_assert_not_null(size);
		cr_assert_eq(strncmp(size, "0x", 2), 0);
		c->conf_size = strtoull(size, NULL, 16);
	}
}

static void XMLCALL on_end(void *data, const XML_Char *name)
{
	struct checker *c = data;

	(void) name;
	c->depth--;
	if (c->stack[c->depth].el)
		check_children(c, &c->stack[c->depth]);
}

static void XMLCALL on_text(void *data, const XML_Char *s, int len)
{
	struct checker *c = data;
	const struct frame *f = &c->stack[c->depth - 1];

	if (!c->depth || !f->el)
		return;
	for (int i = 0; i < len; i++) {
		if (s[i] == '\n' || s[i] == ' ')
			continue;
		if (f->el->pcdata)
			ps_buf_putc(&c->raw, s[i]);
		else
			bad(c, "text in <%s>", f->el->name);
	}
}

static void XMLCALL on_doctype(void *data, const XML_Char *name,
			       const XML_Char *sysid, const XML_Char *pubid,
			       int internal)
{
	struct checker *c = data;

	(void) pubid;
	(void) internal;
	snprintf(c->doctype, sizeof(c->doctype), "%s", name);
	snprintf(c->sysid, sizeof(c->sysid), "%s", sysid ? sysid : "");
}

/* Parse TEXT, checking it against the DTD named for ROOT; the number of
   violations (a parse error counts as one).  */
static int check_doc(struct checker *c, struct dtd *dtd, const char *root,
		     const char *text, size_t len)
{
	XML_Parser parser = XML_ParserCreate(NULL);
	char dtd_file[64];

	memset(c, 0, sizeof(*c));
	ps_buf_init(&c->raw);
	c->dtd = dtd;
	c->root = root;
	snprintf(dtd_file, sizeof(dtd_file), "%s.dtd", root);
	dtd_load(dtd, dtd_file);

	XML_SetUserData(parser, c);
	XML_SetElementHandler(parser, on_start, on_end);
	XML_SetCharacterDataHandler(parser, on_text);
	XML_SetStartDoctypeDeclHandler(parser, on_doctype);
	if (XML_Parse(parser, text, (int) len, 1) != XML_STATUS_OK)
		bad(c, "%s at line %lu",
		    XML_ErrorString(XML_GetErrorCode(parser)),
		    (unsigned long) XML_GetCurrentLineNumber(parser));
	XML_ParserFree(parser);
	if (strcmp(c->doctype, root) != 0 || strcmp(c->sysid, dtd_file) != 0)
		bad(c, "DOCTYPE %s SYSTEM \"%s\"", c->doctype, c->sysid);
	return c->errors;
}

static void check(struct checker *c, struct dtd *dtd, const char *root,
		  const struct ps_buf *text)
{
	cr_assert_eq(check_doc(c, dtd, root, text->data, text->len), 0,
		     "%s\n%s", c->first_error, text->data);
}

static struct dtd dtd;
static struct checker chk;

static void fill_random(uint8_t *data, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		data[i] = (uint8_t) (seed >> 56);
	}
}

Test(btrace_xml, bts_blocks_newest_first)
{
	struct trace_block blocks[5];
	struct ps_buf out;

	for (int i = 0; i < 5; i++) {
		blocks[i].begin = 0x400000 + 0x100 * (uint64_t) i;
		blocks[i].end = blocks[i].begin + 0x20 + (uint64_t) i;
	}
	blocks[4].end = 0xffffffffffffff00ull;
	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_bts(&out, blocks, 5), 0);
	check(&chk, &dtd, "btrace", &out);
	cr_assert_eq(chk.n_blocks, 5);
	for (int i = 0; i < 5; i++) {
		cr_assert_eq(chk.blocks[i].begin, blocks[4 - i].begin);
		cr_assert_eq(chk.blocks[i].end, blocks[4 - i].end);
	}
	ps_buf_fini(&out);
}

Test(btrace_xml, bts_without_blocks_is_valid)
{
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_bts(&out, NULL, 0), 0);
	check(&chk, &dtd, "btrace", &out);
	cr_assert_eq(chk.n_blocks, 0);
	cr_assert_eq(btrace_xml_bts(&out, NULL, 1), -pse_invalid);
	ps_buf_fini(&out);
}

Test(btrace_xml, bts_matches_gdbserver_bytes)
{
	struct trace_block b[2] = { { 0x401000, 0x40100a },
				     { 0x401020, 0x401031 } };
	struct ps_buf out;
	char expect[512];

	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_bts(&out, b, 2), 0);
	snprintf(expect, sizeof(expect),
		 "<!DOCTYPE btrace SYSTEM \"btrace.dtd\">\n"
		 "<btrace version=\"1.0\">\n"
		 "<block begin=\"0x%llx\" end=\"0x%llx\"/>\n"
		 "<block begin=\"0x%llx\" end=\"0x%llx\"/>\n"
		 "</btrace>\n",
		 (unsigned long long) b[1].begin, (unsigned long long) b[1].end,
		 (unsigned long long) b[0].begin, (unsigned long long) b[0].end);
	cr_assert_str_eq(out.data, expect);
	ps_buf_fini(&out);
}

Test(btrace_xml, pt_raw_round_trips)
{
	struct trace_cpu cpu = { "GenuineIntel", 6, 0x8f, 8 };
	uint8_t raw[4099], back[4099];
	struct ps_buf out;

	fill_random(raw, sizeof(raw), 42);
	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_pt(&out, &cpu, raw, sizeof(raw)), 0);
	check(&chk, &dtd, "btrace", &out);
	cr_assert(chk.seen_cpu);
	cr_assert_str_eq(chk.cpu.vendor, cpu.vendor);
	cr_assert_eq(chk.cpu.family, cpu.family);
	cr_assert_eq(chk.cpu.model, cpu.model);
	cr_assert_eq(chk.cpu.stepping, cpu.stepping);
	cr_assert(chk.seen_raw);
	cr_assert_eq(chk.raw.len, 2 * sizeof(raw));
	cr_assert_eq(ps_hex_decode(back, chk.raw.data, sizeof(back)), 0);
	cr_assert_arr_eq(back, raw, sizeof(raw));
	ps_buf_fini(&chk.raw);
	ps_buf_fini(&out);
}

Test(btrace_xml, pt_without_cpu_or_raw)
{
	struct trace_cpu unknown = { "", 6, 1, 1 };
	uint8_t raw[3] = { 0x02, 0x82, 0x00 };
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_pt(&out, NULL, raw, sizeof(raw)), 0);
	check(&chk, &dtd, "btrace", &out);
	cr_assert(!chk.seen_cpu);
	cr_assert(chk.seen_raw);
	cr_assert_str_eq(chk.raw.data, "028200");
	ps_buf_fini(&chk.raw);

	/* A "new" read that found nothing: no <raw>, still a PT trace.  */
	ps_buf_reset(&out);
	cr_assert_eq(btrace_xml_pt(&out, &unknown, NULL, 0), 0);
	check(&chk, &dtd, "btrace", &out);
	cr_assert(!chk.seen_cpu);
	cr_assert(!chk.seen_raw);
	cr_assert(strstr(out.data, "<pt>"));
	cr_assert_eq(btrace_xml_pt(&out, NULL, NULL, 5), -pse_invalid);
	ps_buf_fini(&out);
}

Test(btrace_xml, vendor_is_escaped)
{
	struct trace_cpu cpu = { "A&B<\"x\">", 1, 2, 3 };
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_pt(&out, &cpu, "\x01", 1), 0);
	check(&chk, &dtd, "btrace", &out);
	cr_assert_str_eq(chk.cpu.vendor, cpu.vendor);
	ps_buf_fini(&chk.raw);
	ps_buf_fini(&out);
}

Test(btrace_xml, a_large_trace_is_written_whole)
{
	const size_t len = 16u << 20;
	uint8_t *raw = malloc(len), back[64];
	struct ps_buf out;
	const char *hex, *end;

	cr_assert_not_null(raw);
	fill_random(raw, len, 7);
	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_pt(&out, NULL, raw, len), 0);
	hex = strstr(out.data, "<raw>\n");
	cr_assert_not_null(hex);
	hex += 6;
	end = strstr(hex, "</raw>");
	cr_assert_not_null(end);
	cr_assert_eq((size_t) (end - hex), 2 * len);
	/* Spot-check both ends and the middle.  */
	cr_assert_eq(ps_hex_decode(back, hex, 64), 0);
	cr_assert_arr_eq(back, raw, 64);
	cr_assert_eq(ps_hex_decode(back, hex + len, 64), 0);
	cr_assert_arr_eq(back, raw + len / 2, 64);
	cr_assert_eq(ps_hex_decode(back, end - 128, 64), 0);
	cr_assert_arr_eq(back, raw + len - 64, 64);
	/* Reserved up front: no doubling beyond one step past the need.  */
	cr_assert_lt(out.cap, 2 * (2 * len + 512));
	ps_buf_fini(&out);
	free(raw);
}

Test(btrace_xml, conf_documents)
{
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(btrace_xml_conf(&out, trace_format_bts, 0x10000), 0);
	check(&chk, &dtd, "btrace-conf", &out);
	cr_assert(chk.seen_bts);
	cr_assert(!chk.seen_pt_conf);
	cr_assert_eq(chk.conf_size, 0x10000);

	ps_buf_reset(&out);
	cr_assert_eq(btrace_xml_conf(&out, trace_format_pt, 0x4000), 0);
	check(&chk, &dtd, "btrace-conf", &out);
	cr_assert(chk.seen_pt_conf);
	cr_assert(!chk.seen_bts);
	cr_assert_eq(chk.conf_size, 0x4000);

	ps_buf_reset(&out);
	cr_assert_eq(btrace_xml_conf(&out, trace_format_none, 99), 0);
	check(&chk, &dtd, "btrace-conf", &out);
	cr_assert(!chk.seen_pt_conf && !chk.seen_bts);

	ps_buf_reset(&out);
	cr_assert_eq(btrace_xml_conf(&out, (enum trace_format) 9, 1),
		     -pse_invalid);
	cr_assert_eq(out.len, 0);
	ps_buf_fini(&out);
}

Test(btrace_xml, the_checker_rejects_what_the_dtd_forbids)
{
	/* The checks above are only worth something if they can fail.  */
	static const char head[] = "<!DOCTYPE btrace SYSTEM \"btrace.dtd\">\n";
	const char *bad_docs[] = {
		"<btrace version=\"1.0\"><pt><raw>00</raw>"
		"<pt-config/></pt></btrace>",
		"<btrace version=\"1.0\"><block begin=\"0x1\" end=\"0x2\"/>"
		"<pt/></btrace>",
		"<btrace version=\"1.0\"><pt/><pt/></btrace>",
		"<btrace version=\"2.0\"></btrace>",
		"<btrace version=\"1.0\"><block begin=\"0x1\"/></btrace>",
		"<btrace version=\"1.0\"><block begin=\"0x1\" end=\"0x2\""
		" size=\"3\"/></btrace>",
		"<btrace version=\"1.0\"><pt><pt-config><cpu vendor=\"x\""
		" family=\"1\" model=\"2\"/></pt-config></pt></btrace>",
		"<btrace version=\"1.0\">text</btrace>",
		"<btrace version=\"1.0\"><bts/></btrace>",
		"<btrace-conf version=\"1.0\"/>",
		"<btrace version=\"1.0\"><pt>",
	};
	const char *good = "<btrace version=\"1.0\"><pt><pt-config/>"
		"<raw>00</raw></pt></btrace>";
	struct ps_buf doc;

	ps_buf_init(&doc);
	for (size_t i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
		ps_buf_reset(&doc);
		ps_buf_puts(&doc, head);
		ps_buf_puts(&doc, bad_docs[i]);
		cr_assert_gt(check_doc(&chk, &dtd, "btrace", doc.data,
				       doc.len), 0, "accepted: %s",
			     bad_docs[i]);
		ps_buf_fini(&chk.raw);
	}
	ps_buf_reset(&doc);
	ps_buf_puts(&doc, head);
	ps_buf_puts(&doc, good);
	cr_assert_eq(check_doc(&chk, &dtd, "btrace", doc.data, doc.len), 0,
		     "%s", chk.first_error);
	ps_buf_fini(&chk.raw);

	/* And the DOCTYPE must name the right DTD.  */
	ps_buf_reset(&doc);
	ps_buf_puts(&doc, "<!DOCTYPE btrace SYSTEM \"other.dtd\">\n");
	ps_buf_puts(&doc, good);
	cr_assert_gt(check_doc(&chk, &dtd, "btrace", doc.data, doc.len), 0);
	ps_buf_fini(&chk.raw);
	ps_buf_fini(&doc);
}
