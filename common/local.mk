# common/: leaf helpers shared by every layer of the stub.
noinst_LIBRARIES += common/libpscommon.a
common_libpscommon_a_SOURCES = \
	common/ps_error.c common/ps_error.h \
	common/ps_buf.c common/ps_buf.h \
	common/ps_hex.c common/ps_hex.h \
	common/gdb_signals.c common/gdb_signals.h \
	common/trace.c common/trace.h \
	common/ps_crc32.c common/ps_crc32.h \
	common/ps_array.h
