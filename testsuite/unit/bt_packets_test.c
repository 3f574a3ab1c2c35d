/* The packet history and `maint info btrace` as GDB prints them, on the
   corpus trace whose packets the test itself encoded.  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_packets, corpus)

static struct bt_packets *packets_of(const struct bt_bundle *b)
{
	struct bt_packets *p = NULL;
	struct bt_diag diag;

	cr_assert_eq(bt_packets_alloc(&p, b, &diag), 0, "%s", diag.text);
	return p;
}

static char *history(const struct bt_packets *p, const char *range,
		     struct bt_diag *diag)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int status;

	bt_diag_init(diag);
	status = bt_packet_history_print(out, p, range, diag);
	fclose(out);
	if (status < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The calls trace's packets: what bt_corpus_calls encoded, with the
   sizes the PT specification gives them.  */
static char *expected(unsigned int first, unsigned int last)
{
	char lines[7][96], *text = NULL;
	size_t len = 0;
	FILE *out;
	unsigned int sizes[7] = { 16, 2, 2, 7, 1, 7, 1 }, offset = 0;

	snprintf(lines[0], 96, "psb");
	snprintf(lines[1], 96, "psbend");
	snprintf(lines[2], 96, "mode.exec cs.l");
	snprintf(lines[3], 96, "tip.pge %u: 0x%llx", pt_ipc_sext_48,
		 (unsigned long long) corpus.main.address);
	snprintf(lines[4], 96, "tnt-8 4: 0xf");
	snprintf(lines[5], 96, "fup %u: 0x%llx", pt_ipc_sext_48,
		 (unsigned long long) corpus.main.ret);
	snprintf(lines[6], 96, "tip.pgd %u: 0x0", pt_ipc_suppressed);

	out = open_memstream(&text, &len);
	for (unsigned int i = 0; i < 7; ++i) {
		if (i >= first && i <= last)
			fprintf(out, "%u\t0x%x\t%s\n", i, offset, lines[i]);
		offset += sizes[i];
	}
	fclose(out);
	return text;
}

static void expect(const struct bt_packets *p, const char *range,
		   char *want)
{
	struct bt_diag diag;
	char *got = history(p, range, &diag);

	cr_assert_not_null(got, "'%s': %s", range, diag.text);
	cr_assert_str_eq(got, want, "'%s'", range);
	free(got);
	free(want);
}

static void expect_error(const struct bt_packets *p, const char *range,
			 const char *message)
{
	struct bt_diag diag;
	char *got = history(p, range, &diag);

	cr_assert_null(got, "'%s' printed %s", range, got);
	cr_assert_str_eq(diag.text, message);
}

Test(bt_packets, the_encoded_packets_come_back)
{
	struct bt_packets *p;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	p = packets_of(&corpus.bundle);
	cr_assert_eq(bt_packets_count(p), 7);
	expect(p, "", expected(0, 6));
	expect(p, "+", expected(0, 6));
	expect(p, "3", expected(3, 6));
	expect(p, "2,4", expected(2, 4));
	expect(p, "2,40", expected(2, 6));
	expect(p, "1,+2", expected(1, 2));
	expect(p, "4,-2", expected(3, 4));
	expect(p, "4,-20", expected(0, 4));
	/* Without history "-" has nothing before it: GDB prints nothing.  */
	expect(p, "-", strdup(""));
	bt_packets_free(p);
}

Test(bt_packets, range_errors_use_gdbs_words)
{
	struct bt_packets *p;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	p = packets_of(&corpus.bundle);
	expect_error(p, "7", "'7' is out of range.");
	expect_error(p, "x", "Expected positive number, got: x.");
	expect_error(p, "1,y", "Expected positive number, got: y.");
	expect_error(p, "1 2", "Junk after argument: 2.");
	expect_error(p, "99999999999", "Number too big.");
	bt_packets_free(p);
}

Test(bt_packets, a_bad_opcode_is_an_error_entry_then_resync)
{
	/* PSB, PSBEND, an undefined extended opcode, PSB, PSBEND.  */
	uint8_t trace[64];
	static const uint8_t psb[16] = { 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
					 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82 };
	struct bt_bundle b = corpus.bundle;
	struct bt_packets *p;
	char *want;

	memcpy(trace, psb, 16);
	trace[16] = 0x02;
	trace[17] = 0x23;   /* PSBEND */
	trace[18] = 0x02;
	trace[19] = 0x13;   /* no such packet */
	memcpy(trace + 20, psb, 16);
	trace[36] = 0x02;
	trace[37] = 0x23;
	b.format = btf_pt;
	b.trace = trace;
	b.trace_size = 38;
	p = packets_of(&b);
	if (asprintf(&want, "0\t0x0\tpsb\n1\t0x10\tpsbend\n"
		     "2\t0x12\t[error: %s]\n3\t0x14\tpsb\n4\t0x24\tpsbend\n",
		     pt_errstr(pte_bad_opc)) < 0)
		cr_assert_fail();
	expect(p, "", want);
	bt_packets_free(p);
}

/* The bundle holds the newest block first (GDB's XML order); GDB numbers
   the packets oldest first.  */
Test(bt_packets, bts_blocks_are_the_packets_oldest_first)
{
	uint8_t blocks[32] = { 0 };
	struct bt_bundle b = corpus.bundle;
	struct bt_packets *p;

	blocks[0] = 0x10;
	blocks[8] = 0x20;
	blocks[16 + 1] = 0x40;
	blocks[24 + 1] = 0x41;
	b.format = btf_bts;
	b.trace = blocks;
	b.trace_size = sizeof(blocks);
	p = packets_of(&b);
	expect(p, "", strdup("0\tbegin: 0x4000, end: 0x4100\n"
			     "1\tbegin: 0x10, end: 0x20\n"));
	bt_packets_free(p);
}

Test(bt_packets, maint_info_and_an_empty_trace)
{
	struct bt_packets *p;
	struct pt_version v = pt_library_version();
	char *text = NULL, *want;
	size_t len = 0;
	FILE *out;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	p = packets_of(&corpus.bundle);
	out = open_memstream(&text, &len);
	cr_assert_eq(bt_maint_info_print(out, p), 0);
	fclose(out);
	if (asprintf(&want, "Format: Intel Processor Trace.\n"
		     "Version: %u.%u.%u%s.\nNumber of packets: 7.\n",
		     v.major, v.minor, v.build, v.ext ? v.ext : "") < 0)
		cr_assert_fail();
	cr_assert_str_eq(text, want);
	free(text);
	free(want);
	bt_packets_free(p);

	corpus.bundle.trace_size = 0;
	p = packets_of(&corpus.bundle);
	expect(p, "", strdup("No trace.\n"));
	bt_packets_free(p);
}
