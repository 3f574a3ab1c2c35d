# nat: the amd64 register cache (ptrace regsets and the XSAVE layout).
noinst_LIBRARIES += nat/libpsregs.a
nat_libpsregs_a_SOURCES = \
	nat/xstate.c nat/xstate.h \
	nat/amd64_regs.c nat/amd64_regs.h \
	nat/amd64_regs_image.c nat/amd64_regs_image.h

check_PROGRAMS += testsuite/unit/xstate_test
TESTS += testsuite/unit/xstate_test
testsuite_unit_xstate_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_xstate_test_LDADD = nat/libpsregs.a common/libpscommon.a $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/amd64_regs_test
TESTS += testsuite/unit/amd64_regs_test
testsuite_unit_amd64_regs_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_amd64_regs_test_LDADD = nat/libpsregs.a xml/libpsxml.a \
	nat/libpsmem.a common/libpscommon.a $(CRITERION_LIBS)

# End to end: GDB through ptstub and through gdbserver on a program that
# loaded known values into every register.
check_PROGRAMS += testsuite/unit/progs/regs_loader
TESTS += testsuite/unit/regs_gdb_test.sh
EXTRA_DIST += testsuite/unit/regs_gdb_test.sh

check_PROGRAMS += testsuite/unit/amd64_regs_image_test
TESTS += testsuite/unit/amd64_regs_image_test
testsuite_unit_amd64_regs_image_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_amd64_regs_image_test_LDADD = nat/libpsregs.a xml/libpsxml.a \
	nat/libpsmem.a common/libpscommon.a $(CRITERION_LIBS)
