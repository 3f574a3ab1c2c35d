/* Which handler takes a packet.  Unknown packets get the empty reply, as
   the protocol asks.  */
#include "server/server.h"
#include "server/srv_lldb.h"

struct srv_route {
	const char *prefix;
	int (*handle)(struct srv *srv, const char *pkt, size_t len);
};

/* Longest prefixes first where one is a prefix of another.  */
static const struct srv_route srv_routes[] = {
	{ "qSupported", srv_handle_query },
	{ "qXfer:", srv_handle_qxfer },
	{ "qRcmd,", srv_handle_monitor },
	{ "qfThreadInfo", srv_handle_threads },
	{ "qsThreadInfo", srv_handle_threads },
	{ "qC", srv_handle_threads },
	{ "qHostInfo", srv_handle_lldb_query },
	{ "qProcessInfo", srv_handle_lldb_query },
	{ "qShlibInfoAddr", srv_handle_lldb_query },
	{ "qMemoryRegionInfo", srv_handle_lldb_query },
	{ "jThreadsInfo", srv_handle_lldb_query },
	{ "jLLDBTrace", srv_handle_lldb_trace },
	{ "q", srv_handle_query },
	{ "QStartNoAckMode", srv_handle_query },
	{ "QNonStop:", srv_handle_nonstop },
	{ "Qbtrace", srv_handle_btrace },
	{ "Q", srv_handle_settings },
	{ "vCont", srv_handle_resume },
	{ "vStopped", srv_handle_nonstop },
	{ "vCtrlC", srv_handle_nonstop },
	{ "vRun;", srv_handle_process },
	{ "vAttach;", srv_handle_process },
	{ "vKill;", srv_handle_process },
	{ "vFile:", srv_handle_general },
	{ "?", srv_handle_status },
	{ "!", srv_handle_process },
	{ "k", srv_handle_lldb_kill },
	{ "D", srv_handle_process },
	{ "R", srv_handle_process },
	{ "g", srv_handle_regs },
	{ "G", srv_handle_regs },
	{ "p", srv_handle_regs },
	{ "P", srv_handle_regs },
	{ "m", srv_handle_memory },
	{ "M", srv_handle_memory },
	{ "X", srv_handle_memory },
	{ "Z", srv_handle_break },
	{ "z", srv_handle_break },
	{ "H", srv_handle_threads },
	{ "T", srv_handle_threads },
	{ "c", srv_handle_resume },
	{ "C", srv_handle_resume },
	{ "s", srv_handle_resume },
	{ "S", srv_handle_resume },
};

int srv_dispatch(struct srv *srv, const char *pkt, size_t len)
{
	for (size_t i = 0; i < sizeof(srv_routes) / sizeof(srv_routes[0]); i++)
		if (srv_prefix(pkt, len, srv_routes[i].prefix))
			return srv_routes[i].handle(srv, pkt, len);
	return srv_reply;
}
