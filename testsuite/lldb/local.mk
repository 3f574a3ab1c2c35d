# LLDB, the second client: each .lldb scenario is one test, run by
# run_lldb.py with lldb-22 against lldb-server-22 (the reference) and
# against ptstub; trace scenarios run ptstub alone against single-step
# ground truth (testsuite/lldb/README.md).
TEST_EXTENSIONS += .lldb
LLDB_LOG_COMPILER = $(TEST_WATCHDOG) $(PYTHON3) $(srcdir)/testsuite/lldb/run_lldb.py
AM_LLDB_LOG_FLAGS = --lldb '$(LLDB)' --reference '$(LLDB_SERVER)'

lldb_scenarios = \
	testsuite/lldb/scenarios/basics.lldb \
	testsuite/lldb/scenarios/threads.lldb \
	testsuite/lldb/scenarios/attach.lldb \
	testsuite/lldb/scenarios/expressions.lldb \
	testsuite/lldb/scenarios/trace_thread.lldb \
	testsuite/lldb/scenarios/trace_process.lldb \
	testsuite/lldb/scenarios/trace_save.lldb \
	testsuite/lldb/scenarios/trace_export.lldb \
	testsuite/lldb/scenarios/trace_errors.lldb
TESTS += $(lldb_scenarios)

# `make check-lldb`: only these.
check-lldb: ptstub$(EXEEXT) ptbtrace$(EXEEXT) $(e2e_programs)
	@$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(lldb_scenarios)' \
	  check_PROGRAMS='$(e2e_programs)'

lldb_ground_truth = \
	testsuite/lldb/scenarios/ground_truth/compute.lldb \
	testsuite/lldb/scenarios/then/trace_save.lldb \
	testsuite/lldb/scenarios/then/trace_export.lldb
EXTRA_DIST += testsuite/lldb/run_lldb.py testsuite/lldb/lldb_helpers.py \
	testsuite/lldb/README.md $(lldb_scenarios) $(lldb_ground_truth)
clean-local: clean-lldb
clean-lldb:
	-rm -rf testsuite/lldb/out
.PHONY: check-lldb clean-lldb
