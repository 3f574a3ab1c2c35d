/* GDB's branch trace documents, read with expat: qXfer:btrace:read
   (btrace.dtd) and qXfer:btrace-conf:read (btrace-conf.dtd), as a live
   stub sends them.  Every element and attribute is checked against the
   DTDs; errors name the element, its line and byte offset.  */
#include "btrace/ptbtrace.h"
#include "common/ps_array.h"

#include <ctype.h>
#include <expat.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum bt_xml_doc { btx_btrace, btx_conf };

struct bt_xml_state {
	XML_Parser parser;
	enum bt_xml_doc doc;
	struct bt_diag *diag;
	int failed;
	char stack[8][16];        /* open elements, outermost first */
	int depth;

	/* btrace */
	struct bt_xml_btrace *out;
	size_t cap;
	char *text;               /* <raw>'s character data */
	size_t text_len, text_cap;
	int seen_pt, seen_block, seen_config, seen_cpu, seen_raw;

	/* btrace-conf */
	enum bt_format conf_format;
	uint32_t conf_size;
};

static void bt_xml_fail(struct bt_xml_state *st, const char *fmt,
			const char *a, const char *b)
{
	char what[160];

	if (st->failed)
		return;
	st->failed = 1;
	snprintf(what, sizeof(what), fmt, a, b ? b : "");
	bt_diag_set(st->diag, bte_bad_xml, 1,
		    (uint64_t) XML_GetCurrentByteIndex(st->parser),
		    "line %lu: %s",
		    (unsigned long) XML_GetCurrentLineNumber(st->parser),
		    what);
	XML_StopParser(st->parser, XML_FALSE);
}

static const char *bt_xml_attr(const char **attrs, const char *name)
{
	for (; attrs && attrs[0]; attrs += 2)
		if (strcmp(attrs[0], name) == 0)
			return attrs[1];
	return NULL;
}

/* Only the attributes NAMES, and the required ones present.  */
static int bt_xml_attrs(struct bt_xml_state *st, const char *el,
			const char **attrs, const char *const *names,
			int nrequired)
{
	for (const char **a = attrs; a && a[0]; a += 2) {
		int known = 0;

		for (int i = 0; names[i]; ++i)
			known |= strcmp(a[0], names[i]) == 0;
		if (!known) {
			bt_xml_fail(st, "<%s> has no attribute '%s'", el, a[0]);
			return -1;
		}
	}
	for (int i = 0; i < nrequired; ++i)
		if (!bt_xml_attr(attrs, names[i])) {
			bt_xml_fail(st, "<%s> needs attribute '%s'", el,
				    names[i]);
			return -1;
		}
	return 0;
}

/* GDB reads numbers with base 0: decimal, 0x hex or 0 octal.  */
static int bt_xml_number(struct bt_xml_state *st, const char *el,
			 const char *name, const char *text, uint64_t *value)
{
	char *end;

	if (!text || !isdigit((unsigned char) *text)) {
		bt_xml_fail(st, "<%s %s>: not a number", el, name);
		return -1;
	}
	*value = strtoull(text, &end, 0);
	if (*end) {
		bt_xml_fail(st, "<%s %s>: not a number", el, name);
		return -1;
	}
	return 0;
}

static int bt_xml_version(struct bt_xml_state *st, const char *el,
			  const char **attrs)
{
	const char *version = bt_xml_attr(attrs, "version");

	if (version && strcmp(version, "1.0") != 0) {
		bt_xml_fail(st, "<%s> version %s is not 1.0", el, version);
		return -1;
	}
	return 0;
}

static int bt_xml_block(struct bt_xml_state *st, const char **attrs)
{
	static const char *const names[] = { "begin", "end", NULL };
	uint64_t begin, end;
	struct bt_xml_btrace *out = st->out;

	if (bt_xml_attrs(st, "block", attrs, names, 2) < 0 ||
	    bt_xml_number(st, "block", "begin", bt_xml_attr(attrs, "begin"),
			  &begin) < 0 ||
	    bt_xml_number(st, "block", "end", bt_xml_attr(attrs, "end"),
			  &end) < 0)
		return -1;

	if (PS_ARRAY_RESERVE(out->trace, st->cap, out->trace_size + 16)) {
		bt_xml_fail(st, "out of memory at <%s>", "block", NULL);
		return -1;
	}
	/* The bundle's BTS layout: little-endian pairs, in XML order.  */
	for (int i = 0; i < 8; ++i) {
		out->trace[out->trace_size + i] = (uint8_t) (begin >> (8 * i));
		out->trace[out->trace_size + 8 + i] = (uint8_t) (end >> (8 * i));
	}
	out->trace_size += 16;
	return 0;
}

static int bt_xml_cpu(struct bt_xml_state *st, const char **attrs)
{
	static const char *const names[] = { "vendor", "family", "model",
					     "stepping", NULL };
	uint64_t family, model, stepping;
	struct bt_cpu *cpu = &st->out->cpu;

	if (bt_xml_attrs(st, "cpu", attrs, names, 4) < 0 ||
	    bt_xml_number(st, "cpu", "family", bt_xml_attr(attrs, "family"),
			  &family) < 0 ||
	    bt_xml_number(st, "cpu", "model", bt_xml_attr(attrs, "model"),
			  &model) < 0 ||
	    bt_xml_number(st, "cpu", "stepping",
			  bt_xml_attr(attrs, "stepping"), &stepping) < 0)
		return -1;
	if (family > UINT16_MAX || model > UINT8_MAX || stepping > UINT8_MAX) {
		bt_xml_fail(st, "<%s>: family, model or stepping too big",
			    "cpu", NULL);
		return -1;
	}
	/* Like GDB: Intel by its CPUID string, anything else unknown.  */
	cpu->vendor = strcmp(bt_xml_attr(attrs, "vendor"), "GenuineIntel")
		? btv_unknown : btv_intel;
	cpu->family = (uint16_t) family;
	cpu->model = (uint8_t) model;
	cpu->stepping = (uint8_t) stepping;
	return 0;
}

/* Which elements may appear inside which: the DTDs.  */
static int bt_xml_allowed(const struct bt_xml_state *st, const char *el)
{
	const char *parent = st->depth ? st->stack[st->depth - 1] : "";

	if (st->doc == btx_conf) {
		if (!st->depth)
			return strcmp(el, "btrace-conf") == 0;
		return strcmp(parent, "btrace-conf") == 0 &&
			(strcmp(el, "bts") == 0 || strcmp(el, "pt") == 0);
	}
	if (!st->depth)
		return strcmp(el, "btrace") == 0;
	if (strcmp(parent, "btrace") == 0)
		return strcmp(el, "block") == 0 || strcmp(el, "pt") == 0;
	if (strcmp(parent, "pt") == 0)
		return strcmp(el, "pt-config") == 0 || strcmp(el, "raw") == 0;
	if (strcmp(parent, "pt-config") == 0)
		return strcmp(el, "cpu") == 0;
	return 0;
}

static void bt_xml_start_conf(struct bt_xml_state *st, const char *el,
			      const char **attrs)
{
	static const char *const names[] = { "size", NULL };
	uint64_t size = 0;

	if (strcmp(el, "btrace-conf") == 0) {
		bt_xml_version(st, el, attrs);
		return;
	}
	if (st->conf_format != btf_none) {
		bt_xml_fail(st, "a second format <%s>", el, NULL);
		return;
	}
	if (bt_xml_attrs(st, el, attrs, names, 0) < 0)
		return;
	if (bt_xml_attr(attrs, "size") &&
	    bt_xml_number(st, el, "size", bt_xml_attr(attrs, "size"),
			  &size) < 0)
		return;
	if (size > UINT32_MAX) {
		bt_xml_fail(st, "<%s size>: too big", el, NULL);
		return;
	}
	st->conf_format = strcmp(el, "bts") == 0 ? btf_bts : btf_pt;
	st->conf_size = (uint32_t) size;
}

static void bt_xml_start_btrace(struct bt_xml_state *st, const char *el,
				const char **attrs)
{
	static const char *const none[] = { NULL };

	if (strcmp(el, "btrace") == 0) {
		static const char *const names[] = { "version", NULL };

		if (bt_xml_attrs(st, el, attrs, names, 0) == 0)
			bt_xml_version(st, el, attrs);
	} else if (strcmp(el, "block") == 0) {
		if (st->seen_pt) {
			bt_xml_fail(st, "<%s> after <pt>", el, NULL);
			return;
		}
		st->seen_block = 1;
		st->out->format = btf_bts;
		bt_xml_block(st, attrs);
	} else if (strcmp(el, "pt") == 0) {
		if (st->seen_block || st->seen_pt) {
			bt_xml_fail(st, "<%s> after <%s>", el,
				    st->seen_pt ? "pt" : "block");
			return;
		}
		st->seen_pt = 1;
		st->out->format = btf_pt;
		bt_xml_attrs(st, el, attrs, none, 0);
	} else if (strcmp(el, "pt-config") == 0) {
		if (st->seen_config || st->seen_raw)
			bt_xml_fail(st, "<%s> out of place", el, NULL);
		st->seen_config = 1;
		bt_xml_attrs(st, el, attrs, none, 0);
	} else if (strcmp(el, "cpu") == 0) {
		if (st->seen_cpu)
			bt_xml_fail(st, "a second <%s>", el, NULL);
		st->seen_cpu = 1;
		bt_xml_cpu(st, attrs);
	} else if (strcmp(el, "raw") == 0) {
		if (st->seen_raw)
			bt_xml_fail(st, "a second <%s>", el, NULL);
		st->seen_raw = 1;
		st->text_len = 0;
		bt_xml_attrs(st, el, attrs, none, 0);
	}
}

static void XMLCALL bt_xml_start(void *data, const char *el,
				 const char **attrs)
{
	struct bt_xml_state *st = data;

	if (st->failed)
		return;
	if (!bt_xml_allowed(st, el) || st->depth >= 8 || strlen(el) >= 16) {
		bt_xml_fail(st, st->depth ? "<%s> is not allowed in <%s>"
			    : "<%s> is not a %s document", el,
			    st->depth ? st->stack[st->depth - 1]
			    : (st->doc == btx_conf ? "btrace-conf" : "btrace"));
		return;
	}
	snprintf(st->stack[st->depth++], sizeof(st->stack[0]), "%s", el);
	if (st->doc == btx_conf)
		bt_xml_start_conf(st, el, attrs);
	else
		bt_xml_start_btrace(st, el, attrs);
}

static int bt_xml_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* <raw>'s hex digits, surrounding white space ignored as GDB does.  */
static void bt_xml_raw(struct bt_xml_state *st)
{
	const char *text = st->text ? st->text : "";
	size_t len = st->text_len, n;
	uint8_t *bytes;

	while (len && isspace((unsigned char) *text)) {
		text++;
		len--;
	}
	while (len && isspace((unsigned char) text[len - 1]))
		len--;
	if (len % 2) {
		bt_xml_fail(st, "<%s>: an odd number of hex digits", "raw",
			    NULL);
		return;
	}
	n = len / 2;
	bytes = malloc(n ? n : 1);
	if (!bytes) {
		bt_xml_fail(st, "out of memory at <%s>", "raw", NULL);
		return;
	}
	for (size_t i = 0; i < n; ++i) {
		int hi = bt_xml_hex((unsigned char) text[2 * i]);
		int lo = bt_xml_hex((unsigned char) text[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(bytes);
			bt_xml_fail(st, "<%s>: not hex digits%s", "raw",
				    NULL);
			return;
		}
		bytes[i] = (uint8_t) (hi << 4 | lo);
	}
	free(st->out->trace);
	st->out->trace = bytes;
	st->out->trace_size = n;
}

static void XMLCALL bt_xml_end(void *data, const char *el)
{
	struct bt_xml_state *st = data;

	if (st->failed)
		return;
	if (st->doc == btx_btrace && strcmp(el, "raw") == 0)
		bt_xml_raw(st);
	if (st->depth)
		st->depth -= 1;
}

static void XMLCALL bt_xml_chars(void *data, const char *s, int len)
{
	struct bt_xml_state *st = data;
	int in_raw;

	if (st->failed || len <= 0)
		return;
	in_raw = st->depth && strcmp(st->stack[st->depth - 1], "raw") == 0;
	if (!in_raw) {
		for (int i = 0; i < len; ++i)
			if (!isspace((unsigned char) s[i])) {
				bt_xml_fail(st, "text in <%s>", st->depth
					    ? st->stack[st->depth - 1] : "",
					    NULL);
				return;
			}
		return;
	}
	if (PS_ARRAY_RESERVE(st->text, st->text_cap,
			     st->text_len + (size_t) len + 1)) {
		bt_xml_fail(st, "out of memory at <%s>", "raw", NULL);
		return;
	}
	memcpy(st->text + st->text_len, s, (size_t) len);
	st->text_len += (size_t) len;
}

static int bt_xml_run(struct bt_xml_state *st, const char *xml, size_t len)
{
	enum XML_Status status;

	st->parser = XML_ParserCreate(NULL);
	if (!st->parser)
		return bt_diag_set(st->diag, bte_nomem, 0, 0, "out of memory");
	XML_SetUserData(st->parser, st);
	XML_SetElementHandler(st->parser, bt_xml_start, bt_xml_end);
	XML_SetCharacterDataHandler(st->parser, bt_xml_chars);

	status = XML_Parse(st->parser, xml, (int) len, XML_TRUE);
	if (status != XML_STATUS_OK && !st->failed) {
		st->failed = 1;
		bt_diag_set(st->diag, bte_bad_xml, 1,
			    (uint64_t) XML_GetCurrentByteIndex(st->parser),
			    "line %lu: %s",
			    (unsigned long) XML_GetCurrentLineNumber(st->parser),
			    XML_ErrorString(XML_GetErrorCode(st->parser)));
	}
	XML_ParserFree(st->parser);
	free(st->text);
	return st->failed ? -bte_bad_xml : 0;
}

void bt_xml_btrace_fini(struct bt_xml_btrace *trace)
{
	if (!trace)
		return;
	free(trace->trace);
	memset(trace, 0, sizeof(*trace));
}

int bt_xml_parse_btrace(const char *xml, size_t len,
			struct bt_xml_btrace *out, struct bt_diag *diag)
{
	struct bt_xml_state st;
	int errcode;

	if (!xml || !out || len > INT32_MAX)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	memset(out, 0, sizeof(*out));
	memset(&st, 0, sizeof(st));
	st.doc = btx_btrace;
	st.diag = diag;
	st.out = out;
	errcode = bt_xml_run(&st, xml, len);
	if (errcode < 0)
		bt_xml_btrace_fini(out);
	return errcode;
}

int bt_xml_parse_conf(const char *xml, size_t len, enum bt_format *format,
		      uint32_t *size, struct bt_diag *diag)
{
	struct bt_xml_state st;
	int errcode;

	if (!xml || !format || !size || len > INT32_MAX)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	memset(&st, 0, sizeof(st));
	st.doc = btx_conf;
	st.diag = diag;
	errcode = bt_xml_run(&st, xml, len);
	if (errcode < 0)
		return errcode;
	*format = st.conf_format;
	*size = st.conf_size;
	return 0;
}
