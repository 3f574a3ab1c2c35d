# testsuite/valgrind: `make check-valgrind`, the end-to-end scenarios
# once with ptstub under valgrind's memcheck (slow; not in CI).  Reports
# in the transcripts, the run's output in testsuite/valgrind/check.out.
EXTRA_DIST += testsuite/valgrind/check.sh testsuite/valgrind/stub.sh
check-valgrind: ptstub$(EXEEXT) $(e2e_programs)
	@$(SHELL) $(srcdir)/testsuite/valgrind/check.sh '$(abs_top_builddir)' \
		'$(abs_top_srcdir)'
clean-local: clean-valgrind
clean-valgrind:
	-rm -rf testsuite/valgrind/check.out \
		testsuite/valgrind/ptstub
.PHONY: check-valgrind clean-valgrind
