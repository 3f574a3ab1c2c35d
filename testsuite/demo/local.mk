# testsuite/demo: `./bootstrap demo`.

# The demo's inferior is built only by `make demo`.
EXTRA_PROGRAMS = testsuite/programs/bin/demo
testsuite_programs_bin_demo_SOURCES = testsuite/demo/demo.c
CLEANFILES += testsuite/programs/bin/demo

testsuite/demo/%: CFLAGS = -g -O0
EXTRA_DIST += testsuite/demo/demo.gdb

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
.PHONY: demo
