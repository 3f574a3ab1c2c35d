# nat/emu: the trace emulator (PT and BTS by breakpoint-and-emulate) and
# the code-cache engine; part of the native layer's archive.
nat_libpsnat_a_SOURCES += \
	nat/emu/emu.h nat/emu/emu_engine.h \
	nat/emu/emu.c nat/emu/emu_stop.c nat/emu/emu_read.c \
	nat/emu/emu_insn.c nat/emu/emu_insn.h \
	nat/emu/emu_branch.c nat/emu/emu_branch.h \
	nat/emu/emu_ring.c nat/emu/emu_ring.h \
	nat/emu/emu_pt.c nat/emu/emu_pt.h \
	nat/emu/emu_bts.c nat/emu/emu_bts.h \
	nat/emu/emu_planted.c nat/emu/emu_planted.h \
	nat/emu/emu_maps.c nat/emu/emu_maps.h \
	nat/emu/emu_walk.c nat/emu/emu_walk.h \
	nat/emu/emu_cache.c nat/emu/emu_cache.h \
	nat/emu/emu_signal.c nat/emu/emu_signal.h \
	nat/emu/emu_alu.c nat/emu/emu_alu.h \
	nat/emu/emu_thread.c nat/emu/emu_thread.h \
	nat/emu/cc.c nat/emu/cc.h nat/emu/cc_int.h nat/emu/emu_cache_status.h \
	nat/emu/cc_enter.c nat/emu/cc_drain.c nat/emu/cc_stop.c \
	nat/emu/cc_link.c \
	nat/emu/cc_blocks.c nat/emu/cc_blocks.h \
	nat/emu/cc_xlate.c nat/emu/cc_xlate.h \
	nat/emu/cc_inject.c nat/emu/cc_inject.h

# The resume planner, apart from the engine object in emu.c.
nat_libpsnat_a_SOURCES += nat/emu/emu_plan.c nat/emu/emu_plan.h

# The branch recorder, apart from the thread in emu_thread.c.
nat_libpsnat_a_SOURCES += nat/emu/emu_rec.c nat/emu/emu_rec.h
