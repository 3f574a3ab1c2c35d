/* A bundle from a (scripted) live stub: the corpus's trace of bt_prog
   served as GDB's packets carry it must decode as the corpus bundle
   does; stubs without a stopped thread or a trace are errors.  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "testsuite/btrace/bt_corpus_main.h"
#include "testsuite/btrace/bt_fake_stub.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_live, corpus)

static char xml[16384], conf[256], maps[8192], maps_reply[8300], pc[20];

/* The corpus's calls trace in GDB's packets.  */
static void corpus_script(struct bt_fake_reply *s)
{
	size_t n;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	n = (size_t) snprintf(xml, sizeof(xml), "l<btrace version=\"1.0\">"
			      "<pt><pt-config><cpu vendor=\"GenuineIntel\" "
			      "family=\"6\" model=\"85\" stepping=\"4\"/>"
			      "</pt-config><raw>");
	for (size_t i = 0; i < corpus.bundle.trace_size; ++i)
		n += (size_t) snprintf(xml + n, sizeof(xml) - n, "%02x",
				       corpus.bundle.trace[i]);
	snprintf(xml + n, sizeof(xml) - n, "</raw></pt></btrace>");
	snprintf(conf, sizeof(conf), "l<btrace-conf version=\"1.0\">"
		 "<pt size=\"0x4000\"/></btrace-conf>");
	n = (size_t) snprintf(maps, sizeof(maps), "%" PRIx64 "-%" PRIx64
			      " r-xp %08" PRIx64 " 00:00 0   %s\n",
			      corpus.mapping.address,
			      corpus.mapping.address + corpus.mapping.size,
			      corpus.mapping.offset, corpus.mapping.path);
	snprintf(maps_reply, sizeof(maps_reply), "F%zx;%s", n, maps);
	for (int i = 0; i < 8; ++i)
		snprintf(pc + 2 * i, 3, "%02x",
			 (unsigned int) (corpus.main.ret >> (8 * i)) & 0xff);

	s[0] = (struct bt_fake_reply) { "?", "T05thread:p1092.1093;" };
	s[1] = (struct bt_fake_reply) { "Hgp1092.1093", "OK" };
	s[2] = (struct bt_fake_reply) { "qXfer:btrace-conf:read::0,fff",
					conf };
	s[3] = (struct bt_fake_reply) { "qXfer:btrace:read:all:0,fff", xml };
	s[4] = (struct bt_fake_reply) { "p10", pc };
	/* "/proc/4242/maps", hex-encoded.  */
	s[5] = (struct bt_fake_reply) {
		"vFile:open:2f70726f632f343234322f6d617073,0,0", "F7" };
	s[6] = (struct bt_fake_reply) { "vFile:pread:7,fff,0", maps_reply };
	s[8] = (struct bt_fake_reply) { "vFile:close:7", "F0" };
	s[9] = (struct bt_fake_reply) { NULL, NULL };
}

Test(bt_live, a_live_trace_decodes_as_the_bundle_does)
{
	struct bt_fake_reply script[10];
	struct bt_fake_stub stub;
	struct bt_bundle live;
	struct bt_image *image;
	struct bt_ftrace *ft;
	struct bt_diag diag;
	uint32_t insns, calls, want_insns, want_calls;
	char eof[32];

	corpus_script(script);
	snprintf(eof, sizeof(eof), "vFile:pread:7,fff,%zx", strlen(maps));
	script[7] = (struct bt_fake_reply) { eof, "F0;" };
	cr_assert_eq(bt_fake_start(&stub, script, 0), 0);
	cr_assert_eq(bt_live_load(&live, stub.hostport, &diag), 0, "%s",
		     diag.text);
	bt_fake_stop(&stub);

	cr_assert_eq(live.pid, 0x1092);
	cr_assert_eq(live.tid, 0x1093);
	cr_assert_eq(live.format, btf_pt);
	cr_assert_eq(live.buffer_size, 0x4000);
	cr_assert_eq(live.cpu.model, 85);
	cr_assert(live.has_pc && live.pc == corpus.main.ret);
	cr_assert_eq(live.trace_size, corpus.bundle.trace_size);
	cr_assert_eq(memcmp(live.trace, corpus.bundle.trace,
			    live.trace_size), 0);
	cr_assert_eq(live.nmappings, 1);
	cr_assert_str_eq(live.mappings[0].path, corpus.mapping.path);

	cr_assert_eq(bt_image_alloc(&image, &live, &diag), 0, "%s", diag.text);
	cr_assert_eq(bt_ftrace_build(&ft, &live, image, &diag), 0, "%s",
		     diag.text);
	bt_ftrace_counts(ft, &insns, &calls, NULL);
	bt_ftrace_free(ft);
	bt_image_free(image);
	cr_assert_eq(bt_image_alloc(&image, &corpus.bundle, &diag), 0);
	cr_assert_eq(bt_ftrace_build(&ft, &corpus.bundle, image, &diag), 0);
	bt_ftrace_counts(ft, &want_insns, &want_calls, NULL);
	bt_ftrace_free(ft);
	bt_image_free(image);
	cr_assert_eq(insns, want_insns);
	cr_assert_eq(calls, want_calls);
	bt_bundle_fini(&live);
}

/* Loading from a stub with SCRIPT fails with a message holding WANT.  */
static void expect_failure(const struct bt_fake_reply *script,
			   const char *want)
{
	struct bt_fake_stub stub;
	struct bt_bundle live;
	struct bt_diag diag;

	cr_assert_eq(bt_fake_start(&stub, script, 0), 0);
	cr_assert_lt(bt_live_load(&live, stub.hostport, &diag), 0);
	bt_fake_stop(&stub);
	cr_assert(strstr(diag.text, want) != NULL, "%s", diag.text);
}

Test(bt_live, no_stopped_thread_is_an_error)
{
	static const struct bt_fake_reply script[] = {
		{ "?", "W00" }, { NULL, NULL },
	};

	expect_failure(script, "no stopped thread");
}

Test(bt_live, a_stub_that_cannot_trace_is_an_error)
{
	static const struct bt_fake_reply script[] = {
		{ "?", "T05thread:p5.5;" }, { "Hgp5.5", "OK" },
		{ "qXfer:btrace-conf:read::0,fff", "E01" },
		{ "Qbtrace:pt", "E.no tracing here" }, { NULL, NULL },
	};

	expect_failure(script, "Qbtrace:pt: the stub said "
		       "'E.no tracing here'");
}
