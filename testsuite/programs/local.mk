# testsuite/programs: the inferiors of the end-to-end tests.

# Inferiors for the end-to-end tests.  They live in bin/ so that an
# in-tree build leaves them out of git (see .gitignore).
e2e_programs = \
	testsuite/programs/bin/plain \
	testsuite/programs/bin/plain_nopie \
	testsuite/programs/bin/watch \
	testsuite/programs/bin/shlib \
	testsuite/programs/bin/syscall \
	testsuite/programs/bin/threads \
	testsuite/programs/bin/signals \
	testsuite/programs/bin/fork \
	testsuite/programs/bin/exec \
	testsuite/programs/bin/spin \
	testsuite/programs/bin/segv \
	testsuite/programs/bin/btrace \
	testsuite/programs/bin/btrace_threads \
	testsuite/programs/bin/xsave_layout \
	testsuite/programs/bin/debugregs_probe
check_PROGRAMS += $(e2e_programs)

testsuite_programs_bin_plain_SOURCES = testsuite/programs/plain.c
testsuite_programs_bin_plain_nopie_SOURCES = testsuite/programs/plain.c
testsuite_programs_bin_plain_nopie_CFLAGS = $(AM_CFLAGS) -fno-pie
testsuite_programs_bin_plain_nopie_LDFLAGS = -no-pie
testsuite_programs_bin_watch_SOURCES = testsuite/programs/watch.c
testsuite_programs_bin_shlib_SOURCES = testsuite/programs/shlib.c
testsuite_programs_bin_shlib_LDADD = -lm
testsuite_programs_bin_syscall_SOURCES = testsuite/programs/syscall.c
testsuite_programs_bin_threads_SOURCES = testsuite/programs/threads.c
testsuite_programs_bin_threads_CFLAGS = $(AM_CFLAGS) -pthread
testsuite_programs_bin_threads_LDFLAGS = -pthread
testsuite_programs_bin_signals_SOURCES = testsuite/programs/signals.c
testsuite_programs_bin_fork_SOURCES = testsuite/programs/fork.c
testsuite_programs_bin_exec_SOURCES = testsuite/programs/exec.c
testsuite_programs_bin_spin_SOURCES = testsuite/programs/spin.c
testsuite_programs_bin_segv_SOURCES = testsuite/programs/segv.c
testsuite_programs_bin_xsave_layout_SOURCES = testsuite/programs/xsave_layout.c
testsuite_programs_bin_debugregs_probe_SOURCES = \
	testsuite/programs/debugregs_probe.c
testsuite_programs_bin_btrace_SOURCES = testsuite/programs/btrace.c
testsuite_programs_bin_btrace_threads_SOURCES = \
	testsuite/programs/btrace_threads.c
testsuite_programs_bin_btrace_threads_CFLAGS = $(AM_CFLAGS) -pthread
testsuite_programs_bin_btrace_threads_LDFLAGS = -pthread

# Transcripts depend on the code GCC emits: inferiors are always -g -O0,
# whatever CFLAGS the tree is configured with (e.g. -O2 or sanitizers).
testsuite/programs/%: CFLAGS = -g -O0
