# main/: the ptstub program.  Its command line is read here once for
# both modes; the stub (server/) and the recorder (rec/) stand side by
# side below it.  The parser is an archive of its own for its test.
noinst_LIBRARIES += main/libpsmain.a
main_libpsmain_a_SOURCES = main/cmdline.c main/cmdline.h

bin_PROGRAMS += ptstub
ptstub_SOURCES = main/main.c
ptstub_LDADD = main/libpsmain.a $(PTSTUB_LIBS)
