# The flight recorder (`ptstub record`): nat/ without an RSP client,
# bundles through btrace/'s writer.
noinst_LIBRARIES += rec/librec.a
rec_librec_a_SOURCES = rec/recorder.h rec/recorder.c rec/rec_main.c \
	rec/rec_snapshot.c rec/rec_output.c rec/rec_sideband.c \
	rec/rec_symbol.c rec/rec_full.c
rec_librec_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)

REC_TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(LIBELF_CFLAGS)
REC_TEST_LDADD = $(PTSTUB_LIBS) $(CRITERION_LIBS) $(LIBELF_LIBS) -lipt -lZydis

check_PROGRAMS += testsuite/unit/rec_output_test \
	testsuite/unit/rec_sideband_test testsuite/unit/rec_symbol_test
TESTS += testsuite/unit/rec_output_test testsuite/unit/rec_sideband_test \
	testsuite/unit/rec_symbol_test
testsuite_unit_rec_output_test_CFLAGS = $(REC_TEST_CFLAGS)
testsuite_unit_rec_output_test_LDADD = $(REC_TEST_LDADD)
testsuite_unit_rec_sideband_test_CFLAGS = $(REC_TEST_CFLAGS)
testsuite_unit_rec_sideband_test_LDADD = $(REC_TEST_LDADD) -ldl
testsuite_unit_rec_symbol_test_CFLAGS = $(REC_TEST_CFLAGS)
testsuite_unit_rec_symbol_test_LDADD = $(REC_TEST_LDADD)
