# Fuzzing (testsuite/fuzz/, doc/robustness.md).  Each fuzz_NAME.c is a
# libFuzzer target (LLVMFuzzerTestOneInput).
# - make check: each target linked with the tree's libraries beside
#   driver.c, run on its committed corpus and regression inputs, then
#   mutated at random for FUZZ_CHECK_SECONDS (3) each (fuzz_check.sh);
#   make check-sanitize runs the same under ASan and UBSan.
# - make fuzz: each target built with clang -fsanitize=fuzzer,address,
#   undefined over all the sources it reaches, run by libFuzzer for
#   FUZZ_SECONDS (600) each, its corpus growing in
#   testsuite/fuzz/out/corpus/NAME (fuzz.sh).
fuzz_names = rsp dispatch xml bundle pt
check_PROGRAMS += testsuite/fuzz/drv_rsp testsuite/fuzz/drv_dispatch \
	testsuite/fuzz/drv_xml testsuite/fuzz/drv_bundle testsuite/fuzz/drv_pt
testsuite_fuzz_drv_rsp_SOURCES = testsuite/fuzz/driver.c testsuite/fuzz/fuzz_rsp.c
testsuite_fuzz_drv_rsp_LDADD = $(PTSTUB_LIBS)
testsuite_fuzz_drv_dispatch_SOURCES = testsuite/fuzz/driver.c \
	testsuite/fuzz/fuzz_dispatch.c
testsuite_fuzz_drv_dispatch_LDADD = $(PTSTUB_LIBS)
testsuite_fuzz_drv_xml_SOURCES = testsuite/fuzz/driver.c testsuite/fuzz/fuzz_xml.c
testsuite_fuzz_drv_xml_LDADD = btrace/libptbtrace.la
testsuite_fuzz_drv_bundle_SOURCES = testsuite/fuzz/driver.c \
	testsuite/fuzz/fuzz_bundle.c
testsuite_fuzz_drv_bundle_LDADD = btrace/libptbtrace.la
testsuite_fuzz_drv_pt_SOURCES = testsuite/fuzz/driver.c testsuite/fuzz/fuzz_pt.c
testsuite_fuzz_drv_pt_LDADD = btrace/libptbtrace.la

TESTS += testsuite/fuzz/fuzz_check.sh
EXTRA_DIST += testsuite/fuzz/fuzz_check.sh testsuite/fuzz/fuzz.sh \
	testsuite/fuzz/make_corpus.py \
	testsuite/fuzz/corpus testsuite/fuzz/regress

# Every source each libFuzzer build compiles (the stub's libraries for
# the dispatcher, libptbtrace for the readers and the decoder).
fuzz_srv_sources = $(sort $(filter %.c,$(server_libpsserver_a_SOURCES) \
	$(rec_librec_a_SOURCES) $(btrace_libptbundle_la_SOURCES) \
	$(nat_libpsnat_a_SOURCES) $(xml_libpsxml_a_SOURCES) \
	$(common_libpscommon_a_SOURCES)))
fuzz_bt_sources = $(filter %.c,$(btrace_libptbtrace_int_la_SOURCES) \
	$(btrace_libptbundle_la_SOURCES))
fuzz_rsp_sources = $(filter %.c,$(filter server/rsp_% server/comm_addr.c,\
	$(server_libpsserver_a_SOURCES)) $(common_libpscommon_a_SOURCES))
FUZZ_SECONDS = 600
fuzz: testsuite/programs/bin/plain
	@FUZZ_SRV_SOURCES='$(fuzz_srv_sources)' \
	FUZZ_RSP_SOURCES='$(fuzz_rsp_sources)' \
	FUZZ_BT_SOURCES='$(fuzz_bt_sources)' \
	FUZZ_CFLAGS='$(LIBELF_CFLAGS) $(LIBDW_CFLAGS) $(LIBDEFLATE_CFLAGS) $(EXPAT_CFLAGS)' \
	FUZZ_SRV_LIBS='-lipt -lZydis $(LIBELF_LIBS) $(LIBDEFLATE_LIBS) $(JANSSON_LIBS)' \
	FUZZ_BT_LIBS='-lipt -lZydis -lopcodes $(LIBDW_LIBS) $(LIBELF_LIBS) $(LIBDEFLATE_LIBS) $(EXPAT_LIBS) $(JANSSON_LIBS) -lpthread' \
	top_builddir='$(abs_top_builddir)' \
	$(SHELL) $(srcdir)/testsuite/fuzz/fuzz.sh '$(abs_top_srcdir)' \
	  '$(abs_top_builddir)/testsuite/fuzz/out' '$(FUZZ_SECONDS)' $(FUZZ_TARGETS)
clean-local: clean-fuzz
clean-fuzz:
	-rm -rf testsuite/fuzz/out
.PHONY: fuzz clean-fuzz
