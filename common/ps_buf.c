#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ps_buf_init(struct ps_buf *buf)
{
	buf->data = NULL;
	buf->len = 0;
	buf->cap = 0;
}

void ps_buf_fini(struct ps_buf *buf)
{
	free(buf->data);
	ps_buf_init(buf);
}

void ps_buf_reset(struct ps_buf *buf)
{
	buf->len = 0;
	if (buf->data)
		buf->data[0] = '\0';
}

int ps_buf_reserve(struct ps_buf *buf, size_t len)
{
	size_t need, cap;
	char *data;

	if (len > SIZE_MAX / 2 - buf->len)
		return -pse_nomem;
	need = buf->len + len + 1;
	if (need <= buf->cap)
		return 0;

	cap = buf->cap ? buf->cap : 256;
	while (cap < need)
		cap *= 2;
	data = realloc(buf->data, cap);
	if (!data)
		return -pse_nomem;
	buf->data = data;
	buf->cap = cap;
	return 0;
}

int ps_buf_append(struct ps_buf *buf, const void *data, size_t len)
{
	int err = ps_buf_reserve(buf, len);

	if (err < 0)
		return err;
	if (len)
		memcpy(buf->data + buf->len, data, len);
	buf->len += len;
	buf->data[buf->len] = '\0';
	return 0;
}

int ps_buf_putc(struct ps_buf *buf, char c)
{
	return ps_buf_append(buf, &c, 1);
}

int ps_buf_puts(struct ps_buf *buf, const char *str)
{
	return ps_buf_append(buf, str, strlen(str));
}

int ps_buf_printf(struct ps_buf *buf, const char *fmt, ...)
{
	va_list ap;
	int len, err;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -pse_invalid;

	err = ps_buf_reserve(buf, (size_t) len);
	if (err < 0)
		return err;

	va_start(ap, fmt);
	vsnprintf(buf->data + buf->len, (size_t) len + 1, fmt, ap);
	va_end(ap);
	buf->len += (size_t) len;
	return 0;
}

int ps_buf_put_hex(struct ps_buf *buf, const void *data, size_t len)
{
	int err;

	if (len > SIZE_MAX / 4)
		return -pse_nomem;
	err = ps_buf_reserve(buf, 2 * len);
	if (err < 0)
		return err;
	ps_hex_encode(buf->data + buf->len, data, len);
	buf->len += 2 * len;
	buf->data[buf->len] = '\0';
	return 0;
}

int ps_buf_put_xml(struct ps_buf *buf, const char *text)
{
	int err = 0;

	for (; *text && !err; text++) {
		switch (*text) {
		case '<': err = ps_buf_puts(buf, "&lt;"); break;
		case '>': err = ps_buf_puts(buf, "&gt;"); break;
		case '&': err = ps_buf_puts(buf, "&amp;"); break;
		case '"': err = ps_buf_puts(buf, "&quot;"); break;
		case '\'': err = ps_buf_puts(buf, "&apos;"); break;
		default: err = ps_buf_putc(buf, *text); break;
		}
	}
	return err;
}
