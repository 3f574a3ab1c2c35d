# server/: the RSP server: a client's connection (ptstub's main is
# main/'s).
noinst_LIBRARIES += server/libpsserver.a

# The transport: framing and acks, binary escaping, packet field parsing,
# the listening socket.
server_libpsserver_a_SOURCES = \
	server/rsp_conn.c server/rsp_conn.h \
	server/rsp_escape.c server/rsp_escape.h \
	server/rsp_parse.c server/rsp_parse.h \
	server/rsp_listen.c server/rsp_listen.h \
	server/comm_addr.c server/comm_addr.h

# vFile host I/O, and agent expressions: breakpoint conditions
# (ConditionalBreakpoints+) and commands (BreakpointCommands+, a
# dprintf's printf) GDB hands to the stub, parsed, evaluated and kept
# per address.
server_libpsserver_a_SOURCES += \
	server/hostio.c server/hostio.h \
	server/agent_expr.c server/agent_expr.h \
	server/agent_cond.c server/agent_cond.h \
	server/agent_printf.c server/agent_printf.h

# The server: the dispatch table and one file per packet family.
server_libpsserver_a_SOURCES += \
	server/server.c server/server.h server/dispatch.c \
	server/srv_reply.c \
	server/srv_stop_reply.c server/srv_general.c server/srv_query.c \
	server/srv_settings.c server/srv_regs.c server/srv_memory.c \
	server/srv_break.c server/srv_threads.c server/srv_resume.c \
	server/srv_process.c server/srv_monitor.c server/srv_qxfer.c \
	server/srv_btrace.c server/srv_btrace_save.c \
	server/srv_osdata.c server/srv_osdata.h \
	server/srv_osdata_sys.c server/srv_osdata_sys.h \
	server/srv_notif.c server/srv_notif.h server/srv_nonstop.c \
	server/srv_progress.c server/srv_progress.h \
	server/srv_postmortem.c server/srv_postmortem.h \
	server/srv_pm_image.c server/srv_pm_image.h

# A session: the target set up, the program started, one connection
# after another (main/ starts it).
server_libpsserver_a_SOURCES += server/srv_run.c server/srv_run.h

# LLDB, the second client: its queries and trace packets.
server_libpsserver_a_SOURCES += server/srv_lldb.c server/srv_lldb.h \
	server/srv_lldb_query.c server/srv_lldb_trace.c

# Everything the stub links, uppermost first.
PTSTUB_LIBS = server/libpsserver.a rec/librec.a btrace/libptbundle.la \
	$(NAT_LIBS) $(JANSSON_LIBS)

