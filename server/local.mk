# The RSP server and the ptstub program.
bin_PROGRAMS += ptstub
ptstub_SOURCES = server/main.c
# nat/ appears twice: the emulator below it uses nat's memory helpers.
PTSTUB_LIBS = nat/libpsnat.a  \
	common/libpscommon.a
ptstub_LDADD = $(PTSTUB_LIBS) -lipt -lZydis $(LIBELF_LIBS)
