# libptbtrace: the client-side btrace library, and the ptbtrace tool.
lib_LTLIBRARIES += btrace/libptbtrace.la
include_HEADERS += btrace/ptbtrace.h
btrace_libptbtrace_la_SOURCES = \
	btrace/ptbtrace.h \
	btrace/bt_error.c \
	btrace/bt_bundle_format.h \
	btrace/bt_bundle_write.c \
	btrace/bt_bundle.c btrace/bt_bundle_int.h btrace/bt_bundle_v2.c \
	btrace/bt_exec_span.c \
	btrace/bt_symtab.c btrace/bt_symtab.h btrace/bt_symtab_int.h \
	btrace/bt_symtab_dwarf.c \
	btrace/bt_symtab_cu.c \
	btrace/bt_symtab_lines.c \
	btrace/bt_line_header.c btrace/bt_line_header.h \
	btrace/bt_inflate.c btrace/bt_inflate.h \
	btrace/bt_plt.c btrace/bt_plt.h \
	btrace/bt_debuglink.c btrace/bt_debuglink.h \
	btrace/bt_msym_name.c btrace/bt_msym_name.h \
	btrace/bt_image.c btrace/bt_image.h \
	btrace/bt_wide.c btrace/bt_wide.h \
	btrace/bt_segs.c btrace/bt_segs.h \
	btrace/bt_ftrace.c btrace/bt_ftrace.h btrace/bt_seg.h \
	btrace/bt_build.c btrace/bt_decode.h \
	btrace/bt_ftrace_gaps.c \
	btrace/bt_pt_decode.c \
	btrace/bt_blockq.c btrace/bt_blockq.h \
	btrace/bt_bts_decode.c \
	btrace/bt_history.c btrace/bt_history.h \
	btrace/bt_history_args.c \
	btrace/bt_insn_history.c \
	btrace/bt_replay.c \
	btrace/bt_disasm.c btrace/bt_disasm.h \
	btrace/bt_source.c btrace/bt_source.h \
	btrace/bt_packets.c btrace/bt_packets.h \
	btrace/bt_export.c \
	btrace/bt_export_lldb.c \
	btrace/bt_export_perf.c btrace/bt_export_perf.h \
	btrace/bt_perf_data.c btrace/bt_perf_data.h \
	btrace/bt_xml.c \
	btrace/bt_rsp.c btrace/bt_rsp.h \
	btrace/bt_live.c
btrace_libptbtrace_la_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(LIBDW_CFLAGS) \
	$(LIBDEFLATE_CFLAGS) $(EXPAT_CFLAGS) $(JANSSON_CFLAGS)
btrace_libptbtrace_la_LIBADD = -lipt -lZydis -lopcodes $(LIBDW_LIBS) $(LIBELF_LIBS) \
	$(LIBDEFLATE_LIBS) $(EXPAT_LIBS) $(JANSSON_LIBS) -lpthread

# The bundle writer and reader alone (libc and libdeflate), for the stub's
# `monitor btrace save`, `ptstub record` and `ptstub --postmortem`.
noinst_LIBRARIES += btrace/libptbundle.a
btrace_libptbundle_a_SOURCES = btrace/bt_bundle_write.c btrace/ptbtrace.h \
	btrace/bt_bundle_format.h btrace/bt_bundle.c btrace/bt_bundle_int.h \
	btrace/bt_bundle_v2.c btrace/bt_error.c
btrace_libptbundle_a_CFLAGS = $(AM_CFLAGS) $(LIBDEFLATE_CFLAGS)

bin_PROGRAMS += ptbtrace
ptbtrace_SOURCES = btrace/ptbtrace_main.c
ptbtrace_LDADD = btrace/libptbtrace.la

# Tests: criterion programs built with the sanitizers, linked with the
# library's sources built the same way, and the traced program whose real
# addresses the synthetic traces follow.
BT_ASAN = -fsanitize=address,undefined -fno-omit-frame-pointer
BT_SANITIZED_CC_FLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(LIBELF_CFLAGS) $(BT_ASAN)
BT_SANITIZED_LD_FLAGS = $(BT_ASAN)
BT_TEST_LIBS = testsuite/btrace/libbtcorpus.a btrace/libptbtrace_asan.a \
	-lipt -lZydis -lopcodes $(LIBDW_LIBS) $(LIBELF_LIBS) $(LIBDEFLATE_LIBS) \
	$(EXPAT_LIBS) $(JANSSON_LIBS) -lpthread \
	$(CRITERION_LIBS)

check_LIBRARIES += btrace/libptbtrace_asan.a testsuite/btrace/libbtcorpus.a
btrace_libptbtrace_asan_a_SOURCES = $(btrace_libptbtrace_la_SOURCES)
btrace_libptbtrace_asan_a_CFLAGS = $(btrace_libptbtrace_la_CFLAGS) $(BT_ASAN)
testsuite_btrace_libbtcorpus_a_SOURCES = testsuite/btrace/bt_corpus.c \
	testsuite/btrace/bt_corpus.h testsuite/btrace/bt_corpus_main.h \
	testsuite/btrace/bt_corpus_expect.h testsuite/btrace/bt_fake_stub.h
testsuite_btrace_libbtcorpus_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) \
	$(BT_ASAN)

check_PROGRAMS += testsuite/btrace/bt_prog
testsuite_btrace_bt_prog_SOURCES = testsuite/btrace/bt_prog.c
testsuite_btrace_bt_prog_CFLAGS = -g -fno-inline
# The traced inferiors take no flags from the tree's configuration, so a
# sanitized build (make check-sanitize) records the same code.
testsuite/btrace/bt_prog testsuite/btrace/bt_asm testsuite/btrace/bt_libc: CFLAGS =

# The GDB oracle's libc calls (gdb_oracle.sh).
check_PROGRAMS += testsuite/btrace/bt_libc
testsuite_btrace_bt_libc_SOURCES = testsuite/btrace/bt_libc.c
testsuite_btrace_bt_libc_CFLAGS = -g -O0 -fno-builtin

check_PROGRAMS += testsuite/btrace/bt_asm
testsuite_btrace_bt_asm_SOURCES = testsuite/btrace/bt_asm.c

check_PROGRAMS += testsuite/btrace/bt_mkcorpus
testsuite_btrace_bt_mkcorpus_SOURCES = testsuite/btrace/bt_mkcorpus.c
testsuite_btrace_bt_mkcorpus_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_btrace_bt_mkcorpus_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_btrace_bt_mkcorpus_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_bundle_test
TESTS += testsuite/unit/bt_bundle_test
testsuite_unit_bt_bundle_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_bundle_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_bundle_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_bundle_v2_test
TESTS += testsuite/unit/bt_bundle_v2_test
testsuite_unit_bt_bundle_v2_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_bundle_v2_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_bundle_v2_test_LDADD = $(BT_TEST_LIBS)
check_PROGRAMS += testsuite/unit/bt_exec_span_test
TESTS += testsuite/unit/bt_exec_span_test
testsuite_unit_bt_exec_span_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_exec_span_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_exec_span_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_bundle_write_test
TESTS += testsuite/unit/bt_bundle_write_test
testsuite_unit_bt_bundle_write_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_bundle_write_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_bundle_write_test_LDADD = $(CRITERION_LIBS) $(LIBDEFLATE_LIBS)
# The writer alone, as the stub links it, but sanitized.
testsuite_unit_bt_bundle_write_test_SOURCES = \
	testsuite/unit/bt_bundle_write_test.c btrace/bt_bundle_write.c

check_PROGRAMS += testsuite/unit/bt_image_test
TESTS += testsuite/unit/bt_image_test
testsuite_unit_bt_image_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_image_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_image_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_blockq_test
TESTS += testsuite/unit/bt_blockq_test
testsuite_unit_bt_blockq_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_blockq_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_blockq_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_inflate_test
TESTS += testsuite/unit/bt_inflate_test
testsuite_unit_bt_inflate_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS) $(LIBDW_CFLAGS)
testsuite_unit_bt_inflate_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_inflate_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_wide_test
TESTS += testsuite/unit/bt_wide_test
testsuite_unit_bt_wide_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_wide_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_wide_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_segs_test
TESTS += testsuite/unit/bt_segs_test
testsuite_unit_bt_segs_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_segs_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_segs_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_ftrace_test
TESTS += testsuite/unit/bt_ftrace_test
testsuite_unit_bt_ftrace_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_ftrace_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_ftrace_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_build_test
TESTS += testsuite/unit/bt_build_test
testsuite_unit_bt_build_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_build_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_build_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_history_test
TESTS += testsuite/unit/bt_history_test
testsuite_unit_bt_history_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_history_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_history_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_history_args_test
TESTS += testsuite/unit/bt_history_args_test
testsuite_unit_bt_history_args_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_history_args_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_history_args_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_packets_test
TESTS += testsuite/unit/bt_packets_test
testsuite_unit_bt_packets_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_packets_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_packets_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_export_test
TESTS += testsuite/unit/bt_export_test
testsuite_unit_bt_export_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_export_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_export_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_xml_test
TESTS += testsuite/unit/bt_xml_test
testsuite_unit_bt_xml_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_xml_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_xml_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_msym_name_test
TESTS += testsuite/unit/bt_msym_name_test
testsuite_unit_bt_msym_name_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_msym_name_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_msym_name_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_debuglink_test
TESTS += testsuite/unit/bt_debuglink_test
testsuite_unit_bt_debuglink_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_debuglink_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_debuglink_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_symtab_dwarf_test
TESTS += testsuite/unit/bt_symtab_dwarf_test
testsuite_unit_bt_symtab_dwarf_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_symtab_dwarf_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_symtab_dwarf_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_symtab_cu_test
TESTS += testsuite/unit/bt_symtab_cu_test
testsuite_unit_bt_symtab_cu_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS) $(LIBDW_CFLAGS)
testsuite_unit_bt_symtab_cu_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_symtab_cu_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_line_header_test
TESTS += testsuite/unit/bt_line_header_test
testsuite_unit_bt_line_header_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_line_header_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_line_header_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_symtab_lines_test
TESTS += testsuite/unit/bt_symtab_lines_test
testsuite_unit_bt_symtab_lines_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_symtab_lines_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_symtab_lines_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_plt_test
TESTS += testsuite/unit/bt_plt_test
testsuite_unit_bt_plt_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_plt_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_plt_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_pt_decode_test
TESTS += testsuite/unit/bt_pt_decode_test
testsuite_unit_bt_pt_decode_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_pt_decode_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_pt_decode_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_ftrace_gaps_test
TESTS += testsuite/unit/bt_ftrace_gaps_test
testsuite_unit_bt_ftrace_gaps_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_ftrace_gaps_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_ftrace_gaps_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_bts_decode_test
TESTS += testsuite/unit/bt_bts_decode_test
testsuite_unit_bt_bts_decode_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_bts_decode_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_bts_decode_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_error_test
TESTS += testsuite/unit/bt_error_test
testsuite_unit_bt_error_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_error_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_error_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_symtab_test
TESTS += testsuite/unit/bt_symtab_test
testsuite_unit_bt_symtab_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_symtab_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_symtab_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_insn_history_test
TESTS += testsuite/unit/bt_insn_history_test
testsuite_unit_bt_insn_history_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_insn_history_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_insn_history_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_disasm_test
TESTS += testsuite/unit/bt_disasm_test
testsuite_unit_bt_disasm_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_disasm_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_disasm_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_source_test
TESTS += testsuite/unit/bt_source_test
testsuite_unit_bt_source_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_source_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_source_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_replay_test
TESTS += testsuite/unit/bt_replay_test
testsuite_unit_bt_replay_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_replay_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_replay_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_rsp_test
TESTS += testsuite/unit/bt_rsp_test
testsuite_unit_bt_rsp_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_rsp_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_rsp_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_live_test
TESTS += testsuite/unit/bt_live_test
testsuite_unit_bt_live_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_live_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_live_test_LDADD = $(BT_TEST_LIBS)

# The tool against the corpus, through its command line; against GDB on
# traces recorded through ptstub; its memory on a 10M-instruction trace;
# and reading a live stub.
TESTS += testsuite/btrace/ptbtrace_cli.sh testsuite/btrace/gdb_oracle.sh \
	testsuite/btrace/memory_check.sh testsuite/btrace/live_info.sh \
	testsuite/btrace/progress_line.sh
EXTRA_DIST += testsuite/btrace/ptbtrace_cli.sh testsuite/btrace/gdb_oracle.sh \
	testsuite/btrace/memory_check.sh testsuite/btrace/live_info.sh \
	testsuite/btrace/progress_line.sh

check_PROGRAMS += testsuite/unit/bt_export_lldb_test
TESTS += testsuite/unit/bt_export_lldb_test
testsuite_unit_bt_export_lldb_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_export_lldb_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_export_lldb_test_LDADD = $(BT_TEST_LIBS)
# perf reads ptbtrace's perf.data export: perf's decode of emulated traces
# against single-step ground truth, its call/return and report views
# against ptbtrace's, export-to-sqlite.py, and bad input.
check_PROGRAMS += testsuite/btrace/bt_perf_record
testsuite_btrace_bt_perf_record_SOURCES = testsuite/btrace/bt_perf_record.c \
	nat/maps.c nat/maps.h btrace/bt_export_perf.c btrace/bt_perf_data.c \
	btrace/bt_error.c
testsuite_btrace_bt_perf_record_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
testsuite_btrace_bt_perf_record_LDADD = btrace/libptbundle.a $(LIBDEFLATE_LIBS) \
	$(EMU_DRIVER_LIBS)
TESTS += testsuite/btrace/perf_export.sh
EXTRA_DIST += testsuite/btrace/perf_export.sh

check_PROGRAMS += testsuite/unit/bt_perf_data_test
TESTS += testsuite/unit/bt_perf_data_test
testsuite_unit_bt_perf_data_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_perf_data_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_perf_data_test_LDADD = $(BT_TEST_LIBS)

check_PROGRAMS += testsuite/unit/bt_export_perf_test
TESTS += testsuite/unit/bt_export_perf_test
testsuite_unit_bt_export_perf_test_CFLAGS = $(BT_SANITIZED_CC_FLAGS)
testsuite_unit_bt_export_perf_test_LDFLAGS = $(BT_SANITIZED_LD_FLAGS)
testsuite_unit_bt_export_perf_test_LDADD = $(BT_TEST_LIBS)
