# The Linux native layer: processes, threads, memory, breakpoints.
noinst_LIBRARIES += nat/libpsnat.a
nat_libpsnat_a_SOURCES = \
	nat/target.h nat/process.c nat/process.h \
	nat/inferior.c nat/wait.c nat/wait_status.h nat/wait_block.c \
	nat/wait_block.h nat/resume.c \
	nat/thread_regs.c nat/btrace.c nat/btrace.h \
	nat/debugregs.c nat/debugregs.h \
	nat/maps.c nat/maps.h \
	nat/catch_syscall.c nat/catch_syscall.h

# Memory and the int3 table, which the trace emulator uses too: a library
# of their own, linked after both (libtool drops a library listed twice).
noinst_LIBRARIES += nat/libpsmem.a
nat_libpsmem_a_SOURCES = \
	nat/mem.c nat/mem.h \
	nat/int3_table.c nat/int3_table.h

NAT_TEST_LDADD = nat/libpsnat.a nat/libpsmem.a common/libpscommon.a \
	$(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/mem_test
TESTS += testsuite/unit/mem_test
testsuite_unit_mem_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_mem_test_LDADD = $(NAT_TEST_LDADD)

check_PROGRAMS += testsuite/unit/int3_table_test
TESTS += testsuite/unit/int3_table_test
testsuite_unit_int3_table_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_int3_table_test_LDADD = $(NAT_TEST_LDADD)

check_PROGRAMS += testsuite/unit/debugregs_test
TESTS += testsuite/unit/debugregs_test
testsuite_unit_debugregs_test_SOURCES = testsuite/unit/debugregs_test.c \
	testsuite/unit/debugregs_probe.h
testsuite_unit_debugregs_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_debugregs_test_LDADD = $(NAT_TEST_LDADD)

# The process-level tests run this program under the native layer; it
# is not PIE so that its symbols are its addresses.
check_PROGRAMS += testsuite/unit/progs/nat_prog
testsuite_unit_progs_nat_prog_SOURCES = testsuite/unit/progs/nat_prog.c
testsuite_unit_progs_nat_prog_CFLAGS = -fno-pie -pthread
testsuite_unit_progs_nat_prog_LDFLAGS = -no-pie -pthread
# Whatever the tree is configured with (-O2, sanitizers), it is plain.
testsuite/unit/progs/%: CFLAGS = -g -O0

NAT_PROC_TEST_LDADD = nat/libpsnat.a nat/emu/libpsemu.a nat/libpshw.a \
	nat/libpsmem.a nat/libpsregs.a xml/libpsxml.a xml/libpsbtxml.a \
	common/libpscommon.a $(CRITERION_LIBS) $(LIBELF_LIBS) -lipt -lZydis
NAT_PROC_TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(LIBELF_CFLAGS)

check_PROGRAMS += testsuite/unit/inferior_test
TESTS += testsuite/unit/inferior_test
testsuite_unit_inferior_test_CFLAGS = $(NAT_PROC_TEST_CFLAGS)
testsuite_unit_inferior_test_LDADD = $(NAT_PROC_TEST_LDADD)

check_PROGRAMS += testsuite/unit/wait_block_test
TESTS += testsuite/unit/wait_block_test
testsuite_unit_wait_block_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_wait_block_test_LDADD = nat/libpsnat.a $(CRITERION_LIBS)

check_PROGRAMS += testsuite/unit/wait_test
TESTS += testsuite/unit/wait_test
testsuite_unit_wait_test_CFLAGS = $(NAT_PROC_TEST_CFLAGS)
testsuite_unit_wait_test_LDADD = $(NAT_PROC_TEST_LDADD)

check_PROGRAMS += testsuite/unit/resume_test
TESTS += testsuite/unit/resume_test
testsuite_unit_resume_test_CFLAGS = $(NAT_PROC_TEST_CFLAGS)
testsuite_unit_resume_test_LDADD = $(NAT_PROC_TEST_LDADD)

check_PROGRAMS += testsuite/unit/maps_test
TESTS += testsuite/unit/maps_test
testsuite_unit_maps_test_CFLAGS = $(NAT_PROC_TEST_CFLAGS)
testsuite_unit_maps_test_LDADD = $(NAT_PROC_TEST_LDADD)

check_PROGRAMS += testsuite/unit/btrace_test
TESTS += testsuite/unit/btrace_test
testsuite_unit_btrace_test_CFLAGS = $(NAT_PROC_TEST_CFLAGS)
testsuite_unit_btrace_test_LDADD = $(NAT_PROC_TEST_LDADD)

check_PROGRAMS += testsuite/unit/catch_syscall_test
TESTS += testsuite/unit/catch_syscall_test
testsuite_unit_catch_syscall_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)
testsuite_unit_catch_syscall_test_LDADD = $(NAT_TEST_LDADD)
