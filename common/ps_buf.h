/* A growable byte buffer, always NUL-terminated after its data so that
   text built in it can be passed to string functions.  */
#ifndef PS_BUF_H
#define PS_BUF_H

#include <stddef.h>
#include <stdint.h>

struct ps_buf {
	char *data;
	size_t len;
	size_t cap;
};

void ps_buf_init(struct ps_buf *buf);
void ps_buf_fini(struct ps_buf *buf);

/* Empty BUF, keeping its storage.  */
void ps_buf_reset(struct ps_buf *buf);

/* Make room for LEN more bytes (plus the terminating NUL).  */
int ps_buf_reserve(struct ps_buf *buf, size_t len);

int ps_buf_append(struct ps_buf *buf, const void *data, size_t len);
int ps_buf_putc(struct ps_buf *buf, char c);
int ps_buf_puts(struct ps_buf *buf, const char *str);
int ps_buf_printf(struct ps_buf *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append LEN bytes of DATA as lowercase hex digits.  */
int ps_buf_put_hex(struct ps_buf *buf, const void *data, size_t len);

/* Append TEXT with XML's special characters escaped.  */
int ps_buf_put_xml(struct ps_buf *buf, const char *text);

#endif
