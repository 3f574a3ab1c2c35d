# xml: target descriptions and the XML documents the stub serves.
noinst_LIBRARIES += xml/libpsxml.a
xml_libpsxml_a_SOURCES = \
	xml/tdesc_amd64.c xml/tdesc_amd64.h

check_PROGRAMS += testsuite/unit/tdesc_amd64_test
TESTS += testsuite/unit/tdesc_amd64_test
testsuite_unit_tdesc_amd64_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(EXPAT_CFLAGS)
testsuite_unit_tdesc_amd64_test_LDADD = xml/libpsxml.a common/libpscommon.a \
	$(CRITERION_LIBS) $(EXPAT_LIBS)

# Prints target.xml for an XCR0 given on the command line, so that the
# test script can hand it to GDB.  A tool, not an inferior: it is built
# with the tree's flags (sanitizers included), so it is not under progs/.
check_PROGRAMS += testsuite/unit/tdesc_print
testsuite_unit_tdesc_print_SOURCES = testsuite/unit/tdesc_print.c
testsuite_unit_tdesc_print_LDADD = xml/libpsxml.a common/libpscommon.a

TESTS += testsuite/unit/tdesc_gdb_test.sh
EXTRA_DIST += testsuite/unit/tdesc_gdb_test.sh
