# Robustness: failures named by their cause, faults, progress, warnings
# (testsuite/robust/), each with real GDB and ptstub.
robust_tests = testsuite/robust/save_errors.sh testsuite/robust/progress.sh \
	testsuite/robust/listen_warning.sh testsuite/robust/sigterm.sh \
	testsuite/robust/faults.sh testsuite/robust/qxfer_kill.sh \
	testsuite/robust/churn.sh testsuite/robust/churn_traced.sh \
	testsuite/robust/no_expand.sh testsuite/robust/spawn_traced.sh \
	testsuite/robust/leader_exit.sh testsuite/robust/fork_next.sh
TESTS += $(robust_tests)
EXTRA_DIST += $(robust_tests) testsuite/robust/lib.sh \
	testsuite/robust/kill_mid_qxfer.py

# The fault tests' inferior: plain code whatever the tree's CFLAGS.
check_PROGRAMS += testsuite/robust/churn
testsuite_robust_churn_SOURCES = testsuite/robust/churn.c
testsuite_robust_churn_CFLAGS = -pthread
testsuite_robust_churn_LDFLAGS = -pthread
check_PROGRAMS += testsuite/robust/leader_exit
testsuite_robust_leader_exit_SOURCES = testsuite/robust/leader_exit.c
testsuite_robust_leader_exit_CFLAGS = -pthread
testsuite_robust_leader_exit_LDFLAGS = -pthread
check_PROGRAMS += testsuite/robust/fork_next
testsuite_robust_fork_next_SOURCES = testsuite/robust/fork_next.c
testsuite_robust_fork_next_CFLAGS = -pthread
testsuite_robust_fork_next_LDFLAGS = -pthread
testsuite/robust/%: CFLAGS = -g -O0
