# testsuite/e2e: real GDB through ptstub and through gdbserver, one
# scenario per .gdb file (testsuite/e2e/README.md).

# End-to-end scenarios: each .gdb file is one test, run by run_gdb.py
# against the stub under test and against gdbserver.  `make check
# E2E_STUB=/usr/bin/gdbserver` puts gdbserver in both roles; E2E_EXACT=1
# compares libc and stack addresses too.
TEST_EXTENSIONS += .gdb
GDB_LOG_COMPILER = $(TEST_WATCHDOG) $(PYTHON3) $(srcdir)/testsuite/e2e/run_gdb.py
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
	testsuite/e2e/README.md
clean-local: clean-e2e
clean-e2e:
	-rm -rf testsuite/e2e/out
.PHONY: check-e2e clean-e2e
