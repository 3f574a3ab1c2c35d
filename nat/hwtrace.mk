# Hardware trace sources (perf intel_pt with AUX, perf BTS) and the
# server-side btrace XML writers.  Programs linking nat/libpshw.a also
# need -lipt (cpu_info asks libipt which cpus GDB's decoder knows).
noinst_LIBRARIES += nat/libpshw.a xml/libpsbtxml.a

nat_libpshw_a_SOURCES = \
	nat/perf_ring.c nat/perf_ring.h \
	nat/perf_pt.c nat/perf_pt.h \
	nat/perf_bts.c nat/perf_bts.h \
	nat/cpu_info.c nat/cpu_info.h

xml_libpsbtxml_a_SOURCES = \
	xml/btrace_xml.c xml/btrace_xml.h

EXTRA_DIST += xml/btrace.dtd xml/btrace-conf.dtd

check_PROGRAMS += testsuite/unit/perf_ring_test
TESTS += testsuite/unit/perf_ring_test
testsuite_unit_perf_ring_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_perf_ring_test_LDADD = nat/libpshw.a common/libpscommon.a -lipt $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/perf_pt_test
TESTS += testsuite/unit/perf_pt_test
testsuite_unit_perf_pt_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_perf_pt_test_LDADD = nat/libpshw.a common/libpscommon.a -lipt $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/perf_bts_test
TESTS += testsuite/unit/perf_bts_test
testsuite_unit_perf_bts_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_perf_bts_test_LDADD = nat/libpshw.a common/libpscommon.a -lipt $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/cpu_info_test
TESTS += testsuite/unit/cpu_info_test
testsuite_unit_cpu_info_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_cpu_info_test_LDADD = nat/libpshw.a common/libpscommon.a -lipt $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/btrace_xml_test
TESTS += testsuite/unit/btrace_xml_test
testsuite_unit_btrace_xml_test_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBTRACE_DTD_DIR='"$(abs_top_srcdir)/xml"'
testsuite_unit_btrace_xml_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(EXPAT_CFLAGS)
testsuite_unit_btrace_xml_test_LDADD = xml/libpsbtxml.a common/libpscommon.a $(EXPAT_LIBS) $(CRITERION_LIBS)
