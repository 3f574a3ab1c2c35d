# testsuite: the tally of results, the sanitized build and the layer
# check.  Each folder below has its own local.mk.

# `make tally`: the totals of the last `make check`, one closing line.
EXTRA_DIST += testsuite/tally.py
tally:
	@$(PYTHON3) $(srcdir)/testsuite/tally.py $(TEST_LOGS:.log=.trs)
.PHONY: tally

# `make check-sanitize`: the whole make check under
# AddressSanitizer and UBSan, in testsuite/sanitize/ (a build of its own).
EXTRA_DIST += testsuite/check-sanitize.sh
check-sanitize:
	@$(SHELL) $(srcdir)/testsuite/check-sanitize.sh '$(abs_top_srcdir)' \
		'$(abs_top_builddir)/testsuite/sanitize'
clean-local: clean-sanitize
clean-sanitize:
	-rm -rf testsuite/sanitize
.PHONY: check-sanitize clean-sanitize

# `make -s list-VAR`: the value of VAR, e.g. a list of tests
# (check-sanitize.sh asks for them).
list-%:
	@echo $($*)

# The includes against the layer drawing in doc/HACKING.md.
TESTS += testsuite/layers_check.py
EXTRA_DIST += testsuite/layers_check.py doc/HACKING.md

# debian/control's Build-Depends against `./bootstrap --packages build`.
TESTS += testsuite/build_deps_check.py
EXTRA_DIST += testsuite/build_deps_check.py

# `make distcheck-quick`: make distcheck (the tarball built out of tree,
# installed, uninstalled, cleaned) with the tarball's tests cut to the
# unit tests, the emulator's oracle and the layer check, the run CI
# can afford beside the whole suite in the clone (`make distcheck` runs
# everything).
DISTCHECK_TESTS = $(unit_tests) testsuite/emu/emu_oracle_test \
	testsuite/layers_check.py
distcheck-quick:
	$(MAKE) $(AM_MAKEFLAGS) distcheck TESTS='$(DISTCHECK_TESTS)'
.PHONY: distcheck-quick
