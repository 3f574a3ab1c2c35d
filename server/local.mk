# The RSP server and the ptstub program.
noinst_LIBRARIES += server/libpsserver.a
server_libpsserver_a_SOURCES = \
	server/server.c server/server.h server/dispatch.c \
	server/srv_stop_reply.c server/srv_general.c server/srv_query.c \
	server/srv_settings.c server/srv_regs.c server/srv_memory.c \
	server/srv_break.c server/srv_threads.c server/srv_resume.c \
	server/srv_process.c server/srv_monitor.c server/srv_qxfer.c \
	server/srv_btrace.c server/srv_btrace_save.c

bin_PROGRAMS += ptstub
ptstub_SOURCES = server/main.c
PTSTUB_LIBS = server/libpsserver.a server/libpsagent.a server/libpshostio.a \
	server/libpsrsp.a \
	btrace/libptbundle.a nat/libpsinfo.a nat/libpsnat.a nat/emu/libpsemu.a nat/libpsmem.a \
	nat/libpshw.a nat/libpsregs.a xml/libpsxml.a xml/libpsbtxml.a \
	common/libpscommon.a
ptstub_LDADD = $(PTSTUB_LIBS) -lipt -lZydis $(LIBELF_LIBS)
