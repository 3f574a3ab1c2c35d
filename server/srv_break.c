/* Z and z: software breakpoints planted by the stub (Z0), and the debug
   registers for hardware breakpoints and watchpoints (Z1-Z4).  */
#include "server/server.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

int srv_handle_break(struct srv *srv, const char *pkt, size_t len)
{
	static const enum nat_dr_kind kinds[] = {
		0, nat_dr_exec, nat_dr_write, nat_dr_read, nat_dr_access,
	};
	struct nat_process *proc = srv_general_process(srv);
	const char *p = pkt + 1, *end = pkt + len;
	int insert = pkt[0] == 'Z';
	uint64_t type, addr, kind;
	int err;

	if (ps_hex_parse_u64(&p, end, &type) < 0 || rsp_expect(&p, end, ',') < 0 ||
	    ps_hex_parse_u64(&p, end, &addr) < 0 || rsp_expect(&p, end, ',') < 0 ||
	    ps_hex_parse_u64(&p, end, &kind) < 0)
		return -pse_invalid;
	if (type > 4)
		return srv_reply;
	if (!proc)
		return srv_error_text(srv, "No process.");
	/* Every Z0/Z1 replaces the conditions of its address (none clears
	   them); a malformed one changes nothing.  */
	if (type <= 1) {
		struct ax_cond_list *conds = type ? &srv->conds_hw : &srv->conds_sw;

		if (insert)
			err = ax_conds_parse_z(conds, addr, p, end);
		else
			err = p == end ? (ax_conds_clear(conds, addr), 0)
				       : -pse_invalid;
		if (err < 0)
			return -pse_invalid;
	} else if (p != end && *p != ';') {
		return -pse_invalid;
	}

	/* x86 has one breakpoint instruction: gdbserver plants int3 for
	   any kind, and so does this.  */
	if (type == 0) {
		err = insert ? nat_insert_breakpoint(proc, addr)
			     : nat_remove_breakpoint(proc, addr);
	} else if (insert) {
		err = nat_insert_hw_point(proc, kinds[type], addr, kind);
	} else {
		err = nat_remove_hw_point(proc, kinds[type], addr, kind);
	}
	/* Read watchpoints: x86 has none; the empty reply makes GDB use an
	   access watchpoint instead, as with gdbserver.  */
	if (err == -pse_unsupported)
		return srv_reply;
	/* Removing what is not there is an error, as with gdbserver.  */
	if (err == -pse_notfound && !insert)
		return srv_error_text(srv, "No such breakpoint or watchpoint.");
	if (err < 0)
		return err == -pse_fault ?
			srv_error_text(srv, "Cannot access memory.") : err;
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}
