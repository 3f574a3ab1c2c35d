# testsuite: inferior programs, end-to-end tests driving real GDB, the
# tally of results, and `make demo`.

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

# The demo's inferior is built only by `make demo`.
EXTRA_PROGRAMS = testsuite/programs/bin/demo
testsuite_programs_bin_demo_SOURCES = testsuite/demo/demo.c
CLEANFILES += testsuite/programs/bin/demo

# Transcripts depend on the code GCC emits: inferiors are always -g -O0,
# whatever CFLAGS the tree is configured with (e.g. -O2 or sanitizers).
testsuite/programs/%: CFLAGS = -g -O0
testsuite/demo/%: CFLAGS = -g -O0

# End-to-end scenarios: each .gdb file is one test, run by run_gdb.py
# against the stub under test and against gdbserver.  `make check
# E2E_STUB=/usr/bin/gdbserver` puts gdbserver in both roles; E2E_EXACT=1
# compares libc and stack addresses too.
TEST_EXTENSIONS += .gdb
GDB_LOG_COMPILER = $(PYTHON3) $(srcdir)/testsuite/e2e/run_gdb.py
AM_GDB_LOG_FLAGS = $(if $(E2E_STUB),--stub $(E2E_STUB)) \
	$(if $(E2E_EXACT),--exact-addresses)

e2e_scenarios = \
	testsuite/e2e/scenarios/abspath.gdb \
	testsuite/e2e/scenarios/all_registers.gdb \
	testsuite/e2e/scenarios/attach.gdb \
	testsuite/e2e/scenarios/backtrace_shlib.gdb \
	testsuite/e2e/scenarios/breakpoints.gdb \
	testsuite/e2e/scenarios/dprintf_agent.gdb \
	testsuite/e2e/scenarios/hw_breakpoints.gdb \
	testsuite/e2e/scenarios/btrace_bts_record.gdb \
	testsuite/e2e/scenarios/btrace_bts_signal.gdb \
	testsuite/e2e/scenarios/btrace_buffer_size.gdb \
	testsuite/e2e/scenarios/btrace_call_history.gdb \
	testsuite/e2e/scenarios/btrace_deep.gdb \
	testsuite/e2e/scenarios/btrace_errors.gdb \
	testsuite/e2e/scenarios/btrace_fork.gdb \
	testsuite/e2e/scenarios/btrace_goto.gdb \
	testsuite/e2e/scenarios/btrace_insn_history.gdb \
	testsuite/e2e/scenarios/btrace_new_thread.gdb \
	testsuite/e2e/scenarios/btrace_pt_record.gdb \
	testsuite/e2e/scenarios/btrace_rep_jump.gdb \
	testsuite/e2e/scenarios/btrace_reverse.gdb \
	testsuite/e2e/scenarios/btrace_signal_syscall.gdb \
	testsuite/e2e/scenarios/btrace_stops.gdb \
	testsuite/e2e/scenarios/btrace_stops_watch.gdb \
	testsuite/e2e/scenarios/btrace_threads.gdb \
	testsuite/e2e/scenarios/btrace_threads_exit.gdb \
	testsuite/e2e/scenarios/btrace_wrap.gdb \
	testsuite/e2e/scenarios/exec.gdb \
	testsuite/e2e/scenarios/fork_child.gdb \
	testsuite/e2e/scenarios/fork_parent.gdb \
	testsuite/e2e/scenarios/monitor.gdb \
	testsuite/e2e/scenarios/multi_attach.gdb \
	testsuite/e2e/scenarios/multi_inferiors.gdb \
	testsuite/e2e/scenarios/multi_reattach.gdb \
	testsuite/e2e/scenarios/multi_rerun.gdb \
	testsuite/e2e/scenarios/multi_restart.gdb \
	testsuite/e2e/scenarios/nonstop_step.gdb \
	testsuite/e2e/scenarios/nonstop_threads.gdb \
	testsuite/e2e/scenarios/nopie.gdb \
	testsuite/e2e/scenarios/osdata.gdb \
	testsuite/e2e/scenarios/pie.gdb \
	testsuite/e2e/scenarios/registers.gdb \
	testsuite/e2e/scenarios/sharedlibrary.gdb \
	testsuite/e2e/scenarios/siginfo.gdb \
	testsuite/e2e/scenarios/signals.gdb \
	testsuite/e2e/scenarios/stepi_syscall.gdb \
	testsuite/e2e/scenarios/stdio.gdb \
	testsuite/e2e/scenarios/stepping.gdb \
	testsuite/e2e/scenarios/target_info.gdb \
	testsuite/e2e/scenarios/threads.gdb \
	testsuite/e2e/scenarios/watchpoints.gdb \
	testsuite/e2e/scenarios/wrapper.gdb \
	testsuite/e2e/scenarios/writes_and_calls.gdb
e2e_tests = testsuite/e2e/normalize_test.py testsuite/e2e/tally_test.py \
	$(e2e_scenarios)
TESTS += $(e2e_tests)

# `make check-e2e`: only these tests, and only what they need built (no
# ptstub when E2E_STUB names another stub).
check-e2e: $(if $(E2E_STUB),,ptstub$(EXEEXT)) $(e2e_programs)
	@$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(e2e_tests)' \
	  check_PROGRAMS='$(e2e_programs)'

e2e_modules = \
	testsuite/e2e/run_gdb.py \
	testsuite/e2e/scenario.py \
	testsuite/e2e/processes.py \
	testsuite/e2e/stub.py \
	testsuite/e2e/gdb_session.py \
	testsuite/e2e/normalize.py \
	testsuite/e2e/compare.py \
	testsuite/e2e/transcript.py \
	testsuite/e2e/stepi_count.py
# Scripts that btrace scenarios run against gdbserver for ground truth
# (named by their `ground-truth:` lines; not tests themselves).
e2e_ground_truth = \
	testsuite/e2e/scenarios/ground_truth/btrace.gdb \
	testsuite/e2e/scenarios/ground_truth/btrace_threads.gdb
EXTRA_DIST += $(e2e_modules) $(e2e_scenarios) $(e2e_ground_truth) \
	testsuite/e2e/normalize_test.py testsuite/e2e/tally_test.py \
	testsuite/tally.py \
	testsuite/demo/demo.gdb testsuite/e2e/README.md
clean-local: clean-e2e
clean-e2e:
	-rm -rf testsuite/e2e/out

# `make demo`: real GDB against ptstub on the demo program, printed as GDB
# prints it; non-zero if GDB reports an error.  DEMO_STUB picks another
# stub (e.g. /usr/bin/gdbserver, to see what the debugging part should
# look like; its record btrace part needs Intel PT, which gdbserver cannot
# use on these machines).
DEMO_STUB = $(abs_top_builddir)/ptstub$(EXEEXT)
demo: ptstub$(EXEEXT) testsuite/programs/bin/demo$(EXEEXT)
	@top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
	  $(PYTHON3) $(srcdir)/testsuite/e2e/run_gdb.py --show \
	  --gdb '$(GDB)' --stub '$(DEMO_STUB)' $(srcdir)/testsuite/demo/demo.gdb

# `make tally`: the totals of the last `make check`, one closing line.
tally:
	@$(PYTHON3) $(srcdir)/testsuite/tally.py $(TEST_LOGS:.log=.trs)
.PHONY: demo clean-e2e tally check-e2e

# `make check-sanitize`: unit tests and the emulator's oracle under
# AddressSanitizer and UBSan, in testsuite/sanitize/ (a build of its own).
EXTRA_DIST += testsuite/check-sanitize.sh
check-sanitize:
	@$(SHELL) $(srcdir)/testsuite/check-sanitize.sh '$(abs_top_srcdir)' \
		'$(abs_top_builddir)/testsuite/sanitize'
clean-local: clean-sanitize
clean-sanitize:
	-rm -rf testsuite/sanitize
.PHONY: check-sanitize clean-sanitize

# The includes against the layer drawing in doc/HACKING.md.
TESTS += testsuite/layers_check.py
EXTRA_DIST += testsuite/layers_check.py doc/HACKING.md
