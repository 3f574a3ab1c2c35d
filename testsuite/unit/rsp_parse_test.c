#include "server/rsp_parse.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>

static int parse(const char *text, struct rsp_ptid *id, size_t *used)
{
	const char *p = text;
	int err = rsp_parse_ptid(&p, text + strlen(text), id);

	*used = (size_t) (p - text);
	return err;
}

struct ptid_case {
	const char *text;
	long pid, tid;
	size_t used;
};

Test(rsp_parse, ptid_forms)
{
	static const struct ptid_case cases[] = {
		{ "p1a2b.1a2c", 0x1a2b, 0x1a2c, 10 },
		{ "p1a2b", 0x1a2b, -1, 5 },
		{ "p-1", -1, -1, 3 },
		{ "p-1.-1", -1, -1, 6 },
		{ "p-1.0", -1, 0, 5 },
		{ "p7.-1", 7, -1, 5 },
		{ "p0.0", 0, 0, 4 },
		{ "p0.5", 0, 5, 4 },
		{ "1f", 0, 0x1f, 2 },
		{ "-1", -1, -1, 2 },
		{ "0", 0, 0, 1 },
		{ "7fffffff", 0, 0x7fffffff, 8 },
		{ "pA.B;c", 0xa, 0xb, 4 },
		{ "12:rest", 0, 0x12, 2 },
		{ "p5;", 5, -1, 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rsp_ptid id = { 99, 99 };
		size_t used;

		cr_assert_eq(parse(cases[i].text, &id, &used), 0, "%s",
			     cases[i].text);
		cr_assert_eq(id.pid, cases[i].pid, "%s", cases[i].text);
		cr_assert_eq(id.tid, cases[i].tid, "%s", cases[i].text);
		cr_assert_eq(used, cases[i].used, "%s", cases[i].text);
	}
}

Test(rsp_parse, ptid_malformed)
{
	static const struct { const char *text; int err; } cases[] = {
		{ "", -pse_badhex }, { "p", -pse_badhex }, { "p.5", -pse_badhex },
		{ "p5.", -pse_badhex }, { "x", -pse_badhex },
		{ "-", -pse_invalid }, { "-2", -pse_invalid },
		{ "-10", -pse_invalid }, { "p-1.5", -pse_invalid },
		{ "p-", -pse_invalid }, { "80000000", -pse_range },
		{ "p1.ffffffffffffffff", -pse_range },
		{ "p10000000000000000.1", -pse_range },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rsp_ptid id = { 99, 98 };
		size_t used;

		cr_assert_eq(parse(cases[i].text, &id, &used), cases[i].err,
			     "'%s'", cases[i].text);
		cr_assert_eq(used, 0, "%s", cases[i].text);
		cr_assert_eq(id.pid, 99);
		cr_assert_eq(id.tid, 98);
	}
}

/* END bounds the parse even when the text goes on.  */
Test(rsp_parse, ptid_respects_end)
{
	const char *t = "p12.34", *p = t;
	struct rsp_ptid id;

	cr_assert_eq(rsp_parse_ptid(&p, t + 4, &id), -pse_badhex);
	cr_assert_eq(rsp_parse_ptid(&p, t + 3, &id), 0);
	cr_assert_eq(id.pid, 0x12);
	cr_assert_eq(id.tid, -1);
	p = t + 3;
	cr_assert_eq(rsp_parse_ptid(&p, t + 3, &id), -pse_badhex);
	p = "-1";
	cr_assert_eq(rsp_parse_ptid(&p, p + 1, &id), -pse_invalid);
}

Test(rsp_parse, ptid_format_round_trip)
{
	static const struct rsp_ptid ids[] = {
		{ 0x1a2b, 0x1a2c }, { -1, -1 }, { 5, -1 }, { 0, 0 },
		{ 0x7fffffff, 1 },
	};
	struct ps_buf b;

	ps_buf_init(&b);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct rsp_ptid back;
		const char *p;

		ps_buf_reset(&b);
		cr_assert_eq(rsp_format_ptid(&b, ids[i], 1), 0);
		p = b.data;
		cr_assert_eq(rsp_parse_ptid(&p, b.data + b.len, &back), 0,
			     "%s", b.data);
		cr_assert_eq(p, b.data + b.len);
		cr_assert_eq(back.pid, ids[i].pid, "%s", b.data);
		cr_assert_eq(back.tid, ids[i].tid, "%s", b.data);
	}
	ps_buf_reset(&b);
	rsp_format_ptid(&b, (struct rsp_ptid) { 0x1a2b, 0x1a2c }, 1);
	cr_assert_str_eq(b.data, "p1a2b.1a2c");
	ps_buf_reset(&b);
	rsp_format_ptid(&b, (struct rsp_ptid) { -1, -1 }, 1);
	cr_assert_str_eq(b.data, "p-1.-1");
	ps_buf_reset(&b);
	rsp_format_ptid(&b, (struct rsp_ptid) { 0x1a2b, 0x1a2c }, 0);
	cr_assert_str_eq(b.data, "1a2c");
	ps_buf_reset(&b);
	rsp_format_ptid(&b, (struct rsp_ptid) { 3, -1 }, 0);
	cr_assert_str_eq(b.data, "-1");
	ps_buf_fini(&b);
}

Test(rsp_parse, addr_len)
{
	const char *t = "7ffff7dd0000,40:rest", *p = t;
	uint64_t a = 1, l = 1;

	cr_assert_eq(rsp_parse_addr_len(&p, t + strlen(t), &a, &l), 0);
	cr_assert_eq(a, 0x7ffff7dd0000);
	cr_assert_eq(l, 0x40);
	cr_assert_eq(*p, ':');

	t = "ffffffffffffffff,1";
	p = t;
	cr_assert_eq(rsp_parse_addr_len(&p, t + strlen(t), &a, &l), 0);
	cr_assert_eq(a, UINT64_MAX);
	cr_assert_eq(l, 1);
	t = "1,ffffffffffffffff";
	p = t;
	cr_assert_eq(rsp_parse_addr_len(&p, t + strlen(t), &a, &l), 0);
	cr_assert_eq(l, UINT64_MAX);
	t = "0,0";
	p = t;
	cr_assert_eq(rsp_parse_addr_len(&p, t + 3, &a, &l), 0);
	cr_assert_eq(l, 0);
}

Test(rsp_parse, addr_len_malformed)
{
	static const struct { const char *text; int err; } cases[] = {
		{ "", -pse_badhex }, { ",4", -pse_badhex },
		{ "1000", -pse_invalid }, { "1000;4", -pse_invalid },
		{ "1000,", -pse_badhex }, { "1000,x", -pse_badhex },
		{ "ffffffffffffffff,2", -pse_range },
		{ "2,ffffffffffffffff", -pse_range },
		{ "10000000000000000,1", -pse_range },
		{ "1,10000000000000000", -pse_range },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *p = cases[i].text;
		uint64_t a = 5, l = 6;

		cr_assert_eq(rsp_parse_addr_len(&p, p + strlen(p), &a, &l),
			     cases[i].err, "'%s'", cases[i].text);
		cr_assert_eq(p, cases[i].text);
		cr_assert_eq(a, 5);
		cr_assert_eq(l, 6);
	}
}

Test(rsp_parse, expect)
{
	const char *t = ",x", *p = t;

	cr_assert_eq(rsp_expect(&p, t + 2, ';'), -pse_invalid);
	cr_assert_eq(p, t);
	cr_assert_eq(rsp_expect(&p, t + 2, ','), 0);
	cr_assert_eq(p, t + 1);
	cr_assert_eq(rsp_expect(&p, t + 1, 'x'), -pse_invalid);
	cr_assert_eq(rsp_expect_end(p, t + 2), -pse_invalid);
	cr_assert_eq(rsp_expect_end(p, t + 1), 0);
}

Test(rsp_parse, fields)
{
	const char *t = "vRun;;6172;x", *p = t + 5, *end = t + strlen(t);
	const char *f;
	size_t len;

	cr_assert_eq(rsp_next_field(&p, end, ';', &f, &len), 1);
	cr_assert_eq(len, 0);
	cr_assert_eq(rsp_next_field(&p, end, ';', &f, &len), 1);
	cr_assert_eq(len, 4);
	cr_assert(!memcmp(f, "6172", 4));
	cr_assert_eq(rsp_next_field(&p, end, ';', &f, &len), 1);
	cr_assert_eq(len, 1);
	cr_assert_eq(*f, 'x');
	cr_assert_eq(rsp_next_field(&p, end, ';', &f, &len), 0);

	t = "a;";
	p = t;
	cr_assert_eq(rsp_next_field(&p, t + 2, ';', &f, &len), 1);
	cr_assert_eq(len, 1);
	cr_assert_eq(rsp_next_field(&p, t + 2, ';', &f, &len), 0);
}

Test(rsp_parse, features)
{
	const char *t = "multiprocess+;swbreak-;;xmlRegisters=i386;vContSupported?;bare;e=";
	const char *p = t, *end = t + strlen(t);
	struct rsp_feature f;

	cr_assert_eq(rsp_next_feature(&p, end, &f), 1);
	cr_assert(rsp_feature_is(&f, "multiprocess"));
	cr_assert(!rsp_feature_is(&f, "multi"));
	cr_assert_eq(f.kind, '+');
	cr_assert_null(f.value);
	cr_assert_eq(rsp_next_feature(&p, end, &f), 1);
	cr_assert(rsp_feature_is(&f, "swbreak"));
	cr_assert_eq(f.kind, '-');
	cr_assert_eq(rsp_next_feature(&p, end, &f), 1);
	cr_assert(rsp_feature_is(&f, "xmlRegisters"));
	cr_assert_eq(f.kind, '=');
	cr_assert_eq(f.value_len, 4);
	cr_assert(!memcmp(f.value, "i386", 4));
	cr_assert_eq(rsp_next_feature(&p, end, &f), 1);
	cr_assert(rsp_feature_is(&f, "vContSupported"));
	cr_assert_eq(f.kind, '?');
	cr_assert_eq(rsp_next_feature(&p, end, &f), 1);
	cr_assert(rsp_feature_is(&f, "bare"));
	cr_assert_eq(f.kind, 0);
	cr_assert_eq(rsp_next_feature(&p, end, &f), 1);
	cr_assert(rsp_feature_is(&f, "e"));
	cr_assert_eq(f.kind, '=');
	cr_assert_eq(f.value_len, 0);
	cr_assert_eq(rsp_next_feature(&p, end, &f), 0);
	cr_assert_eq(p, end);
}

Test(rsp_parse, features_malformed)
{
	static const char *bad[] = { "+", "=x", "ok+;-", "?" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *p = bad[i], *end = p + strlen(p);
		struct rsp_feature f;
		int r;

		while ((r = rsp_next_feature(&p, end, &f)) == 1)
			;
		cr_assert_eq(r, -pse_invalid, "%s", bad[i]);
	}
}

Test(rsp_parse, hex_string)
{
	const char *t = "68656c6C6f;00ff", *p = t, *end = t + strlen(t);
	struct ps_buf b;

	ps_buf_init(&b);
	ps_buf_puts(&b, ">");
	cr_assert_eq(rsp_parse_hex_string(&p, end, &b), 5);
	cr_assert_str_eq(b.data, ">hello");
	cr_assert_eq(*p, ';');
	p++;
	cr_assert_eq(rsp_parse_hex_string(&p, end, &b), 2);
	cr_assert_eq(b.len, 8);
	cr_assert_eq((unsigned char) b.data[6], 0);
	cr_assert_eq((unsigned char) b.data[7], 0xff);
	cr_assert_eq(p, end);
	cr_assert_eq(rsp_parse_hex_string(&p, end, &b), 0);
	ps_buf_fini(&b);
}

Test(rsp_parse, hex_string_odd)
{
	const char *t = "616;", *p = t;
	struct ps_buf b;

	ps_buf_init(&b);
	ps_buf_puts(&b, "keep");
	cr_assert_eq(rsp_parse_hex_string(&p, t + 4, &b), -pse_badhex);
	cr_assert_eq(p, t);
	cr_assert_str_eq(b.data, "keep");
	/* END cuts the digits: "61" then a lone '6' is odd.  */
	cr_assert_eq(rsp_parse_hex_string(&p, t + 3, &b), -pse_badhex);
	cr_assert_eq(rsp_parse_hex_string(&p, t + 2, &b), 1);
	cr_assert_str_eq(b.data, "keepa");
	ps_buf_fini(&b);
}
