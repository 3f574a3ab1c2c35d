# `make check-gdb`: GDB's own gdb.btrace and gdb.server suites (GDB 13.1,
# from Debian's gdb source package, fetched on first use), and the gdb.base
# and gdb.threads files testsuite/gdb/picks lists, through ptstub
# and through gdbserver on both gdbserver boards, judged against
# testsuite/gdb/expectations.  Not part of `make check`; see
# testsuite/gdb/README.md.  GDBTS_* variables pick subsets.
check-gdb: ptstub$(EXEEXT)
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  GDB='$(GDB)' GDBSERVER='$(GDBSERVER)' PYTHON3='$(PYTHON3)' \
	  PTSTUB='$(abs_top_builddir)/ptstub$(EXEEXT)' \
	  $(SHELL) $(srcdir)/testsuite/gdb/check-gdb.sh || \
	  { rc=$$?; test $$rc = 77 || exit $$rc; }

# `make check-gdb-full`: gdb.base, gdb.threads, gdb.python and gdb.server
# whole, through both stubs on both boards, ptstub judged test by test
# against gdbserver (hours: not for CI; four runtests at a time, each
# over a part of a suite).  GDBTS_* variables apply.
check-gdb-full: ptstub$(EXEEXT) testsuite/programs/bin/debugregs_probe$(EXEEXT)
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  GDB='$(GDB)' GDBSERVER='$(GDBSERVER)' PYTHON3='$(PYTHON3)' \
	  PTSTUB='$(abs_top_builddir)/ptstub$(EXEEXT)' GDBTS_FULL=1 \
	  GDBTS_LIMIT=$${GDBTS_LIMIT:-3600} GDBTS_JOBS=$${GDBTS_JOBS:-4} \
	  $(SHELL) $(srcdir)/testsuite/gdb/check-gdb.sh || \
	  { rc=$$?; test $$rc = 77 || exit $$rc; }

# The runs and the configured testsuite; the fetched source stays.
clean-gdbts:
	-rm -rf testsuite/gdb/out testsuite/gdb/out-full testsuite/gdb/build

EXTRA_DIST += testsuite/gdb/README.md testsuite/gdb/expectations \
	testsuite/gdb/check-gdb.sh testsuite/gdb/fetch-gdb-source.sh \
	testsuite/gdb/sumcheck.py testsuite/gdb/picks
.PHONY: check-gdb check-gdb-full clean-gdbts
