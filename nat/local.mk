# The Linux native layer: processes, threads, memory, breakpoints.
noinst_LIBRARIES += nat/libpsnat.a
nat_libpsnat_a_SOURCES = \
	nat/mem.c nat/mem.h \
	nat/int3_table.c nat/int3_table.h
