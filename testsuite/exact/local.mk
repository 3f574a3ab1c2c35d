# testsuite/exact: the differential oracle (exact_diff) and the fuzzer
# runs built on it: csmith programs, whole runs of Debian programs,
# threads.  A bounded sample runs in `make check`; `make check-exact`
# runs the long series (seeds printed).
check_PROGRAMS += testsuite/exact/exact_diff
testsuite_exact_exact_diff_SOURCES = testsuite/exact/exact_diff.c \
	testsuite/exact/exact_check.c testsuite/exact/exact_check.h
testsuite_exact_exact_diff_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
testsuite_exact_exact_diff_LDADD = $(EMU_DRIVER_LIBS)
check_PROGRAMS += testsuite/exact/exact_threads
testsuite_exact_exact_threads_SOURCES = testsuite/exact/exact_threads.c \
	testsuite/exact/exact_check.c testsuite/exact/exact_check.h
testsuite_exact_exact_threads_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
testsuite_exact_exact_threads_LDADD = $(EMU_DRIVER_LIBS)
