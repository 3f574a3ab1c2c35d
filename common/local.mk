# Leaf helpers shared by every layer of the stub.
noinst_LIBRARIES += common/libpscommon.a
common_libpscommon_a_SOURCES = \
	common/ps_error.c common/ps_error.h \
	common/ps_buf.c common/ps_buf.h \
	common/ps_hex.c common/ps_hex.h \
	common/gdb_signals.c common/gdb_signals.h \
	common/trace.c common/trace.h

COMMON_TEST_LDADD = common/libpscommon.a $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/ps_error_test
TESTS += testsuite/unit/ps_error_test
testsuite_unit_ps_error_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_ps_error_test_LDADD = $(COMMON_TEST_LDADD)

check_PROGRAMS += testsuite/unit/ps_buf_test
TESTS += testsuite/unit/ps_buf_test
testsuite_unit_ps_buf_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_ps_buf_test_LDADD = $(COMMON_TEST_LDADD)

check_PROGRAMS += testsuite/unit/ps_hex_test
TESTS += testsuite/unit/ps_hex_test
testsuite_unit_ps_hex_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_ps_hex_test_LDADD = $(COMMON_TEST_LDADD)

check_PROGRAMS += testsuite/unit/gdb_signals_test
TESTS += testsuite/unit/gdb_signals_test
testsuite_unit_gdb_signals_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_gdb_signals_test_LDADD = $(COMMON_TEST_LDADD)

check_PROGRAMS += testsuite/unit/trace_test
TESTS += testsuite/unit/trace_test
testsuite_unit_trace_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_trace_test_LDADD = $(COMMON_TEST_LDADD)
