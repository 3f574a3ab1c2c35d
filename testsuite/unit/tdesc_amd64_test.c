#include <criterion/criterion.h>

#include "xml/tdesc_amd64.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* XCR0 values: this machine's (x87 SSE AVX AVX-512), SSE only, AVX, and
   everything including MPX and PKRU.  */
static const uint64_t xcr0s[] = { 0xe7, 0x3, 0x7, 0x1f, 0x207, 0x2ff };

#define NXCR0 (sizeof(xcr0s) / sizeof(xcr0s[0]))

/* What the parser saw: registers in document order, and types.  */
struct seen {
	char names[200][16];
	unsigned bitsize[200], regnum[200];
	unsigned nregs;
	char types[64][24];   /* ids defined in the current feature */
	unsigned ntypes;
	unsigned nfeatures, depth, maxdepth;
	int undefined_type;   /* a reg or field named a type not yet defined */
	int bad_regnum;
};

static const char *builtin_types[] = {
	"bool", "int", "int8", "int16", "int32", "int64", "uint32", "uint64",
	"uint128", "data_ptr", "code_ptr", "i387_ext", "bfloat16",
	"ieee_half", "ieee_single", "ieee_double",
};

static const char *attr(const char **atts, const char *name)
{
	for (; *atts; atts += 2)
		if (!strcmp(atts[0], name))
			return atts[1];
	return NULL;
}

static int type_known(const struct seen *s, const char *type)
{
	for (size_t i = 0; i < sizeof(builtin_types) / sizeof(*builtin_types); i++)
		if (!strcmp(type, builtin_types[i]))
			return 1;
	for (unsigned i = 0; i < s->ntypes; i++)
		if (!strcmp(type, s->types[i]))
			return 1;
	return 0;
}

static void on_start(void *data, const char *el, const char **atts)
{
	struct seen *s = data;
	const char *type = attr(atts, "type"), *id = attr(atts, "id");

	if (++s->depth > s->maxdepth)
		s->maxdepth = s->depth;
	if (!strcmp(el, "feature")) {
		s->nfeatures++;
		s->ntypes = 0;   /* types are scoped to their feature */
	}
	if (type && !type_known(s, type))
		s->undefined_type = 1;
	if (id && s->ntypes < 64)
		snprintf(s->types[s->ntypes++], sizeof(s->types[0]), "%s", id);
	if (!strcmp(el, "reg") && s->nregs < 200) {
		const char *regnum = attr(atts, "regnum");

		snprintf(s->names[s->nregs], sizeof(s->names[0]), "%s",
			 attr(atts, "name"));
		s->bitsize[s->nregs] = (unsigned) atoi(attr(atts, "bitsize"));
		if (!regnum || (unsigned) atoi(regnum) != s->nregs)
			s->bad_regnum = 1;
		s->nregs++;
	}
}

static void on_end(void *data, const char *el)
{
	struct seen *s = data;

	(void) el;
	s->depth--;
}

static void parse(uint64_t xcr0, struct seen *s)
{
	struct ps_buf out;
	XML_Parser p = XML_ParserCreate(NULL);

	memset(s, 0, sizeof(*s));
	ps_buf_init(&out);
	cr_assert_eq(tdesc_amd64_xml(xcr0, "target.xml", &out), 0);
	XML_SetUserData(p, s);
	XML_SetElementHandler(p, on_start, on_end);
	cr_assert_eq(XML_Parse(p, out.data, (int) out.len, 1), XML_STATUS_OK,
		     "xcr0 %#llx: %s at line %lu", (unsigned long long) xcr0,
		     XML_ErrorString(XML_GetErrorCode(p)),
		     (unsigned long) XML_GetCurrentLineNumber(p));
	XML_ParserFree(p);
	ps_buf_fini(&out);
}

Test(tdesc_amd64, xml_is_well_formed_and_lists_the_table_in_order)
{
	for (size_t x = 0; x < NXCR0; x++) {
		struct seen s;
		unsigned n = tdesc_amd64_nregs(xcr0s[x]);

		parse(xcr0s[x], &s);
		cr_assert_eq(s.nregs, n, "xcr0 %#llx",
			     (unsigned long long) xcr0s[x]);
		cr_assert_eq(s.depth, 0);
		cr_assert_eq(s.maxdepth, 4);   /* target feature flags field */
		cr_assert_not(s.bad_regnum);
		cr_assert_not(s.undefined_type);
		for (unsigned i = 0; i < n; i++) {
			const struct tdesc_reg *r = tdesc_amd64_reg(xcr0s[x], i);

			cr_assert_not_null(r);
			cr_assert_str_eq(s.names[i], r->name);
			cr_assert_eq(s.bitsize[i], r->bitsize);
		}
	}
}

Test(tdesc_amd64, features_follow_xcr0)
{
	struct seen s;

	parse(0x3, &s);
	cr_assert_eq(s.nfeatures, 4);     /* core sse linux segments */
	parse(0x7, &s);
	cr_assert_eq(s.nfeatures, 5);
	parse(0xe7, &s);
	cr_assert_eq(s.nfeatures, 6);
	parse(0x2ff, &s);
	cr_assert_eq(s.nfeatures, 8);

	/* Each feature adds its registers: ymm0h-15h; bnd0-3, cfgu,
	   status; xmm16-31, ymm16h-31h, k0-7, zmm0h-31h; pkru.  */
	cr_assert_eq(tdesc_amd64_nregs(0x7) - tdesc_amd64_nregs(0x3), 16);
	cr_assert_eq(tdesc_amd64_nregs(0x1f) - tdesc_amd64_nregs(0x7), 6);
	cr_assert_eq(tdesc_amd64_nregs(0xe7) - tdesc_amd64_nregs(0x7),
		     16 + 16 + 8 + 32);
	cr_assert_eq(tdesc_amd64_nregs(0x2e7) - tdesc_amd64_nregs(0xe7), 1);
	cr_assert_eq(tdesc_amd64_regno(0xe7, "pkru"), -pse_notfound);
	cr_assert_eq(tdesc_amd64_regno(0x2e7, "pkru"),
		     (int) tdesc_amd64_nregs(0x2e7) - 1);
	cr_assert_eq(tdesc_amd64_regno(0x7, "k0"), -pse_notfound);
}

/* The numbers gdbserver 13.1 uses on this machine (XCR0 0xe7), and the
   size of its 'g' reply.  */
Test(tdesc_amd64, numbers_match_gdbserver)
{
	static const struct { const char *name; int regno; } known[] = {
		{ "rax", 0 }, { "rbp", 6 }, { "rsp", 7 }, { "rip", 16 },
		{ "eflags", 17 }, { "gs", 23 }, { "st0", 24 }, { "fop", 39 },
		{ "xmm0", 40 }, { "mxcsr", 56 }, { "orig_rax", 57 },
		{ "fs_base", 58 }, { "gs_base", 59 }, { "ymm0h", 60 },
		{ "xmm16", 76 }, { "ymm16h", 92 }, { "k0", 108 },
		{ "zmm0h", 116 }, { "zmm31h", 147 },
	};
	unsigned bytes = 0;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		cr_assert_eq(tdesc_amd64_regno(0xe7, known[i].name),
			     known[i].regno, "%s", known[i].name);
	cr_assert_eq(tdesc_amd64_nregs(0xe7), 148);
	for (unsigned i = 0; i < 148; i++)
		bytes += tdesc_amd64_reg(0xe7, i)->bitsize / 8;
	cr_assert_eq(bytes, 2416);
	cr_assert_null(tdesc_amd64_reg(0xe7, 148));
	cr_assert_eq(tdesc_amd64_regno(0xe7, "nosuch"), -pse_notfound);
}

Test(tdesc_amd64, classes_and_indexes_agree_with_names)
{
	const struct tdesc_reg *r;

	r = tdesc_amd64_reg(0xe7, (unsigned) tdesc_amd64_regno(0xe7, "xmm21"));
	cr_assert_eq(r->cls, tdesc_xmm);
	cr_assert_eq(r->index, 21);
	r = tdesc_amd64_reg(0xe7, (unsigned) tdesc_amd64_regno(0xe7, "zmm17h"));
	cr_assert_eq(r->cls, tdesc_zmmh);
	cr_assert_eq(r->index, 17);
	cr_assert_eq(r->bitsize, 256);
	r = tdesc_amd64_reg(0xe7, (unsigned) tdesc_amd64_regno(0xe7, "ftag"));
	cr_assert_eq(r->cls, tdesc_x87ctl);
	cr_assert_eq(r->index, tdesc_ftag);
	cr_assert_str_eq(r->group, "float");
	r = tdesc_amd64_reg(0x1f, (unsigned) tdesc_amd64_regno(0x1f, "bnd2raw"));
	cr_assert_eq(r->cls, tdesc_bnd);
	cr_assert_eq(r->index, 2);
	r = tdesc_amd64_reg(0xe7, (unsigned) tdesc_amd64_regno(0xe7, "gs"));
	cr_assert_eq(r->cls, tdesc_gpr);
	cr_assert_eq(r->index, 23);
}

Test(tdesc_amd64, unknown_annex_and_appending)
{
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(tdesc_amd64_xml(0xe7, "64bit-avx.xml", &out),
		     -pse_notfound);
	cr_assert_eq(tdesc_amd64_xml(0xe7, "", &out), -pse_notfound);
	cr_assert_eq(out.len, 0);
	ps_buf_puts(&out, "keep");
	cr_assert_eq(tdesc_amd64_xml(0x3, "target.xml", &out), 0);
	cr_assert_eq(strncmp(out.data, "keep<?xml", 9), 0);
	cr_assert_not_null(strstr(out.data, "</target>\n"));
	cr_assert_null(strstr(out.data, "avx"));
	ps_buf_fini(&out);
}
