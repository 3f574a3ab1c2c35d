# Process information from /proc and the dynamic linker: the auxv, the
# svr4 library list, the executable, thread names, cores and lists.
noinst_LIBRARIES += nat/libpsinfo.a
nat_libpsinfo_a_SOURCES = \
	nat/auxv.c nat/auxv.h \
	nat/procinfo.c nat/procinfo.h \
	nat/svr4.c nat/svr4.h \
	nat/osdata.c nat/osdata.h \
	nat/osdata_sys.c nat/osdata_sys.h

check_PROGRAMS += testsuite/unit/auxv_test
TESTS += testsuite/unit/auxv_test
testsuite_unit_auxv_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_auxv_test_LDADD = nat/libpsinfo.a common/libpscommon.a \
	$(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/procinfo_test
TESTS += testsuite/unit/procinfo_test
testsuite_unit_procinfo_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_procinfo_test_LDADD = nat/libpsinfo.a common/libpscommon.a \
	$(CRITERION_LIBS)

# The svr4 test reads the child's memory through nat/mem, as the server
# does.
check_PROGRAMS += testsuite/unit/svr4_test
TESTS += testsuite/unit/svr4_test
testsuite_unit_svr4_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_svr4_test_LDADD = nat/libpsinfo.a nat/libpsmem.a \
	common/libpscommon.a $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/osdata_test
TESTS += testsuite/unit/osdata_test
testsuite_unit_osdata_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_osdata_test_LDADD = nat/libpsinfo.a common/libpscommon.a \
	$(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/osdata_sys_test
TESTS += testsuite/unit/osdata_sys_test
testsuite_unit_osdata_sys_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_osdata_sys_test_LDADD = nat/libpsinfo.a common/libpscommon.a \
	$(CRITERION_LIBS)
