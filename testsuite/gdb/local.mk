# `make check-gdb`: GDB's own gdb.btrace and gdb.server suites (GDB 13.1,
# from Debian's gdb source package, fetched on first use) through ptstub
# and through gdbserver on both gdbserver boards, judged against
# testsuite/gdb/expectations.  Not part of `make check`; see
# testsuite/gdb/README.md.  GDBTS_* variables pick subsets.
check-gdb: ptstub$(EXEEXT)
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  GDB='$(GDB)' GDBSERVER='$(GDBSERVER)' PYTHON3='$(PYTHON3)' \
	  PTSTUB='$(abs_top_builddir)/ptstub$(EXEEXT)' \
	  $(SHELL) $(srcdir)/testsuite/gdb/check-gdb.sh || \
	  { rc=$$?; test $$rc = 77 || exit $$rc; }

# The runs and the configured testsuite; the fetched source stays.
clean-gdbts:
	-rm -rf testsuite/gdb/out testsuite/gdb/build

EXTRA_DIST += testsuite/gdb/README.md testsuite/gdb/expectations \
	testsuite/gdb/check-gdb.sh testsuite/gdb/fetch-gdb-source.sh \
	testsuite/gdb/sumcheck.py
.PHONY: check-gdb clean-gdbts
