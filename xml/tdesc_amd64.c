/* The amd64 GNU/Linux target description, generated from tables.  The
   features, their order, register names, sizes, types and groups are
   those Debian's gdbserver 13.1 serves (its qXfer:features:read reply
   on this machine), so GDB numbers and prints registers the same way.  */
#include "xml/tdesc_amd64.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <stddef.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A field of a union, or of a flags/struct type when START >= 0.  */
struct tdesc_field {
	const char *name;
	const char *type;
	int start, end;
};

struct tdesc_type {
	const char *kind;             /* "vector", "union", "flags", "struct" */
	const char *id;
	const char *element;          /* vector element type */
	unsigned count;               /* vector: elements; flags/struct: size */
	const struct tdesc_field *fields;
	unsigned nfields;
};

struct tdesc_feature {
	const char *name;
	uint64_t xcr0_any;            /* present if any bit is set; 0: always */
	const struct tdesc_type *types;
	unsigned ntypes;
	const struct tdesc_reg *regs;
	unsigned nregs;
};

#define BIT(n, name) { name, "bool", n, n }

static const struct tdesc_field eflags_fields[] = {
	BIT(0, "CF"), BIT(1, ""), BIT(2, "PF"), BIT(4, "AF"), BIT(6, "ZF"),
	BIT(7, "SF"), BIT(8, "TF"), BIT(9, "IF"), BIT(10, "DF"),
	BIT(11, "OF"), BIT(14, "NT"), BIT(16, "RF"), BIT(17, "VM"),
	BIT(18, "AC"), BIT(19, "VIF"), BIT(20, "VIP"), BIT(21, "ID"),
};

static const struct tdesc_field mxcsr_fields[] = {
	BIT(0, "IE"), BIT(1, "DE"), BIT(2, "ZE"), BIT(3, "OE"), BIT(4, "UE"),
	BIT(5, "PE"), BIT(6, "DAZ"), BIT(7, "IM"), BIT(8, "DM"),
	BIT(9, "ZM"), BIT(10, "OM"), BIT(11, "UM"), BIT(12, "PM"),
	BIT(15, "FZ"),
};

#define FIELD(name, type) { name, type, -1, -1 }

static const struct tdesc_field vec128_fields[] = {
	FIELD("v8_bfloat16", "v8bf16"), FIELD("v8_half", "v8h"),
	FIELD("v4_float", "v4f"), FIELD("v2_double", "v2d"),
	FIELD("v16_int8", "v16i8"), FIELD("v8_int16", "v8i16"),
	FIELD("v4_int32", "v4i32"), FIELD("v2_int64", "v2i64"),
	FIELD("uint128", "uint128"),
};

static const struct tdesc_field br128_fields[] = {
	FIELD("lbound", "uint64"), FIELD("ubound_raw", "uint64"),
};

static const struct tdesc_field bndstatus_fields[] = {
	{ "bde", "uint64", 2, 63 }, { "error", "uint64", 0, 1 },
};

static const struct tdesc_field status_fields[] = {
	FIELD("raw", "data_ptr"), FIELD("status", "_bndstatus"),
};

static const struct tdesc_field bndcfgu_fields[] = {
	{ "base", "uint64", 12, 63 }, { "reserved", "uint64", 2, 11 },
	{ "preserved", "uint64", 1, 1 }, { "enabled", "uint64", 0, 0 },
};

static const struct tdesc_field cfgu_fields[] = {
	FIELD("raw", "data_ptr"), FIELD("config", "_bndcfgu"),
};

#define WITH_FIELDS(f) f, ARRAY_SIZE(f)
#define VECTOR(id, elem, n) { "vector", id, elem, n, NULL, 0 }

static const struct tdesc_type core_types[] = {
	{ "flags", "i386_eflags", NULL, 4, WITH_FIELDS(eflags_fields) },
};

/* The vec128 union and its vectors, which both sse and avx512 define.  */
#define VEC128_TYPES \
	VECTOR("v8bf16", "bfloat16", 8), VECTOR("v8h", "ieee_half", 8), \
	VECTOR("v4f", "ieee_single", 4), VECTOR("v2d", "ieee_double", 2), \
	VECTOR("v16i8", "int8", 16), VECTOR("v8i16", "int16", 8), \
	VECTOR("v4i32", "int32", 4), VECTOR("v2i64", "int64", 2), \
	{ "union", "vec128", NULL, 0, WITH_FIELDS(vec128_fields) }

static const struct tdesc_type sse_types[] = {
	VEC128_TYPES,
	{ "flags", "i386_mxcsr", NULL, 4, WITH_FIELDS(mxcsr_fields) },
};

static const struct tdesc_type mpx_types[] = {
	{ "struct", "br128", NULL, 0, WITH_FIELDS(br128_fields) },
	{ "struct", "_bndstatus", NULL, 8, WITH_FIELDS(bndstatus_fields) },
	{ "union", "status", NULL, 0, WITH_FIELDS(status_fields) },
	{ "struct", "_bndcfgu", NULL, 8, WITH_FIELDS(bndcfgu_fields) },
	{ "union", "cfgu", NULL, 0, WITH_FIELDS(cfgu_fields) },
};

static const struct tdesc_type avx512_types[] = {
	VEC128_TYPES,
	VECTOR("v2ui128", "uint128", 2),
};

/* Registers numbered like their name: st3, xmm12, k5, ...  */
#define R(p, n, s, bits, type, group, cls) \
	{ p #n s, bits, type, group, cls, n }
#define REGS8(p, s, b, t, g, c) \
	R(p, 0, s, b, t, g, c), R(p, 1, s, b, t, g, c), \
	R(p, 2, s, b, t, g, c), R(p, 3, s, b, t, g, c), \
	R(p, 4, s, b, t, g, c), R(p, 5, s, b, t, g, c), \
	R(p, 6, s, b, t, g, c), R(p, 7, s, b, t, g, c)
#define REGS16(p, s, b, t, g, c) \
	REGS8(p, s, b, t, g, c), \
	R(p, 8, s, b, t, g, c), R(p, 9, s, b, t, g, c), \
	R(p, 10, s, b, t, g, c), R(p, 11, s, b, t, g, c), \
	R(p, 12, s, b, t, g, c), R(p, 13, s, b, t, g, c), \
	R(p, 14, s, b, t, g, c), R(p, 15, s, b, t, g, c)
#define REGS16_HI(p, s, b, t, g, c) \
	R(p, 16, s, b, t, g, c), R(p, 17, s, b, t, g, c), \
	R(p, 18, s, b, t, g, c), R(p, 19, s, b, t, g, c), \
	R(p, 20, s, b, t, g, c), R(p, 21, s, b, t, g, c), \
	R(p, 22, s, b, t, g, c), R(p, 23, s, b, t, g, c), \
	R(p, 24, s, b, t, g, c), R(p, 25, s, b, t, g, c), \
	R(p, 26, s, b, t, g, c), R(p, 27, s, b, t, g, c), \
	R(p, 28, s, b, t, g, c), R(p, 29, s, b, t, g, c), \
	R(p, 30, s, b, t, g, c), R(p, 31, s, b, t, g, c)

#define GPR(name, bits, type, i) { name, bits, type, NULL, tdesc_gpr, i }
#define X87(name, i) { name, 32, "int", "float", tdesc_x87ctl, i }

static const struct tdesc_reg core_regs[] = {
	GPR("rax", 64, "int64", 0), GPR("rbx", 64, "int64", 1),
	GPR("rcx", 64, "int64", 2), GPR("rdx", 64, "int64", 3),
	GPR("rsi", 64, "int64", 4), GPR("rdi", 64, "int64", 5),
	GPR("rbp", 64, "data_ptr", 6), GPR("rsp", 64, "data_ptr", 7),
	GPR("r8", 64, "int64", 8), GPR("r9", 64, "int64", 9),
	GPR("r10", 64, "int64", 10), GPR("r11", 64, "int64", 11),
	GPR("r12", 64, "int64", 12), GPR("r13", 64, "int64", 13),
	GPR("r14", 64, "int64", 14), GPR("r15", 64, "int64", 15),
	GPR("rip", 64, "code_ptr", 16), GPR("eflags", 32, "i386_eflags", 17),
	GPR("cs", 32, "int32", 18), GPR("ss", 32, "int32", 19),
	GPR("ds", 32, "int32", 20), GPR("es", 32, "int32", 21),
	GPR("fs", 32, "int32", 22), GPR("gs", 32, "int32", 23),
	REGS8("st", "", 80, "i387_ext", NULL, tdesc_st),
	X87("fctrl", tdesc_fctrl), X87("fstat", tdesc_fstat),
	X87("ftag", tdesc_ftag), X87("fiseg", tdesc_fiseg),
	X87("fioff", tdesc_fioff), X87("foseg", tdesc_foseg),
	X87("fooff", tdesc_fooff), X87("fop", tdesc_fop),
};

static const struct tdesc_reg sse_regs[] = {
	REGS16("xmm", "", 128, "vec128", NULL, tdesc_xmm),
	{ "mxcsr", 32, "i386_mxcsr", "vector", tdesc_mxcsr, 0 },
};

static const struct tdesc_reg linux_regs[] = {
	{ "orig_rax", 64, "int", NULL, tdesc_orig_rax, 0 },
};

static const struct tdesc_reg segments_regs[] = {
	{ "fs_base", 64, "int", NULL, tdesc_seg_base, 0 },
	{ "gs_base", 64, "int", NULL, tdesc_seg_base, 1 },
};

static const struct tdesc_reg avx_regs[] = {
	REGS16("ymm", "h", 128, "uint128", NULL, tdesc_ymmh),
};

static const struct tdesc_reg mpx_regs[] = {
	R("bnd", 0, "raw", 128, "br128", NULL, tdesc_bnd),
	R("bnd", 1, "raw", 128, "br128", NULL, tdesc_bnd),
	R("bnd", 2, "raw", 128, "br128", NULL, tdesc_bnd),
	R("bnd", 3, "raw", 128, "br128", NULL, tdesc_bnd),
	{ "bndcfgu", 64, "cfgu", NULL, tdesc_bndcsr, 0 },
	{ "bndstatus", 64, "status", NULL, tdesc_bndcsr, 1 },
};

static const struct tdesc_reg avx512_regs[] = {
	REGS16_HI("xmm", "", 128, "vec128", NULL, tdesc_xmm),
	REGS16_HI("ymm", "h", 128, "uint128", NULL, tdesc_ymmh),
	REGS8("k", "", 64, "uint64", NULL, tdesc_k),
	REGS16("zmm", "h", 256, "v2ui128", NULL, tdesc_zmmh),
	REGS16_HI("zmm", "h", 256, "v2ui128", NULL, tdesc_zmmh),
};

static const struct tdesc_reg pkeys_regs[] = {
	{ "pkru", 32, "uint32", NULL, tdesc_pkru, 0 },
};

#define FEATURE(name, xcr0, types, regs) \
	{ "org.gnu.gdb.i386." name, xcr0, types, ARRAY_SIZE(types), \
	  regs, ARRAY_SIZE(regs) }
#define FEATURE_NOTYPES(name, xcr0, regs) \
	{ "org.gnu.gdb.i386." name, xcr0, NULL, 0, regs, ARRAY_SIZE(regs) }

/* In the order GDB numbers them: the register numbers follow from it.  */
static const struct tdesc_feature features[] = {
	FEATURE("core", 0, core_types, core_regs),
	FEATURE("sse", 0, sse_types, sse_regs),
	FEATURE_NOTYPES("linux", 0, linux_regs),
	FEATURE_NOTYPES("segments", 0, segments_regs),
	FEATURE_NOTYPES("avx", tdesc_xcr0_avx, avx_regs),
	FEATURE("mpx", tdesc_xcr0_mpx, mpx_types, mpx_regs),
	FEATURE("avx512", tdesc_xcr0_avx512, avx512_types, avx512_regs),
	FEATURE_NOTYPES("pkeys", tdesc_xcr0_pkru, pkeys_regs),
};

static int feature_present(const struct tdesc_feature *f, uint64_t xcr0)
{
	return !f->xcr0_any || (xcr0 & f->xcr0_any);
}

unsigned tdesc_amd64_nregs(uint64_t xcr0)
{
	unsigned n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(features); i++)
		if (feature_present(&features[i], xcr0))
			n += features[i].nregs;
	return n;
}

const struct tdesc_reg *tdesc_amd64_reg(uint64_t xcr0, unsigned regno)
{
	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		const struct tdesc_feature *f = &features[i];

		if (!feature_present(f, xcr0))
			continue;
		if (regno < f->nregs)
			return &f->regs[regno];
		regno -= f->nregs;
	}
	return NULL;
}

int tdesc_amd64_regno(uint64_t xcr0, const char *name)
{
	int regno = 0;

	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		const struct tdesc_feature *f = &features[i];

		if (!feature_present(f, xcr0))
			continue;
		for (unsigned r = 0; r < f->nregs; r++, regno++)
			if (!strcmp(f->regs[r].name, name))
				return regno;
	}
	return -pse_notfound;
}

static int put_type(struct ps_buf *out, const struct tdesc_type *t)
{
	int err;

	if (!strcmp(t->kind, "vector"))
		return ps_buf_printf(out,
				     "    <vector id=\"%s\" type=\"%s\" count=\"%u\"/>\n",
				     t->id, t->element, t->count);

	err = ps_buf_printf(out, "    <%s id=\"%s\"", t->kind, t->id);
	if (!err && t->count)
		err = ps_buf_printf(out, " size=\"%u\"", t->count);
	if (!err)
		err = ps_buf_puts(out, ">\n");
	for (unsigned i = 0; !err && i < t->nfields; i++) {
		const struct tdesc_field *f = &t->fields[i];

		err = ps_buf_printf(out, "      <field name=\"%s\"", f->name);
		if (!err && f->start >= 0)
			err = ps_buf_printf(out, " start=\"%d\" end=\"%d\"",
					    f->start, f->end);
		if (!err)
			err = ps_buf_printf(out, " type=\"%s\"/>\n", f->type);
	}
	if (!err)
		err = ps_buf_printf(out, "    </%s>\n", t->kind);
	return err;
}

static int put_reg(struct ps_buf *out, const struct tdesc_reg *r,
		   unsigned regno)
{
	int err = ps_buf_printf(out,
				"    <reg name=\"%s\" bitsize=\"%u\" type=\"%s\" regnum=\"%u\"",
				r->name, r->bitsize, r->type, regno);

	if (!err && r->group)
		err = ps_buf_printf(out, " group=\"%s\"", r->group);
	if (!err)
		err = ps_buf_puts(out, "/>\n");
	return err;
}

int tdesc_amd64_xml(uint64_t xcr0, const char *annex, struct ps_buf *out)
{
	unsigned regno = 0;
	int err;

	if (!annex || strcmp(annex, "target.xml"))
		return -pse_notfound;

	err = ps_buf_puts(out, "<?xml version=\"1.0\"?>\n"
			  "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
			  "<target>\n"
			  "  <architecture>i386:x86-64</architecture>\n"
			  "  <osabi>GNU/Linux</osabi>\n");
	for (size_t i = 0; !err && i < ARRAY_SIZE(features); i++) {
		const struct tdesc_feature *f = &features[i];

		if (!feature_present(f, xcr0))
			continue;
		err = ps_buf_printf(out, "  <feature name=\"%s\">\n", f->name);
		for (unsigned t = 0; !err && t < f->ntypes; t++)
			err = put_type(out, &f->types[t]);
		for (unsigned r = 0; !err && r < f->nregs; r++)
			err = put_reg(out, &f->regs[r], regno++);
		if (!err)
			err = ps_buf_puts(out, "  </feature>\n");
	}
	if (!err)
		err = ps_buf_puts(out, "</target>\n");
	return err;
}
