# testsuite/unit: one criterion program per source file, named for it
# (NAME_test.c tests NAME.c).  A test's stanza is two lines: its name
# in the list and the libraries it links, the stub's (UNIT_LIBS) or
# libptbtrace (BT_UNIT_LIBS), or libptbundle alone (BUNDLE_UNIT_LIBS).
UNIT_LIBS = testsuite/emu/libemudriver.a $(PTSTUB_LIBS) $(EXPAT_LIBS) \
	$(CRITERION_LIBS) -ldl
BT_UNIT_LIBS = testsuite/btrace/libbtcorpus.a btrace/libptbtrace_int.la \
	$(BT_DEP_LIBS) $(CRITERION_LIBS)
BUNDLE_UNIT_LIBS = btrace/libptbundle.la $(CRITERION_LIBS)
unit_tests =

# common/
unit_tests += testsuite/unit/ps_error_test
testsuite_unit_ps_error_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/ps_buf_test
testsuite_unit_ps_buf_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/ps_hex_test
testsuite_unit_ps_hex_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/gdb_signals_test
testsuite_unit_gdb_signals_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/trace_test
testsuite_unit_trace_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/ps_crc32_test
testsuite_unit_ps_crc32_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/ps_array_test
testsuite_unit_ps_array_test_LDADD = $(UNIT_LIBS)

# xml/
unit_tests += testsuite/unit/tdesc_amd64_test
testsuite_unit_tdesc_amd64_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/btrace_xml_test
testsuite_unit_btrace_xml_test_LDADD = $(UNIT_LIBS)

# nat/
unit_tests += testsuite/unit/mem_test
testsuite_unit_mem_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/int3_table_test
testsuite_unit_int3_table_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/debugregs_test
testsuite_unit_debugregs_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/inferior_test
testsuite_unit_inferior_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/wait_block_test
testsuite_unit_wait_block_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/wait_test
testsuite_unit_wait_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/wait_status_test
unit_tests += testsuite/unit/wait_round_test
testsuite_unit_wait_round_test_LDADD = $(UNIT_LIBS)
testsuite_unit_wait_status_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/stop_all_test
testsuite_unit_stop_all_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/resume_test
testsuite_unit_resume_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/maps_test
testsuite_unit_maps_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/btrace_test
testsuite_unit_btrace_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/catch_syscall_test
testsuite_unit_catch_syscall_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/xstate_test
testsuite_unit_xstate_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/amd64_regs_test
testsuite_unit_amd64_regs_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/amd64_regs_image_test
testsuite_unit_amd64_regs_image_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/perf_ring_test
testsuite_unit_perf_ring_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/perf_pt_test
testsuite_unit_perf_pt_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/perf_bts_test
testsuite_unit_perf_bts_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cpu_info_test
testsuite_unit_cpu_info_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/auxv_test
testsuite_unit_auxv_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/procinfo_test
testsuite_unit_procinfo_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/svr4_test
testsuite_unit_svr4_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/proc_root_test
testsuite_unit_proc_root_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/osdata_test
testsuite_unit_osdata_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/osdata_sys_test
testsuite_unit_osdata_sys_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/tsc_clock_test
testsuite_unit_tsc_clock_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/target_access_test
testsuite_unit_target_access_test_LDADD = $(UNIT_LIBS)

# nat/emu/
unit_tests += testsuite/unit/emu_insn_test
testsuite_unit_emu_insn_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_branch_test
testsuite_unit_emu_branch_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_ring_test
testsuite_unit_emu_ring_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_pt_test
testsuite_unit_emu_pt_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_bts_test
testsuite_unit_emu_bts_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_maps_test
testsuite_unit_emu_maps_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_planted_test
testsuite_unit_emu_planted_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_walk_test
testsuite_unit_emu_walk_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_cache_test
testsuite_unit_emu_cache_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_signal_test
testsuite_unit_emu_signal_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_thread_test
testsuite_unit_emu_thread_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_plan_test
testsuite_unit_emu_plan_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_rec_test
testsuite_unit_emu_rec_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_test
testsuite_unit_emu_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_stop_test
testsuite_unit_emu_stop_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_read_test
testsuite_unit_emu_read_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/emu_alu_test
testsuite_unit_emu_alu_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_test
testsuite_unit_cc_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_xlate_test
testsuite_unit_cc_xlate_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_inject_test
testsuite_unit_cc_inject_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_blocks_test
testsuite_unit_cc_blocks_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_enter_test
testsuite_unit_cc_enter_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_drain_test
testsuite_unit_cc_drain_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_stop_test
testsuite_unit_cc_stop_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/cc_link_test
testsuite_unit_cc_link_test_LDADD = $(UNIT_LIBS)

# server/
unit_tests += testsuite/unit/rsp_conn_test
testsuite_unit_rsp_conn_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rsp_escape_test
testsuite_unit_rsp_escape_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rsp_parse_test
testsuite_unit_rsp_parse_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rsp_listen_test
testsuite_unit_rsp_listen_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/comm_addr_test
testsuite_unit_comm_addr_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/hostio_test
testsuite_unit_hostio_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/agent_expr_test
testsuite_unit_agent_expr_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/agent_cond_test
testsuite_unit_agent_cond_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/agent_printf_test
testsuite_unit_agent_printf_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/server_test
testsuite_unit_server_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/dispatch_test
testsuite_unit_dispatch_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_stop_reply_test
testsuite_unit_srv_stop_reply_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_general_test
testsuite_unit_srv_general_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_query_test
testsuite_unit_srv_query_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_settings_test
testsuite_unit_srv_settings_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_regs_test
testsuite_unit_srv_regs_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_memory_test
testsuite_unit_srv_memory_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_break_test
testsuite_unit_srv_break_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_threads_test
testsuite_unit_srv_threads_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_resume_test
testsuite_unit_srv_resume_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_process_test
testsuite_unit_srv_process_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_monitor_test
testsuite_unit_srv_monitor_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_qxfer_test
testsuite_unit_srv_qxfer_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_osdata_test
testsuite_unit_srv_osdata_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_notif_test
testsuite_unit_srv_notif_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_nonstop_test
testsuite_unit_srv_nonstop_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_progress_test
testsuite_unit_srv_progress_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_lldb_trace_test
testsuite_unit_srv_lldb_trace_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_lldb_query_test
testsuite_unit_srv_lldb_query_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_btrace_test
testsuite_unit_srv_btrace_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/srv_postmortem_test
testsuite_unit_srv_postmortem_test_LDADD = $(UNIT_LIBS)

# rec/
unit_tests += testsuite/unit/snapshot_test
testsuite_unit_snapshot_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rec_output_test
testsuite_unit_rec_output_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rec_sideband_test
testsuite_unit_rec_sideband_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rec_path_test
testsuite_unit_rec_path_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rec_ended_test
testsuite_unit_rec_ended_test_LDADD = $(UNIT_LIBS)
unit_tests += testsuite/unit/rec_symbol_test
testsuite_unit_rec_symbol_test_LDADD = $(UNIT_LIBS)

# main/
unit_tests += testsuite/unit/cmdline_test
testsuite_unit_cmdline_test_LDADD = main/libpsmain.a $(UNIT_LIBS)

# btrace/ (libptbundle, libptbtrace)
unit_tests += testsuite/unit/ptbtrace_version_test
testsuite_unit_ptbtrace_version_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_bundle_test
testsuite_unit_bt_bundle_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_bundle_v2_test
testsuite_unit_bt_bundle_v2_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_exec_span_test
testsuite_unit_bt_exec_span_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_bundle_write_test
testsuite_unit_bt_bundle_write_test_LDADD = $(BUNDLE_UNIT_LIBS)
unit_tests += testsuite/unit/bt_bundle_file_test
testsuite_unit_bt_bundle_file_test_LDADD = $(BUNDLE_UNIT_LIBS)
unit_tests += testsuite/unit/bt_bundle_record_test
testsuite_unit_bt_bundle_record_test_LDADD = $(BUNDLE_UNIT_LIBS)
unit_tests += testsuite/unit/bt_image_test
testsuite_unit_bt_image_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_image_sym_test
testsuite_unit_bt_image_sym_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_blockq_test
testsuite_unit_bt_blockq_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_times_test
testsuite_unit_bt_times_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_inflate_test
testsuite_unit_bt_inflate_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_wide_test
testsuite_unit_bt_wide_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_segs_test
testsuite_unit_bt_segs_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_ftrace_test
testsuite_unit_bt_ftrace_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_build_test
testsuite_unit_bt_build_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_history_test
testsuite_unit_bt_history_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_history_args_test
testsuite_unit_bt_history_args_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_packets_test
testsuite_unit_bt_packets_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_json_test
testsuite_unit_bt_json_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_export_test
testsuite_unit_bt_export_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_xml_test
testsuite_unit_bt_xml_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_msym_name_test
testsuite_unit_bt_msym_name_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_debuglink_test
testsuite_unit_bt_debuglink_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_symtab_dwarf_test
testsuite_unit_bt_symtab_dwarf_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_symtab_cu_test
testsuite_unit_bt_symtab_cu_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_line_header_test
testsuite_unit_bt_line_header_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_symtab_lines_test
testsuite_unit_bt_symtab_lines_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_plt_test
testsuite_unit_bt_plt_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_pt_decode_test
testsuite_unit_bt_pt_decode_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_ftrace_gaps_test
testsuite_unit_bt_ftrace_gaps_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_bts_decode_test
testsuite_unit_bt_bts_decode_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_error_test
testsuite_unit_bt_error_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_symtab_test
testsuite_unit_bt_symtab_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_insn_history_test
testsuite_unit_bt_insn_history_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_disasm_test
testsuite_unit_bt_disasm_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_source_test
testsuite_unit_bt_source_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_replay_test
testsuite_unit_bt_replay_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_rsp_test
testsuite_unit_bt_rsp_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_live_test
testsuite_unit_bt_live_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_export_lldb_test
testsuite_unit_bt_export_lldb_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_perf_data_test
testsuite_unit_bt_perf_data_test_LDADD = $(BT_UNIT_LIBS)
unit_tests += testsuite/unit/bt_export_perf_test
testsuite_unit_bt_export_perf_test_LDADD = $(BT_UNIT_LIBS)

check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)

# Tests that find programs or files of the build by path.
testsuite_unit_btrace_xml_test_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBTRACE_DTD_DIR='"$(abs_top_srcdir)/xml"'
testsuite_unit_emu_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_unit_emu_stop_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_unit_emu_read_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_unit_cc_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_unit_cc_enter_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_unit_cc_drain_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_unit_cc_stop_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)
testsuite_unit_cc_link_test_CPPFLAGS = $(EMU_TEST_CPPFLAGS)

# The fixtures the tests share.
EXTRA_DIST += testsuite/unit/agent_fake.h testsuite/unit/debugregs_probe.h \
	testsuite/unit/elfsym.h testsuite/unit/nat_fixture.h \
	testsuite/unit/srv_fixture.h testsuite/unit/tracee.h \
	testsuite/unit/cc_fixture.h

# The process-level tests run this program under the native layer; it
# is not PIE so that its symbols are its addresses.
check_PROGRAMS += testsuite/unit/progs/nat_prog
testsuite_unit_progs_nat_prog_CFLAGS = -fno-pie -pthread
testsuite_unit_progs_nat_prog_LDFLAGS = -no-pie -pthread
# Whatever the tree is configured with (-O2, sanitizers), it is plain.
testsuite/unit/progs/%: CFLAGS = -g -O0

# End to end: GDB through ptstub and through gdbserver on a program that
# loaded known values into every register.
check_PROGRAMS += testsuite/unit/progs/regs_loader
TESTS += testsuite/unit/regs_gdb_test.sh

# Prints target.xml for an XCR0 given on the command line, so that the
# test script can hand it to GDB.  A tool, not an inferior: it is built
# with the tree's flags (sanitizers included), so it is not under progs/.
check_PROGRAMS += testsuite/unit/tdesc_print
testsuite_unit_tdesc_print_LDADD = xml/libpsxml.a common/libpscommon.a
TESTS += testsuite/unit/tdesc_gdb_test.sh

# ptstub and gdbserver refuse the same bad COMMs in the same words.
TESTS += testsuite/unit/comm_errors_test.sh
EXTRA_DIST += testsuite/unit/regs_gdb_test.sh testsuite/unit/tdesc_gdb_test.sh \
	testsuite/unit/comm_errors_test.sh
