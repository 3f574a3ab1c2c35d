# testsuite/bench: `make bench-emu`, `make bench-stub`, `make
# bench-btrace`, `make bench-live` and `make bench-record`.  Benchmarks print
# measured ratios side by side in one run; they are never tests, so
# nothing here goes into TESTS.  See testsuite/bench/README.md.

# The inferior, the emulator-alone baseline, the RSP client that fetches
# traces as GDB does, and libipt's bare block-decoder loop.
check_PROGRAMS += testsuite/bench/bench_prog testsuite/bench/emu_alone \
	testsuite/bench/rsp_bench testsuite/bench/blk_loop
testsuite_bench_bench_prog_CFLAGS = -O1 -g -fno-omit-frame-pointer
testsuite_bench_emu_alone_LDADD = $(EMU_DRIVER_LIBS)
testsuite_bench_rsp_bench_LDADD = $(EMU_DRIVER_LIBS)
testsuite_bench_blk_loop_LDADD = btrace/libptbtrace.la -lipt

# (0) the emulator's engines against a naive single-step tracer and the
# native run, each shortcut on and off (testsuite/emu/progs/bench_work).
check_PROGRAMS += testsuite/bench/emu_bench
testsuite_bench_emu_bench_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_bench_emu_bench_LDADD = $(EMU_DRIVER_LIBS)
bench-emu: testsuite/bench/emu_bench testsuite/emu/progs/bench_work
	./testsuite/bench/emu_bench

EXTRA_DIST += testsuite/bench/README.md testsuite/bench/benchlib.py \
	testsuite/bench/bench_stub.py testsuite/bench/bench_btrace.py \
	testsuite/bench/bench_record.py
bench_env = top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
	GDB='$(GDB)' PTSTUB='$(abs_top_builddir)/ptstub$(EXEEXT)'

# (a) GDB's continue with 1M instructions recorded and (b) a 16 MiB
# trace through qXfer, each against the emulator alone.
bench-stub: ptstub$(EXEEXT) testsuite/bench/bench_prog \
	testsuite/bench/emu_alone testsuite/bench/rsp_bench
	@$(bench_env) $(PYTHON3) $(srcdir)/testsuite/bench/bench_stub.py

# (c) a 10M-instruction trace's function-call history: ptbtrace, GDB
# 13.1 and libipt's bare block loop.
bench-btrace: ptstub$(EXEEXT) ptbtrace$(EXEEXT) testsuite/bench/bench_prog \
	testsuite/bench/blk_loop
	@$(bench_env) $(PYTHON3) $(srcdir)/testsuite/bench/bench_btrace.py

# (d) ptbtrace info on a live stub beside GDB's fetch and decode of the
# same trace.
EXTRA_DIST += testsuite/bench/bench_live.py
bench-live: ptstub$(EXEEXT) ptbtrace$(EXEEXT) testsuite/bench/bench_prog
	@$(bench_env) $(PYTHON3) $(srcdir)/testsuite/bench/bench_live.py

# (d) the flight recorder against the native run of the same program,
# then whole programs (gzip, python3, sqlite3, sort, bench_prog) on
# both engines, then a service's request latency with the recorder
# attached and without.
EXTRA_DIST += testsuite/bench/bench_record_programs.py \
	testsuite/bench/record_work.py testsuite/bench/bench_service.py
bench-record: ptstub$(EXEEXT) ptbtrace$(EXEEXT) testsuite/bench/bench_prog \
	testsuite/rec/service testsuite/rec/service_client
	@$(bench_env) $(PYTHON3) $(srcdir)/testsuite/bench/bench_record.py
	@$(bench_env) $(PYTHON3) $(srcdir)/testsuite/bench/bench_record_programs.py
	@$(bench_env) $(PYTHON3) $(srcdir)/testsuite/bench/bench_service.py

# (e) ptstub's resident memory over 10,000 breakpoint stops and 1,000
# btrace reads in one GDB session.
EXTRA_DIST += testsuite/bench/bench_load.py
bench-load: ptstub$(EXEEXT) testsuite/bench/bench_prog
	@$(bench_env) $(PYTHON3) $(srcdir)/testsuite/bench/bench_load.py

clean-local: clean-bench
clean-bench:
	-rm -rf testsuite/bench/out
.PHONY: bench-emu bench-stub bench-btrace bench-live bench-record bench-load \
	clean-bench
