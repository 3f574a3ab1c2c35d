# Unit tests of the RSP server's packet handlers: one program per
# server/ source file, each driving srv_dispatch against the native
# layer's test program over a socketpair (testsuite/unit/srv_fixture.h).
SRVTEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(LIBELF_CFLAGS)
SRVTEST_LDADD = $(PTSTUB_LIBS) $(CRITERION_LIBS) $(LIBELF_LIBS) \
	-lipt -lZydis $(JANSSON_LIBS)

check_PROGRAMS += testsuite/unit/server_test
TESTS += testsuite/unit/server_test
testsuite_unit_server_test_SOURCES = testsuite/unit/server_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_server_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_server_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/dispatch_test
TESTS += testsuite/unit/dispatch_test
testsuite_unit_dispatch_test_SOURCES = testsuite/unit/dispatch_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_dispatch_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_dispatch_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_stop_reply_test
TESTS += testsuite/unit/srv_stop_reply_test
testsuite_unit_srv_stop_reply_test_SOURCES = testsuite/unit/srv_stop_reply_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_stop_reply_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_stop_reply_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_general_test
TESTS += testsuite/unit/srv_general_test
testsuite_unit_srv_general_test_SOURCES = testsuite/unit/srv_general_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_general_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_general_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_query_test
TESTS += testsuite/unit/srv_query_test
testsuite_unit_srv_query_test_SOURCES = testsuite/unit/srv_query_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_query_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_query_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_settings_test
TESTS += testsuite/unit/srv_settings_test
testsuite_unit_srv_settings_test_SOURCES = testsuite/unit/srv_settings_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_settings_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_settings_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_regs_test
TESTS += testsuite/unit/srv_regs_test
testsuite_unit_srv_regs_test_SOURCES = testsuite/unit/srv_regs_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_regs_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_regs_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_memory_test
TESTS += testsuite/unit/srv_memory_test
testsuite_unit_srv_memory_test_SOURCES = testsuite/unit/srv_memory_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_memory_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_memory_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_break_test
TESTS += testsuite/unit/srv_break_test
testsuite_unit_srv_break_test_SOURCES = testsuite/unit/srv_break_test.c \
	testsuite/unit/srv_fixture.h testsuite/unit/debugregs_probe.h
testsuite_unit_srv_break_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_break_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_threads_test
TESTS += testsuite/unit/srv_threads_test
testsuite_unit_srv_threads_test_SOURCES = testsuite/unit/srv_threads_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_threads_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_threads_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_resume_test
TESTS += testsuite/unit/srv_resume_test
testsuite_unit_srv_resume_test_SOURCES = testsuite/unit/srv_resume_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_resume_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_resume_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_process_test
TESTS += testsuite/unit/srv_process_test
testsuite_unit_srv_process_test_SOURCES = testsuite/unit/srv_process_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_process_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_process_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_monitor_test
TESTS += testsuite/unit/srv_monitor_test
testsuite_unit_srv_monitor_test_SOURCES = testsuite/unit/srv_monitor_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_monitor_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_monitor_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_qxfer_test
TESTS += testsuite/unit/srv_qxfer_test
testsuite_unit_srv_qxfer_test_SOURCES = testsuite/unit/srv_qxfer_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_qxfer_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_qxfer_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_osdata_test
TESTS += testsuite/unit/srv_osdata_test
testsuite_unit_srv_osdata_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_osdata_test_LDADD = $(SRVTEST_LDADD)

# The non-stop notification queue alone (no fixture: it is plain data).
check_PROGRAMS += testsuite/unit/srv_notif_test
TESTS += testsuite/unit/srv_notif_test
testsuite_unit_srv_notif_test_SOURCES = testsuite/unit/srv_notif_test.c
testsuite_unit_srv_notif_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_notif_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_nonstop_test
TESTS += testsuite/unit/srv_nonstop_test
testsuite_unit_srv_nonstop_test_SOURCES = testsuite/unit/srv_nonstop_test.c \
	testsuite/unit/srv_fixture.h
testsuite_unit_srv_nonstop_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_nonstop_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_progress_test
TESTS += testsuite/unit/srv_progress_test
testsuite_unit_srv_progress_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_progress_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_lldb_trace_test
TESTS += testsuite/unit/srv_lldb_trace_test
testsuite_unit_srv_lldb_trace_test_SOURCES = \
	testsuite/unit/srv_lldb_trace_test.c testsuite/unit/srv_fixture.h
testsuite_unit_srv_lldb_trace_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_lldb_trace_test_LDADD = $(SRVTEST_LDADD)

check_PROGRAMS += testsuite/unit/srv_lldb_query_test
TESTS += testsuite/unit/srv_lldb_query_test
testsuite_unit_srv_lldb_query_test_SOURCES = \
	testsuite/unit/srv_lldb_query_test.c testsuite/unit/srv_fixture.h
testsuite_unit_srv_lldb_query_test_CFLAGS = $(SRVTEST_CFLAGS)
testsuite_unit_srv_lldb_query_test_LDADD = $(SRVTEST_LDADD)
