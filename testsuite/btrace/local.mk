# testsuite/btrace: libptbtrace's corpus of synthetic traces, the traced
# programs whose real addresses they follow, and the tool's tests
# against its command line, GDB, memory, a live stub and perf.
check_LIBRARIES += testsuite/btrace/libbtcorpus.a
testsuite_btrace_libbtcorpus_a_SOURCES = testsuite/btrace/bt_corpus.c \
	testsuite/btrace/bt_corpus.h testsuite/btrace/bt_corpus_main.h \
	testsuite/btrace/bt_corpus_expect.h testsuite/btrace/bt_fake_stub.h

check_PROGRAMS += testsuite/btrace/bt_mkcorpus
testsuite_btrace_bt_mkcorpus_LDADD = $(BT_UNIT_LIBS)

# The traced inferiors take no flags from the tree's configuration, so a
# sanitized build (make check-sanitize) records the same code.
testsuite/btrace/bt_prog testsuite/btrace/bt_asm testsuite/btrace/bt_libc: CFLAGS =
check_PROGRAMS += testsuite/btrace/bt_prog testsuite/btrace/bt_asm \
	testsuite/btrace/bt_libc
testsuite_btrace_bt_prog_CFLAGS = -g -fno-inline
# The GDB oracle's libc calls (gdb_oracle.sh).
testsuite_btrace_bt_libc_CFLAGS = -g -O0 -fno-builtin

# The tool against the corpus, through its command line; against GDB on
# traces recorded through ptstub; its memory on a 10M-instruction trace;
# and reading a live stub.
btrace_tests = testsuite/btrace/ptbtrace_cli.sh testsuite/btrace/gdb_oracle.sh \
	testsuite/btrace/memory_check.sh testsuite/btrace/live_info.sh \
	testsuite/btrace/progress_line.sh
TESTS += $(btrace_tests)
EXTRA_DIST += $(btrace_tests)

# perf reads ptbtrace's perf.data export: perf's decode of emulated traces
# against single-step ground truth, its call/return and report views
# against ptbtrace's, export-to-sqlite.py, and bad input.
check_PROGRAMS += testsuite/btrace/bt_perf_record
testsuite_btrace_bt_perf_record_LDADD = btrace/libptbtrace_int.la $(EMU_DRIVER_LIBS)
TESTS += testsuite/btrace/perf_export.sh
EXTRA_DIST += testsuite/btrace/perf_export.sh

# The installed library's exports against its header.
TESTS += testsuite/btrace/abi_check.py
EXTRA_DIST += testsuite/btrace/abi_check.py

# make install into a temporary DESTDIR, the example built there with
# pkg-config, and make uninstall.
TESTS += testsuite/btrace/install_check.sh
EXTRA_DIST += testsuite/btrace/install_check.sh doc/examples/call_history.c
