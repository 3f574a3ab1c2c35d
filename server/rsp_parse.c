#include "server/rsp_parse.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <string.h>

enum { rsp_id_max = 0x7fffffff };

/* One id field: hex, or the literal "-1".  Anything else after "-1"
   that could continue a number is rejected rather than left behind.  */
static int parse_id(const char **p, const char *end, long *out)
{
	const char *q = *p;
	uint64_t v;
	int err;

	if (q < end && *q == '-') {
		if (end - q < 2 || q[1] != '1')
			return -pse_invalid;
		q += 2;
		if (q < end && ps_hex_digit((unsigned char) *q) >= 0)
			return -pse_invalid;
		*out = -1;
		*p = q;
		return 0;
	}
	err = ps_hex_parse_u64(&q, end, &v);
	if (err < 0)
		return err;
	if (v > rsp_id_max)
		return -pse_range;
	*out = (long) v;
	*p = q;
	return 0;
}

int rsp_parse_ptid(const char **p, const char *end, struct rsp_ptid *out)
{
	const char *q = *p;
	struct rsp_ptid id;
	int err;

	if (q < end && *q == 'p') {
		q++;
		err = parse_id(&q, end, &id.pid);
		if (err < 0)
			return err;
		id.tid = -1;
		if (q < end && *q == '.') {
			q++;
			err = parse_id(&q, end, &id.tid);
			if (err < 0)
				return err;
		}
		if (id.pid == -1 && id.tid > 0)
			return -pse_invalid;
	} else {
		err = parse_id(&q, end, &id.tid);
		if (err < 0)
			return err;
		id.pid = id.tid == -1 ? -1 : 0;
	}
	*out = id;
	*p = q;
	return 0;
}

static int format_id(struct ps_buf *buf, long id)
{
	if (id < 0)
		return ps_buf_printf(buf, "-%lx", -id);
	return ps_buf_printf(buf, "%lx", id);
}

int rsp_format_ptid(struct ps_buf *buf, struct rsp_ptid ptid,
		    int multiprocess)
{
	int err;

	if (multiprocess) {
		err = ps_buf_putc(buf, 'p');
		if (!err)
			err = format_id(buf, ptid.pid);
		if (!err)
			err = ps_buf_putc(buf, '.');
		if (err < 0)
			return err;
	}
	return format_id(buf, ptid.tid);
}

int rsp_parse_addr_len(const char **p, const char *end, uint64_t *addr,
		       uint64_t *len)
{
	const char *q = *p;
	uint64_t a, l;
	int err;

	err = ps_hex_parse_u64(&q, end, &a);
	if (!err)
		err = rsp_expect(&q, end, ',');
	if (!err)
		err = ps_hex_parse_u64(&q, end, &l);
	if (err < 0)
		return err;
	if (l && a + (l - 1) < a)
		return -pse_range;
	*addr = a;
	*len = l;
	*p = q;
	return 0;
}

int rsp_expect(const char **p, const char *end, char c)
{
	if (*p >= end || **p != c)
		return -pse_invalid;
	(*p)++;
	return 0;
}

int rsp_expect_end(const char *p, const char *end)
{
	return p == end ? 0 : -pse_invalid;
}

int rsp_next_field(const char **p, const char *end, char sep,
		   const char **field, size_t *len)
{
	const char *q = *p;
	const char *stop;

	if (q >= end)
		return 0;
	stop = memchr(q, sep, (size_t) (end - q));
	*field = q;
	if (!stop) {
		*len = (size_t) (end - q);
		*p = end;
	} else {
		*len = (size_t) (stop - q);
		*p = stop + 1;
	}
	return 1;
}

int rsp_next_feature(const char **p, const char *end, struct rsp_feature *f)
{
	const char *q = *p, *item, *eq;
	size_t len;
	struct rsp_feature out = { 0 };

	do {
		if (!rsp_next_field(&q, end, ';', &item, &len))
			return 0;
	} while (!len);

	eq = memchr(item, '=', len);
	out.name = item;
	if (eq) {
		out.name_len = (size_t) (eq - item);
		out.kind = '=';
		out.value = eq + 1;
		out.value_len = len - out.name_len - 1;
	} else {
		char last = item[len - 1];

		out.name_len = len;
		if (last == '+' || last == '-' || last == '?') {
			out.kind = last;
			out.name_len--;
		}
	}
	if (!out.name_len)
		return -pse_invalid;
	*f = out;
	*p = q;
	return 1;
}

int rsp_feature_is(const struct rsp_feature *f, const char *name)
{
	size_t n = strlen(name);

	return f->name_len == n && memcmp(f->name, name, n) == 0;
}

long rsp_parse_hex_string(const char **p, const char *end,
			  struct ps_buf *out)
{
	const char *q = *p;
	size_t digits = 0;
	int err;

	while (q + digits < end && ps_hex_digit((unsigned char) q[digits]) >= 0)
		digits++;
	if (digits % 2)
		return -pse_badhex;

	err = ps_buf_reserve(out, digits / 2);
	if (err < 0)
		return err;
	/* Cannot fail: every digit was checked above.  */
	ps_hex_decode(out->data + out->len, q, digits / 2);
	out->len += digits / 2;
	out->data[out->len] = '\0';
	*p = q + digits;
	return (long) (digits / 2);
}
