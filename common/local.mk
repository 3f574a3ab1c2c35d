# Leaf helpers shared by every layer of the stub.
noinst_LIBRARIES += common/libpscommon.a
common_libpscommon_a_SOURCES = \
	common/ps_error.c common/ps_error.h \
	common/ps_buf.c common/ps_buf.h \
	common/ps_hex.c common/ps_hex.h
