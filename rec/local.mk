# rec/: the flight recorder (`ptstub record`): the native layer driven
# with no client, bundles taken by rec/snapshot.c (which monitor btrace
# save uses too) and written by libptbundle's one writer.
noinst_LIBRARIES += rec/librec.a
rec_librec_a_SOURCES = rec/recorder.h rec/recorder.c rec/rec_main.c \
	rec/snapshot.h rec/snapshot.c \
	rec/rec_snapshot.c rec/rec_output.c rec/rec_sideband.c \
	rec/rec_symbol.c rec/rec_full.c rec/rec_path.c rec/rec_ended.c
