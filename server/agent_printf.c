/* The agent's printf (see agent_printf.h): GDB's escapes, then each
   directive checked against GDB's own rules for printf formats and
   handed to the C library one at a time with an argument of the type
   it names, so no format from the wire reaches snprintf unchecked.  */
#include "server/agent_printf.h"
#include "common/ps_error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a directive takes, as GDB classes it.  */
enum ax_pf_class {
	ax_pf_int,
	ax_pf_long,
	ax_pf_long_long,
	ax_pf_size_t,
	ax_pf_string,
};

/* The longest directive kept: flags, width, precision and modifiers
   beyond this are no format GDB's users write.  */
#define AX_PF_SPEC_MAX 32

/* One piece formatted: snprintf's own output, bounded.  */
#define AX_PF_PIECE_MAX (1u << 20)

/* GDB's escapes, up to the NUL (or an unescaped '"', where GDB's own
   parser stops).  */
static int ax_pf_unescape(const char *format, char **out)
{
	size_t n = strlen(format);
	char *s = malloc(n + 1), *d = s;
	const char *p = format;

	if (!s)
		return -pse_nomem;
	while (*p && *p != '"') {
		char c = *p++;

		if (c == '\\') {
			switch (c = *p++) {
			case '\\': break;
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'e': c = '\033'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'v': c = '\v'; break;
			case '"': break;
			default:
				free(s);
				return -pse_invalid;
			}
		}
		*d++ = c;
	}
	*d = '\0';
	*out = s;
	return 0;
}

/* Parse the directive at *P (just past its '%', not "%%") into SPEC
   (NUL-terminated, '%' included) and its class; *P moves past it.  */
static int ax_pf_directive(const char **p, char *spec, enum ax_pf_class *cls)
{
	const char *start = *p - 1, *f = *p;
	bool hash = false, zero = false, space = false, plus = false;
	bool prec = false, h = false, big_l = false, z = false;
	unsigned lcount = 0;
	bool bad = false;
	size_t len;

	for (; *f && strchr("0-+ #", *f); f++) {
		hash |= *f == '#';
		zero |= *f == '0';
		space |= *f == ' ';
		plus |= *f == '+';
	}
	while (*f >= '0' && *f <= '9')
		f++;
	if (*f == '.') {
		prec = true;
		f++;
		while (*f >= '0' && *f <= '9')
			f++;
	}
	switch (*f) {
	case 'h': h = true; f++; break;
	case 'l':
		lcount++;
		if (*++f == 'l') {
			lcount++;
			f++;
		}
		break;
	case 'L': big_l = true; f++; break;
	case 'z': z = true; f++; break;
	/* Decimal floats and Windows' I64: nothing the agent prints.  */
	case 'H': case 'D': case 'I':
		return -pse_unsupported;
	}

	switch (*f) {
	case 'u': case 'o': case 'x': case 'X': case 'd': case 'i':
		if (*f == 'u' && hash)
			bad = true;
		if (strchr("uoxX", *f) && (space || plus))
			bad = true;
		if (big_l)
			bad = true;
		*cls = z ? ax_pf_size_t : lcount == 0 ? ax_pf_int :
		       lcount == 1 ? ax_pf_long : ax_pf_long_long;
		break;
	case 'c':
		if (lcount > 1 || h || big_l || z || prec || zero || space ||
		    plus)
			bad = true;
		else if (lcount)
			return -pse_unsupported;
		*cls = ax_pf_int;
		break;
	case 's':
		if (lcount > 1 || h || big_l || z || zero || space || plus)
			bad = true;
		else if (lcount)
			return -pse_unsupported;
		*cls = ax_pf_string;
		break;
	/* GDB accepts these; gdbserver's agent refuses them.  */
	case 'p': case 'e': case 'f': case 'g': case 'E': case 'G':
		return -pse_unsupported;
	default:
		/* '*', 'n', the end of the string, or no conversion.  */
		return -pse_invalid;
	}
	if (bad)
		return -pse_invalid;
	f++;
	len = (size_t) (f - start);
	if (len >= AX_PF_SPEC_MAX)
		return -pse_invalid;
	memcpy(spec, start, len);
	spec[len] = '\0';
	*p = f;
	return 0;
}

/* The NUL-terminated string at ADDR, read a page at most at a time so
   that a string ending just before unmapped memory reads.  */
static int ax_pf_read_string(const struct ax_context *ctx, uint64_t addr,
			     struct ps_buf *str)
{
	if (!ctx->read_mem)
		return -pse_unsupported;
	for (;;) {
		char chunk[256];
		size_t want = sizeof(chunk), page = 4096 - (addr & 4095);
		long got;
		char *nul;
		int err;

		if (want > page)
			want = page;
		got = ctx->read_mem(ctx->data, addr, chunk, want);
		if (got <= 0)
			return -pse_fault;
		nul = memchr(chunk, '\0', (size_t) got);
		err = ps_buf_append(str, chunk,
				    nul ? (size_t) (nul - chunk) : (size_t) got);
		if (err < 0)
			return err;
		if (nul)
			return 0;
		if (str->len > AX_PRINTF_STRING_MAX)
			return -pse_toolong;
		addr += (uint64_t) got;
	}
}

/* Append what SPEC prints with its argument V.  */
static int ax_pf_piece(const struct ax_context *ctx, const char *spec,
		       enum ax_pf_class cls, uint64_t v, struct ps_buf *out)
{
	struct ps_buf str;
	const char *text = "(null)";
	int n, err = 0;

	ps_buf_init(&str);
	if (cls == ax_pf_string && v) {
		err = ax_pf_read_string(ctx, v, &str);
		if (err < 0)
			goto done;
		text = str.data ? str.data : "";
	}
	/* Twice: once for the length, once into the buffer.  */
	for (int pass = 0; pass < 2; pass++) {
		char *dst = pass ? out->data + out->len : NULL;
		size_t cap = pass ? (size_t) n + 1 : 0;

		switch (cls) {
		case ax_pf_int: n = snprintf(dst, cap, spec, (int) v); break;
		case ax_pf_long: n = snprintf(dst, cap, spec, (long) v); break;
		case ax_pf_long_long:
			n = snprintf(dst, cap, spec, (long long) v);
			break;
		case ax_pf_size_t:
			n = snprintf(dst, cap, spec, (size_t) v);
			break;
		default: n = snprintf(dst, cap, spec, text); break;
		}
		if (n < 0) {
			err = -pse_invalid;
			goto done;
		}
		if ((unsigned) n > AX_PF_PIECE_MAX) {
			err = -pse_toolong;
			goto done;
		}
		if (!pass) {
			err = ps_buf_reserve(out, (size_t) n);
			if (err < 0)
				goto done;
		}
	}
	out->len += (size_t) n;
done:
	ps_buf_fini(&str);
	return err;
}

/* Walk S: count the directives (OUT NULL), or format them.  */
static int ax_pf_walk(const char *s, const uint64_t *args, size_t nargs,
		      const struct ax_context *ctx, struct ps_buf *out,
		      size_t *count)
{
	const char *p = s;
	size_t i = 0;
	int err;

	while (*p) {
		char spec[AX_PF_SPEC_MAX];
		enum ax_pf_class cls;
		const char *pct = strchr(p, '%');
		size_t lit = pct ? (size_t) (pct - p) : strlen(p);

		if (out && lit && (err = ps_buf_append(out, p, lit)) < 0)
			return err;
		if (!pct)
			break;
		p = pct + 1;
		if (*p == '%') {
			if (out && (err = ps_buf_putc(out, '%')) < 0)
				return err;
			p++;
			continue;
		}
		err = ax_pf_directive(&p, spec, &cls);
		if (err < 0)
			return err;
		if (out) {
			if (i >= nargs)
				return -pse_invalid;
			err = ax_pf_piece(ctx, spec, cls, args[i], out);
			if (err < 0)
				return err;
		}
		i++;
	}
	*count = i;
	return 0;
}

int ax_printf_format(const char *format, const uint64_t *args, size_t nargs,
		     const struct ax_context *ctx, struct ps_buf *out)
{
	struct ps_buf text;
	size_t count = 0;
	char *s;
	int err;

	if (!format || !ctx || !out || (nargs && !args))
		return -pse_invalid;
	err = ax_pf_unescape(format, &s);
	if (err < 0)
		return err;
	/* Check the whole format first, as gdbserver does: nothing is
	   printed from a format with the wrong number of arguments.  */
	err = ax_pf_walk(s, args, nargs, ctx, NULL, &count);
	if (err == 0 && count != nargs)
		err = -pse_invalid;
	ps_buf_init(&text);
	if (err == 0)
		err = ax_pf_walk(s, args, nargs, ctx, &text, &count);
	if (err == 0 && text.len)
		err = ps_buf_append(out, text.data, text.len);
	ps_buf_fini(&text);
	free(s);
	return err;
}
