# testsuite/exact: the differential oracle (exact_diff) and the fuzzer
# runs built on it: csmith programs, whole runs of Debian programs,
# threads.  A bounded sample runs in `make check`; `make check-exact`
# runs the long series (seeds printed).
check_PROGRAMS += testsuite/exact/exact_diff
testsuite_exact_exact_diff_SOURCES = testsuite/exact/exact_diff.c \
	testsuite/exact/exact_check.c testsuite/exact/exact_check.h
testsuite_exact_exact_diff_LDADD = $(EMU_DRIVER_LIBS)
check_PROGRAMS += testsuite/exact/exact_threads
testsuite_exact_exact_threads_SOURCES = testsuite/exact/exact_threads.c \
	testsuite/exact/exact_check.c testsuite/exact/exact_check.h \
	testsuite/exact/xt_truth.c testsuite/exact/xt_truth.h
testsuite_exact_exact_threads_LDADD = $(EMU_DRIVER_LIBS)

# The thread programs exact_threads runs.
check_PROGRAMS += testsuite/exact/barrier testsuite/exact/spawn \
	testsuite/exact/share
testsuite/exact/barrier testsuite/exact/spawn testsuite/exact/share: \
	CFLAGS = -O2 -g
testsuite_exact_barrier_CFLAGS = -pthread
testsuite_exact_barrier_LDADD = -lpthread
testsuite_exact_spawn_CFLAGS = -pthread
testsuite_exact_spawn_LDADD = -lpthread
testsuite_exact_share_CFLAGS = -pthread
testsuite_exact_share_LDADD = -lpthread
# Bound at load: a lazy PLT slot is resolved by whichever thread comes
# first, and the per-thread comparison needs paths free of timing.
testsuite_exact_share_LDFLAGS = -Wl,-z,now

# make check: a bounded sample (one csmith program, one whole run, the
# 64-thread barrier, a spawn stress, threads sharing a syscall site
# each against its single-step run); make check-exact: the long
# series.  Both print their seed.
TESTS += testsuite/exact/fuzz_sample.sh
EXTRA_DIST += testsuite/exact/fuzz.py testsuite/exact/fuzz_sample.sh \
	testsuite/exact/regress

.PHONY: check-exact
check-exact: testsuite/exact/exact_diff testsuite/exact/exact_threads \
		testsuite/exact/barrier testsuite/exact/spawn \
		testsuite/exact/share
	EXACT_BUILDDIR=$(abs_top_builddir)/testsuite/exact \
	  $(PYTHON3) $(srcdir)/testsuite/exact/fuzz.py --keep $(EXACT_FLAGS)
