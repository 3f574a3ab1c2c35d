# btrace/: libptbundle, the trace bundle's format; on it libptbtrace,
# the client-side btrace library, and the ptbtrace tool.  libptbundle is
# a convenience library: the stub links it (with libdeflate only) and
# libptbtrace includes it, each object compiled once; its header is
# installed with libptbtrace's, which includes it.
noinst_LTLIBRARIES += btrace/libptbundle.la
include_HEADERS += btrace/ptbundle.h
btrace_libptbundle_la_SOURCES = \
	btrace/ptbundle.h \
	btrace/bt_error.c \
	btrace/bt_bundle_format.h \
	btrace/bt_bundle_write.c \
	btrace/bt_bundle_file.c btrace/bt_bundle_file.h \
	btrace/bt_bundle.c btrace/bt_bundle_int.h btrace/bt_bundle_v2.c \
	btrace/bt_bundle_record.c
btrace_libptbundle_la_LIBADD = $(LIBDEFLATE_LIBS)

# Every object of the library, all symbols visible, for the tests that
# reach past the public API; the installed library wraps it.
noinst_LTLIBRARIES += btrace/libptbtrace_int.la
btrace_libptbtrace_int_la_SOURCES = \
	btrace/ptbtrace.h \
	btrace/ptbtrace_version.c \
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
	btrace/bt_image.c btrace/bt_image.h btrace/bt_image_int.h \
	btrace/bt_image_sym.c \
	btrace/bt_wide.c btrace/bt_wide.h \
	btrace/bt_segs.c btrace/bt_segs.h \
	btrace/bt_ftrace.c btrace/bt_ftrace.h btrace/bt_seg.h \
	btrace/bt_build.c btrace/bt_decode.h \
	btrace/bt_ftrace_gaps.c \
	btrace/bt_pt_decode.c \
	btrace/bt_blockq.c btrace/bt_blockq.h \
	btrace/bt_times.c btrace/bt_times.h \
	btrace/bt_bts_decode.c \
	btrace/bt_json.c btrace/bt_json.h \
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
# What the library uses (its tests may call the same libraries).
BT_DEP_LIBS = -lipt -lZydis -lopcodes $(LIBDW_LIBS) $(LIBELF_LIBS) \
	$(LIBDEFLATE_LIBS) $(EXPAT_LIBS) $(JANSSON_LIBS) -lpthread
btrace_libptbtrace_int_la_LIBADD = btrace/libptbundle.la $(BT_DEP_LIBS)

# The installed library: a soname from libtool's -version-info
# (configure.ac) and only ptbtrace.h's functions exported (the version
# script; testsuite/btrace/abi_check.py holds it to the header).
lib_LTLIBRARIES += btrace/libptbtrace.la
include_HEADERS += btrace/ptbtrace.h
btrace_libptbtrace_la_SOURCES =
btrace_libptbtrace_la_LIBADD = btrace/libptbtrace_int.la
btrace_libptbtrace_la_LDFLAGS = -version-info $(PTBTRACE_LT_VERSION) \
	-Wl,--version-script=$(srcdir)/btrace/libptbtrace.map
EXTRA_btrace_libptbtrace_la_DEPENDENCIES = btrace/libptbtrace.map
EXTRA_DIST += btrace/libptbtrace.map

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = btrace/libptbtrace.pc

bin_PROGRAMS += ptbtrace
ptbtrace_SOURCES = btrace/ptbtrace_main.c
ptbtrace_LDADD = btrace/libptbtrace.la $(JANSSON_LIBS)
EXTRA_DIST += btrace/libptbtrace.pc.in
