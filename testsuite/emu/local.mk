# testsuite/emu: the emulator's oracle (every corpus program traced by
# both engines and compared with single-step), its corpus, and the
# driver the oracle, the engine's unit tests and the benchmarks share.
EMU_TEST_CPPFLAGS = $(AM_CPPFLAGS) \
	-DEMU_PROGDIR='"$(abs_top_builddir)/testsuite/emu/progs"'

check_LIBRARIES += testsuite/emu/libemudriver.a
testsuite_emu_libemudriver_a_SOURCES = testsuite/emu/emu_driver.c \
	testsuite/emu/emu_driver.h
EMU_DRIVER_LIBS = testsuite/emu/libemudriver.a $(NAT_LIBS)
EXTRA_DIST += testsuite/emu/emu_test_main.h

check_PROGRAMS += testsuite/emu/emu_oracle_test
TESTS += testsuite/emu/emu_oracle_test
testsuite_emu_emu_oracle_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_emu_emu_oracle_test_LDADD = $(EMU_DRIVER_LIBS) $(CRITERION_LIBS)

# The corpus.  Inferiors take no flags from the tree's configuration: a
# sanitized build (make check-sanitize) must trace the same programs.
EMU_PROG_CFLAGS = -O2 -g -fno-omit-frame-pointer -mno-red-zone
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
	testsuite/emu/progs/hot_timer testsuite/emu/progs/workers \
	testsuite/emu/progs/collide
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
testsuite_emu_progs_workers_CFLAGS = $(EMU_PROG_CFLAGS) -pthread
testsuite_emu_progs_workers_LDADD = -lpthread
testsuite_emu_progs_collide_CFLAGS = $(EMU_PROG_CFLAGS)

# The benchmarks' workload (make bench-emu).
check_PROGRAMS += testsuite/emu/progs/bench_work
testsuite_emu_progs_bench_work_CFLAGS = $(EMU_PROG_CFLAGS)
