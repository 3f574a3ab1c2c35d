# The RSP server and the ptstub program.
noinst_LIBRARIES += server/libpsserver.a
server_libpsserver_a_SOURCES = \
	server/server.c server/server.h server/dispatch.c \
	server/srv_stop_reply.c server/srv_general.c server/srv_query.c \
	server/srv_settings.c server/srv_regs.c server/srv_memory.c \
	server/srv_break.c server/srv_threads.c server/srv_resume.c \
	server/srv_process.c server/srv_monitor.c server/srv_qxfer.c \
	server/srv_btrace.c server/srv_btrace_save.c \
	server/srv_osdata.c server/srv_osdata.h \
	server/srv_osdata_sys.c server/srv_osdata_sys.h \
	server/srv_notif.c server/srv_notif.h server/srv_nonstop.c \
	server/srv_reply.c \
	server/srv_postmortem.c server/srv_postmortem.h \
	server/srv_pm_image.c server/srv_pm_image.h
server_libpsserver_a_SOURCES += server/srv_progress.c server/srv_progress.h

# LLDB, the second client: its queries and trace packets.
server_libpsserver_a_SOURCES += server/srv_lldb.c server/srv_lldb.h \
	server/srv_lldb_query.c server/srv_lldb_trace.c

bin_PROGRAMS += ptstub
ptstub_SOURCES = server/main.c
PTSTUB_LIBS = rec/librec.a server/libpsserver.a server/libpsagent.a server/libpshostio.a \
	server/libpsrsp.a \
	btrace/libptbundle.a nat/libpsinfo.a nat/libpsnat.a nat/emu/libpsemu.a nat/libpsmem.a \
	nat/libpshw.a nat/libpsregs.a xml/libpsxml.a xml/libpsbtxml.a \
	common/libpscommon.a $(LIBDEFLATE_LIBS) $(JANSSON_LIBS)
ptstub_LDADD = $(PTSTUB_LIBS) -lipt -lZydis $(LIBELF_LIBS)

# The btrace packets' tests use the packet handlers' fixture
# (testsuite/unit/srv_fixture.h, server/srvtest.mk).
check_PROGRAMS += testsuite/unit/srv_btrace_test
TESTS += testsuite/unit/srv_btrace_test
testsuite_unit_srv_btrace_test_SOURCES = testsuite/unit/srv_btrace_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_btrace_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_btrace_test_LDADD = $(SRVTEST_LDADD)

# The post-mortem session's packets, on a bundle the test writes.
check_PROGRAMS += testsuite/unit/srv_postmortem_test
TESTS += testsuite/unit/srv_postmortem_test
testsuite_unit_srv_postmortem_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_srv_postmortem_test_LDADD = $(PTSTUB_LIBS) $(CRITERION_LIBS) \
	$(LIBELF_LIBS) -lipt -lZydis
