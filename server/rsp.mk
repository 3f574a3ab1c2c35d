# The remote protocol's transport: framing and acks, binary escaping,
# packet field parsing, and the listening socket.
noinst_LIBRARIES += server/libpsrsp.a
server_libpsrsp_a_SOURCES = \
	server/rsp_conn.c server/rsp_conn.h \
	server/rsp_escape.c server/rsp_escape.h \
	server/rsp_parse.c server/rsp_parse.h \
	server/rsp_listen.c server/rsp_listen.h \
	server/comm_addr.c server/comm_addr.h

RSP_TEST_LDADD = server/libpsrsp.a common/libpscommon.a $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/rsp_conn_test
TESTS += testsuite/unit/rsp_conn_test
testsuite_unit_rsp_conn_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_rsp_conn_test_LDADD = $(RSP_TEST_LDADD) -lpthread

check_PROGRAMS += testsuite/unit/rsp_escape_test
TESTS += testsuite/unit/rsp_escape_test
testsuite_unit_rsp_escape_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_rsp_escape_test_LDADD = $(RSP_TEST_LDADD)

check_PROGRAMS += testsuite/unit/rsp_parse_test
TESTS += testsuite/unit/rsp_parse_test
testsuite_unit_rsp_parse_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_rsp_parse_test_LDADD = $(RSP_TEST_LDADD)

check_PROGRAMS += testsuite/unit/rsp_listen_test
TESTS += testsuite/unit/rsp_listen_test
testsuite_unit_rsp_listen_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_rsp_listen_test_LDADD = $(RSP_TEST_LDADD)

check_PROGRAMS += testsuite/unit/comm_addr_test
TESTS += testsuite/unit/comm_addr_test
testsuite_unit_comm_addr_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_comm_addr_test_LDADD = $(RSP_TEST_LDADD)

# ptstub and gdbserver refuse the same bad COMMs in the same words.
TESTS += testsuite/unit/comm_errors_test.sh
EXTRA_DIST += testsuite/unit/comm_errors_test.sh
