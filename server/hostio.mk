# vFile host I/O (server/hostio).

noinst_LIBRARIES += server/libpshostio.a
server_libpshostio_a_SOURCES = \
	server/hostio.c server/hostio.h

check_PROGRAMS += testsuite/unit/hostio_test
TESTS += testsuite/unit/hostio_test
testsuite_unit_hostio_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_hostio_test_LDADD = server/libpshostio.a server/libpsrsp.a \
	common/libpscommon.a $(CRITERION_LIBS)
