/* qSupported, QStartNoAckMode and the small general queries.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "common/ps_crc32.h"
#include "common/ps_hex.h"

#include <string.h>

/* What ptstub does, and only that: GDB plans around these.  */
static const char srv_features[] =
	";QPassSignals+;QProgramSignals+;QStartupWithShell+"
	";QEnvironmentHexEncoded+;QEnvironmentReset+;QEnvironmentUnset+"
	";QSetWorkingDir+;qXfer:libraries-svr4:read+"
	";qXfer:auxv:read+;qXfer:siginfo:read+;qXfer:siginfo:write+"
	";qXfer:features:read+;QStartNoAckMode+;QDisableRandomization+"
	";qXfer:threads:read+;qXfer:exec-file:read+;qXfer:osdata:read+"
	";Qbtrace:bts+;Qbtrace-conf:bts:size+;Qbtrace:pt+"
	";Qbtrace-conf:pt:size+;Qbtrace:off+;qXfer:btrace:read+"
	";qXfer:btrace-conf:read+;ConditionalBreakpoints+;QNonStop+;QCatchSyscalls+"
	";augmented-libraries-svr4-read+;QThreadEvents+;BreakpointCommands+"
	";QAgent+";

static int srv_supported(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qSupported"), *end = pkt + len;
	struct rsp_feature f;
	struct ps_buf *r = &srv->reply;
	int fork_events = 0, vfork_events = 0, exec_events = 0;
	int vcont_supported = 0;

	if (p < end && *p == ':')
		p++;
	while (rsp_next_feature(&p, end, &f) == 1) {
		if (f.kind != '+')
			continue;
		if (rsp_feature_is(&f, "multiprocess"))
			srv->multiprocess = 1;
		else if (rsp_feature_is(&f, "swbreak"))
			srv->swbreak = 1;
		else if (rsp_feature_is(&f, "hwbreak"))
			srv->hwbreak = 1;
		else if (rsp_feature_is(&f, "fork-events"))
			fork_events = 1;
		else if (rsp_feature_is(&f, "vfork-events"))
			vfork_events = 1;
		else if (rsp_feature_is(&f, "exec-events"))
			exec_events = 1;
		else if (rsp_feature_is(&f, "vContSupported"))
			vcont_supported = 1;
		else if (rsp_feature_is(&f, "no-resumed"))
			srv->no_resumed = 1;
	}
	nat_target_set_fork_events(srv->target, fork_events, vfork_events,
				   exec_events);

	ps_buf_printf(r, "PacketSize=%x", SRV_PACKET_SIZE);
	ps_buf_puts(r, srv_features);
	if (srv->multiprocess)
		ps_buf_puts(r, ";multiprocess+");
	if (fork_events)
		ps_buf_puts(r, ";fork-events+");
	if (vfork_events)
		ps_buf_puts(r, ";vfork-events+");
	if (exec_events)
		ps_buf_puts(r, ";exec-events+");
	if (srv->swbreak)
		ps_buf_puts(r, ";swbreak+");
	if (srv->hwbreak)
		ps_buf_puts(r, ";hwbreak+");
	if (vcont_supported)
		ps_buf_puts(r, ";vContSupported+");
	if (srv->no_resumed)
		ps_buf_puts(r, ";no-resumed+");
	return srv_reply;
}

static int srv_attached(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qAttached"), *end = pkt + len;
	struct nat_process *proc = nat_first_process(srv->target);
	uint64_t pid;

	if (p < end && *p == ':') {
		p++;
		if (ps_hex_parse_u64(&p, end, &pid) < 0)
			return -pse_invalid;
		proc = nat_find_process(srv->target, (pid_t) pid);
	}
	if (!proc)
		return srv_error_text(srv, "No such process.");
	ps_buf_puts(&srv->reply, nat_process_attached(proc) ? "1" : "0");
	return srv_reply;
}

/* "qCRC:ADDR,LENGTH": the CRC of the program's memory (as the program
   sees it, breakpoints shadowed), for GDB's compare-sections.  */
static int srv_crc(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qCRC:"), *end = pkt + len;
	struct nat_process *proc = srv_general_process(srv);
	uint32_t crc = 0xffffffffu;
	uint64_t addr, n;

	if (ps_hex_parse_u64(&p, end, &addr) < 0 || p >= end || *p++ != ',' ||
	    ps_hex_parse_u64(&p, end, &n) < 0 || p != end)
		return -pse_invalid;
	if (!proc)
		return srv_error_text(srv, "No process.");
	while (n) {
		uint8_t buf[4096];
		size_t chunk = n < sizeof(buf) ? (size_t) n : sizeof(buf);
		long got = nat_read_memory(proc, addr, buf, chunk);

		/* Like gdbserver: unreadable memory is E01.  */
		if (got != (long) chunk) {
			ps_buf_puts(&srv->reply, "E01");
			return srv_reply;
		}
		crc = ps_crc32(crc, buf, chunk);
		addr += chunk;
		n -= chunk;
	}
	ps_buf_printf(&srv->reply, "C%x", (unsigned) crc);
	return srv_reply;
}

int srv_handle_query(struct srv *srv, const char *pkt, size_t len)
{
	if (srv_prefix(pkt, len, "qCRC:"))
		return srv_crc(srv, pkt, len);
	if (srv_prefix(pkt, len, "qSupported"))
		return srv_supported(srv, pkt, len);
	if (srv_prefix(pkt, len, "QStartNoAckMode")) {
		int err;

		/* The OK goes out (and is acked) before acks stop.  */
		err = rsp_send_str(srv->conn, "OK");
		if (err < 0)
			return err;
		rsp_conn_set_noack(srv->conn, 1);
		return srv_no_reply;
	}
	if (srv_prefix(pkt, len, "qAttached"))
		return srv_attached(srv, pkt, len);
	/* Thread-local addresses need libthread_db, which ptstub does not
	   load: a failure, as gdbserver answers without one.  */
	if (srv_prefix(pkt, len, "qGetTLSAddr:"))
		return srv_error_text(srv, "No libthread_db.");
	if (len == strlen("qSymbol::") && srv_prefix(pkt, len, "qSymbol::")) {
		/* No symbol lookups needed: libthread_db runs in GDB.  */
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}
	return srv_reply;
}
