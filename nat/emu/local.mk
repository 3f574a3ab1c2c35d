# nat/emu: the trace emulator (PT and BTS by breakpoint-and-emulate).
noinst_LIBRARIES += nat/emu/libpsemu.a
nat_emu_libpsemu_a_SOURCES = \
	nat/emu/emu.h nat/emu/emu_engine.h \
	nat/emu/emu.c nat/emu/emu_stop.c nat/emu/emu_read.c \
	nat/emu/emu_insn.c nat/emu/emu_insn.h \
	nat/emu/emu_branch.c nat/emu/emu_branch.h \
	nat/emu/emu_ring.c nat/emu/emu_ring.h \
	nat/emu/emu_pt.c nat/emu/emu_pt.h \
	nat/emu/emu_bts.c nat/emu/emu_bts.h \
	nat/emu/emu_planted.c nat/emu/emu_planted.h \
	nat/emu/emu_maps.c nat/emu/emu_maps.h \
	nat/emu/emu_walk.c nat/emu/emu_walk.h \
	nat/emu/emu_cache.c nat/emu/emu_cache.h \
	nat/emu/emu_signal.c nat/emu/emu_signal.h \
	nat/emu/emu_alu.c nat/emu/emu_alu.h \
	nat/emu/emu_thread.c nat/emu/emu_thread.h \
	nat/emu/cc.c nat/emu/cc.h \
	nat/emu/cc_blocks.c nat/emu/cc_blocks.h \
	nat/emu/cc_xlate.c nat/emu/cc_xlate.h \
	nat/emu/cc_inject.c nat/emu/cc_inject.h

# What a program linking the engine needs: nat/mem and nat/int3_table
# come with the test driver's library (below) so that the engine's tests
# do not depend on the rest of nat/ building at every moment.
EMU_LIBS = nat/emu/libpsemu.a testsuite/emu/libemunat.a \
	common/libpscommon.a -lipt -lZydis

# The oracle corpus (testsuite/emu/progs) and the driver shared by the
# oracle, the engine's unit tests and the benchmark.
EMU_PROG_CFLAGS = -O2 -g -fno-omit-frame-pointer -mno-red-zone
# Inferiors take no flags from the tree's configuration: a sanitized
# build (make check-sanitize) must trace the same programs.
testsuite/emu/progs/%: CFLAGS =
testsuite/emu/progs/%: CXXFLAGS =
check_PROGRAMS += testsuite/emu/progs/recursion testsuite/emu/progs/loops \
	testsuite/emu/progs/indirect testsuite/emu/progs/libcalls \
	testsuite/emu/progs/signals testsuite/emu/progs/longjmp \
	testsuite/emu/progs/throw testsuite/emu/progs/threads \
	testsuite/emu/progs/forks testsuite/emu/progs/syscalls \
	testsuite/emu/progs/jit testsuite/emu/progs/timer \
	testsuite/emu/progs/exec testsuite/emu/progs/glibc_mix \
	testsuite/emu/progs/two_readers \
	testsuite/emu/progs/hot_timer
testsuite_emu_progs_recursion_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_loops_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_indirect_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_libcalls_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_libcalls_LDFLAGS = -Wl,-z,lazy
testsuite_emu_progs_signals_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_longjmp_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_throw_SOURCES = testsuite/emu/progs/throw.cc
testsuite_emu_progs_throw_CXXFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_threads_CFLAGS = $(EMU_PROG_CFLAGS) -pthread
testsuite_emu_progs_threads_LDADD = -lpthread
testsuite_emu_progs_forks_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_syscalls_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_jit_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_timer_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_emu_progs_exec_CFLAGS = $(EMU_PROG_CFLAGS)
# As a user builds: glibc's own code (strtod, regcomp, iconv) is what
# matters, frame pointers or not.
testsuite_emu_progs_glibc_mix_CFLAGS = -O2 -g -fno-pie
testsuite_emu_progs_glibc_mix_LDFLAGS = -no-pie
testsuite_emu_progs_two_readers_CFLAGS = $(EMU_PROG_CFLAGS) -pthread
testsuite_emu_progs_two_readers_LDADD = -lpthread
testsuite_emu_progs_hot_timer_CFLAGS = $(EMU_PROG_CFLAGS)

EXTRA_DIST += testsuite/emu/emu_test_main.h
check_LIBRARIES += testsuite/emu/libemudriver.a testsuite/emu/libemunat.a
testsuite_emu_libemudriver_a_SOURCES = testsuite/emu/emu_driver.c \
	testsuite/emu/emu_driver.h
testsuite_emu_libemunat_a_SOURCES = nat/mem.c nat/int3_table.c
testsuite_emu_libemunat_a_CFLAGS = $(AM_CFLAGS)
testsuite_emu_libemudriver_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
EMU_DRIVER_LIBS = testsuite/emu/libemudriver.a $(EMU_LIBS) $(LIBELF_LIBS)

check_PROGRAMS += testsuite/emu/emu_oracle_test
TESTS += testsuite/emu/emu_oracle_test
testsuite_emu_emu_oracle_test_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) \
	-DEMU_PROGDIR='"$(abs_top_builddir)/testsuite/emu/progs"'
testsuite_emu_emu_oracle_test_LDADD = $(EMU_DRIVER_LIBS) $(CRITERION_LIBS)

# Unit tests, one per source file of nat/emu.
check_PROGRAMS += testsuite/unit/emu_insn_test
TESTS += testsuite/unit/emu_insn_test
check_PROGRAMS += testsuite/unit/emu_branch_test
TESTS += testsuite/unit/emu_branch_test
check_PROGRAMS += testsuite/unit/emu_ring_test
TESTS += testsuite/unit/emu_ring_test
check_PROGRAMS += testsuite/unit/emu_pt_test
TESTS += testsuite/unit/emu_pt_test
check_PROGRAMS += testsuite/unit/emu_bts_test
TESTS += testsuite/unit/emu_bts_test
check_PROGRAMS += testsuite/unit/emu_maps_test
TESTS += testsuite/unit/emu_maps_test
check_PROGRAMS += testsuite/unit/emu_planted_test
TESTS += testsuite/unit/emu_planted_test
check_PROGRAMS += testsuite/unit/emu_walk_test
TESTS += testsuite/unit/emu_walk_test
check_PROGRAMS += testsuite/unit/emu_cache_test
TESTS += testsuite/unit/emu_cache_test
check_PROGRAMS += testsuite/unit/emu_signal_test
TESTS += testsuite/unit/emu_signal_test
check_PROGRAMS += testsuite/unit/emu_thread_test
TESTS += testsuite/unit/emu_thread_test
check_PROGRAMS += testsuite/unit/emu_test
TESTS += testsuite/unit/emu_test
check_PROGRAMS += testsuite/unit/emu_stop_test
TESTS += testsuite/unit/emu_stop_test
check_PROGRAMS += testsuite/unit/emu_read_test
TESTS += testsuite/unit/emu_read_test
check_PROGRAMS += testsuite/unit/emu_alu_test
TESTS += testsuite/unit/emu_alu_test
check_PROGRAMS += testsuite/unit/cc_test
TESTS += testsuite/unit/cc_test
check_PROGRAMS += testsuite/unit/cc_xlate_test
TESTS += testsuite/unit/cc_xlate_test
check_PROGRAMS += testsuite/unit/cc_inject_test
TESTS += testsuite/unit/cc_inject_test
check_PROGRAMS += testsuite/unit/cc_blocks_test
TESTS += testsuite/unit/cc_blocks_test
EMU_UNIT_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) \
	-DEMU_PROGDIR='"$(abs_top_builddir)/testsuite/emu/progs"'
EMU_UNIT_LDADD = $(EMU_DRIVER_LIBS) $(CRITERION_LIBS)
testsuite_unit_emu_insn_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_insn_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_branch_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_branch_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_ring_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_ring_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_pt_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_pt_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_bts_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_bts_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_maps_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_maps_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_planted_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_planted_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_walk_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_walk_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_cache_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_cache_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_signal_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_signal_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_thread_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_thread_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_stop_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_stop_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_read_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_read_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_emu_alu_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_emu_alu_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_cc_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_cc_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_cc_xlate_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_cc_xlate_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_cc_inject_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_cc_inject_test_LDADD = $(EMU_UNIT_LDADD)
testsuite_unit_cc_blocks_test_CFLAGS = $(EMU_UNIT_CFLAGS)
testsuite_unit_cc_blocks_test_LDADD = $(EMU_UNIT_LDADD)

# The benchmark (make bench-emu): instructions traced per second against
# a naive single-step tracer, each shortcut on and off.
check_PROGRAMS += testsuite/emu/progs/bench_work testsuite/bench/emu_bench
testsuite_emu_progs_bench_work_CFLAGS = $(EMU_PROG_CFLAGS)
testsuite_bench_emu_bench_CFLAGS = $(AM_CFLAGS) \
	-DEMU_PROGDIR='"$(abs_top_builddir)/testsuite/emu/progs"'
testsuite_bench_emu_bench_LDADD = $(EMU_DRIVER_LIBS)

.PHONY: bench-emu
bench-emu: testsuite/bench/emu_bench testsuite/emu/progs/bench_work
	./testsuite/bench/emu_bench
