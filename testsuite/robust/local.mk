# Robustness: failures named by their cause, faults, progress, warnings
# (testsuite/robust/), each with real GDB and ptstub.
robust_tests = testsuite/robust/save_errors.sh testsuite/robust/progress.sh \
	testsuite/robust/listen_warning.sh testsuite/robust/sigterm.sh \
	testsuite/robust/faults.sh testsuite/robust/qxfer_kill.sh
TESTS += $(robust_tests)
EXTRA_DIST += $(robust_tests) testsuite/robust/lib.sh \
	testsuite/robust/kill_mid_qxfer.py
