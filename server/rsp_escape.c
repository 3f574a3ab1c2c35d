#include "server/rsp_escape.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <stdint.h>

enum { rsp_escape_char = '}', rsp_escape_xor = 0x20 };

int rsp_needs_escape(unsigned char c)
{
	return c == '$' || c == '#' || c == '}' || c == '*';
}

size_t rsp_escape(struct ps_buf *out, const void *data, size_t len,
		  size_t max_out)
{
	const uint8_t *in = data;
	size_t used = 0, taken = 0;
	size_t worst = len <= max_out / 2 ? 2 * len : max_out;
	char *dst;

	/* Reserve the worst case once so the loop below cannot fail.  */
	if (ps_buf_reserve(out, worst) < 0)
		return 0;
	dst = out->data + out->len;
	for (; taken < len; taken++) {
		uint8_t c = in[taken];

		if (rsp_needs_escape(c)) {
			if (max_out - used < 2)
				break;
			dst[used++] = rsp_escape_char;
			dst[used++] = (char) (c ^ rsp_escape_xor);
		} else {
			if (max_out - used < 1)
				break;
			dst[used++] = (char) c;
		}
	}
	out->len += used;
	out->data[out->len] = '\0';
	return taken;
}

long rsp_unescape(void *out, const char *in, size_t len)
{
	uint8_t *dst = out;
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		uint8_t c = (uint8_t) in[i];

		if (c == rsp_escape_char) {
			if (++i == len)
				return -pse_invalid;
			c = (uint8_t) in[i] ^ rsp_escape_xor;
		}
		dst[n++] = c;
	}
	return (long) n;
}
