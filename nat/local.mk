# nat/: the Linux native layer, one archive with the trace emulator
# (nat/emu/local.mk adds its sources): the two call each other.
noinst_LIBRARIES += nat/libpsnat.a
nat_libpsnat_a_SOURCES = \
	nat/target.h \
	nat/process.c nat/process.h \
	nat/target_access.c \
	nat/inferior.c \
	nat/wait.c nat/wait_status.h \
	nat/wait_block.c nat/wait_block.h nat/wait_round.c \
	nat/resume.c \
	nat/thread_regs.c \
	nat/btrace.c nat/btrace.h \
	nat/debugregs.c nat/debugregs.h \
	nat/maps.c nat/maps.h \
	nat/catch_syscall.c nat/catch_syscall.h \
	nat/mem.c nat/mem.h \
	nat/int3_table.c nat/int3_table.h \
	nat/tsc_clock.c nat/tsc_clock.h

# Waiting is split at its seams: what a wait status means, and stopping
# every thread (nat/wait.c does the waiting itself).
nat_libpsnat_a_SOURCES += nat/wait_status.c
nat_libpsnat_a_SOURCES += nat/stop_all.c nat/stop_all.h

# The amd64 register cache: ptrace regsets and the XSAVE layout.
nat_libpsnat_a_SOURCES += \
	nat/xstate.c nat/xstate.h \
	nat/amd64_regs.c nat/amd64_regs.h \
	nat/amd64_regs_image.c nat/amd64_regs_image.h

# Hardware trace: perf's intel_pt with its AUX area, and perf BTS.
nat_libpsnat_a_SOURCES += \
	nat/perf_ring.c nat/perf_ring.h \
	nat/perf_pt.c nat/perf_pt.h \
	nat/perf_bts.c nat/perf_bts.h \
	nat/cpu_info.c nat/cpu_info.h

# What /proc and the dynamic linker say: the auxv, the svr4 library
# list, the executable, thread names, cores and osdata lists, files
# inside a process's root.
nat_libpsnat_a_SOURCES += \
	nat/auxv.c nat/auxv.h \
	nat/procinfo.c nat/procinfo.h \
	nat/svr4.c nat/svr4.h \
	nat/proc_root.c nat/proc_root.h \
	nat/osdata.c nat/osdata.h \
	nat/osdata_sys.c nat/osdata_sys.h

# What a program linking the native layer needs after it.
NAT_LIBS = nat/libpsnat.a xml/libpsxml.a common/libpscommon.a \
	-lipt -lZydis $(LIBELF_LIBS)
