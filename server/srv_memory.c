/* m, M, X: memory of the process Hg selects, planted int3s hidden.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "server/rsp_escape.h"

#include <stdlib.h>

/* The most one m reply can carry: two hex digits a byte.  */
#define SRV_MAX_READ (SRV_PACKET_SIZE / 2)

static int srv_read_memory(struct srv *srv, struct nat_process *proc,
			   uint64_t addr, uint64_t len)
{
	uint8_t *buf;
	long n;

	if (len > SRV_MAX_READ)
		len = SRV_MAX_READ;
	if (!len)
		return srv_reply;
	buf = malloc(len);
	if (!buf)
		return -pse_nomem;
	n = nat_read_memory(proc, addr, buf, len);
	if (n > 0)
		ps_buf_put_hex(&srv->reply, buf, (size_t) n);
	free(buf);
	/* A partial read is a shorter reply; none at all is an error, and
	   for m it must be "Enn": GDB hex-decodes anything else.  */
	if (n <= 0)
		ps_buf_puts(&srv->reply, "E01");
	return srv_reply;
}

int srv_handle_memory(struct srv *srv, const char *pkt, size_t len)
{
	struct nat_process *proc = srv_general_process(srv);
	const char *p = pkt + 1, *end = pkt + len;
	uint64_t addr, count;
	uint8_t *buf;
	long n;
	int err;

	if (pkt[0] == 'm') {
		if (rsp_parse_addr_len(&p, end, &addr, &count) < 0 ||
		    p != end || !proc) {
			ps_buf_puts(&srv->reply, "E01");
			return srv_reply;
		}
		return srv_read_memory(srv, proc, addr, count);
	}
	if (rsp_parse_addr_len(&p, end, &addr, &count) < 0)
		return -pse_invalid;
	if (!proc)
		return srv_error_text(srv, "No process.");

	if (rsp_expect(&p, end, ':') < 0 || count > RSP_MAX_PAYLOAD)
		return -pse_invalid;
	/* X's data may unescape to more than COUNT bytes: room for all of
	   it, then the length check refuses the packet.  */
	buf = malloc((size_t) (end - p) > count ? (size_t) (end - p) + 1
						: count + 1);
	if (!buf)
		return -pse_nomem;
	if (pkt[0] == 'M') {
		if ((uint64_t) (end - p) != 2 * count ||
		    ps_hex_decode(buf, p, count) < 0) {
			free(buf);
			return -pse_invalid;
		}
		n = (long) count;
	} else {
		n = rsp_unescape(buf, p, (size_t) (end - p));
		if (n < 0 || (uint64_t) n != count) {
			free(buf);
			return -pse_invalid;
		}
	}
	err = count ? nat_write_memory(proc, addr, buf, count) : 0;
	free(buf);
	if (err < 0)
		return srv_error_text(srv, "Cannot access memory.");
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}
