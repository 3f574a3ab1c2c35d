/* g, G, p, P: registers of the thread Hg selects.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "nat/amd64_regs.h"

#include <string.h>

int srv_handle_regs(struct srv *srv, const char *pkt, size_t len)
{
	struct nat_thread *thread = srv_general_thread(srv);
	const char *p = pkt + 1, *end = pkt + len;
	struct amd64_regs *regs;
	uint8_t value[64];
	uint64_t regno;
	int err, n;

	if (!thread)
		return srv_error_text(srv, "No such thread.");
	err = nat_thread_regs(thread, &regs);
	if (err < 0)
		return err;

	switch (pkt[0]) {
	case 'g':
		return amd64_regs_g_packet(regs, &srv->reply) < 0 ?
			-pse_internal : srv_reply;
	case 'G':
		err = amd64_regs_G_packet(regs, p, (size_t) (end - p));
		break;
	case 'p':
		if (ps_hex_parse_u64(&p, end, &regno) < 0 || p != end)
			return -pse_invalid;
		if (regno > 0xffff)
			return -pse_range;
		n = amd64_regs_read(regs, (unsigned) regno, value, sizeof(value));
		if (n < 0)
			return n;
		ps_buf_put_hex(&srv->reply, value, (size_t) n);
		return srv_reply;
	case 'P': {
		size_t digits;

		if (ps_hex_parse_u64(&p, end, &regno) < 0 ||
		    rsp_expect(&p, end, '=') < 0)
			return -pse_invalid;
		if (regno > 0xffff)
			return -pse_range;
		digits = (size_t) (end - p);
		if (digits % 2 || digits / 2 > sizeof(value))
			return -pse_invalid;
		if (ps_hex_decode(value, p, digits / 2) < 0)
			return -pse_badhex;
		err = amd64_regs_write(regs, (unsigned) regno, value, digits / 2);
		break;
	}
	default:
		return srv_reply;
	}
	if (err < 0)
		return err;
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}
