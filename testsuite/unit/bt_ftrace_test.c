/* Function segments from PT traces of the real bt_prog, against
   expectations derived by hand from its control flow: main calls f twice,
   f calls g; counts come from walking its code, not from the library.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_decode.h"
#include "btrace/bt_history.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <intel-pt.h>
#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_ftrace, corpus)

#include "testsuite/btrace/bt_corpus_expect.h"

Test(bt_ftrace, pt_calls_and_returns_make_nine_segments)
{
	struct built r;
	uint32_t insns, calls, gaps, total = 0;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	check_calls(&r, 9);

	for (uint32_t n = 1; n <= 9; ++n)
		total += fn(&r, n).ninsn;
	cr_assert_eq(bt_ftrace_counts(r.ft, &insns, &calls, &gaps), 0);
	cr_assert_eq(insns, total - 1, "the current insn does not count");
	cr_assert_eq(calls, 9);
	cr_assert_eq(gaps, 0);
	cr_assert_eq(bt_ftrace_format(r.ft), btf_pt);
	done(&r);
}

static int collect(uint64_t ip, void *ctx)
{
	uint64_t **at = ctx;

	*(*at)++ = ip;
	return 0;
}
Test(bt_ftrace, instructions_are_rebuilt_from_blocks)
{
	struct built r;
	uint64_t ips[64], *at = ips, want;
	struct bt_function s;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	s = fn(&r, 3);
	cr_assert_eq(bt_ftrace_for_each_insn(r.ft, 3, collect, &at), 0);
	cr_assert_eq((uint32_t) (at - ips), s.ninsn);
	want = corpus.g.address;
	for (uint32_t i = 0; i < s.ninsn; ++i) {
		cr_assert_eq(ips[i], want, "insn %u", i);
		want += (unsigned int) bt_corpus_insn_length(&corpus, want);
	}
	cr_assert_eq(ips[s.ninsn - 1], corpus.g.ret);
	cr_assert_eq(bt_ftrace_for_each_insn(r.ft, 10, collect, &at),
		     -bte_range);
	done(&r);
}
Test(bt_ftrace, a_pc_in_another_function_is_its_own_segment)
{
	struct built r;
	struct bt_function last;
	uint32_t insns, calls, gaps;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	/* As if stopped in g after the trace ended: a function switch.  */
	corpus.bundle.pc = corpus.g.address;
	r = build(&corpus.bundle);
	cr_assert_eq(bt_ftrace_nfunctions(r.ft), 10);
	last = fn(&r, 10);
	cr_assert_str_eq(last.sym, "g");
	cr_assert_eq(last.ninsn, 1);
	cr_assert_eq(last.up, fn(&r, 9).up, "a switch keeps the stack");
	cr_assert_eq(bt_ftrace_counts(r.ft, &insns, &calls, &gaps), 0);
	cr_assert_eq(calls, 9, "the current insn's segment does not count");
	done(&r);
}
Test(bt_ftrace, an_empty_trace_has_no_segments)
{
	struct built r;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	corpus.bundle.trace_size = 0;
	corpus.bundle.trace = NULL;
	r = build(&corpus.bundle);
	cr_assert_eq(bt_ftrace_nfunctions(r.ft), 0);
	done(&r);
}

Test(bt_ftrace, memory_is_blocks_and_segments_only)
{
	struct built r;
	size_t n, insns = 0;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	r = build(&corpus.bundle);
	n = bt_ftrace_nfunctions(r.ft);
	for (uint32_t i = 1; i <= n; ++i)
		insns += fn(&r, (uint32_t) i).ninsn;
	/* Trimmed after the build: 14 bytes a segment (bt_segs.h), five a
	   block and at most a block per two instructions here, the function
	   table and its small hash.  */
	cr_assert_lt(bt_ftrace_memory(r.ft), n * 14 + insns * 5 / 2 + 2048);
	done(&r);
}

/* bt_asm: a tail call, a PIC call to the next instruction, and code that
   falls through into the next function, each by GDB's rules.  */
Test(bt_ftrace, tail_calls_pic_calls_and_fall_through)
{
	struct bt_corpus_asm a;
	struct built r;
	char why[512];
	struct bt_function s[8];
	static const char *names[] = { "t_main", "t_a", "t_b", "t_main",
				       "t_pic", "t_c", "t_main" };
	static const int levels[] = { 0, 1, 2, 0, 1, 1, 0 };

	if (bt_corpus_asm_init(&a, why, sizeof(why)) < 0)
		cr_skip_test("%s", why);
	cr_assert_eq(bt_corpus_asm_trace(&a), 0);
	r = build(&a.bundle);
	cr_assert_eq(bt_ftrace_nfunctions(r.ft), 7);
	for (uint32_t i = 1; i <= 7; ++i) {
		s[i] = fn(&r, i);
		cr_assert_str_eq(s[i].msym, names[i - 1], "segment %u", i);
		cr_assert_null(s[i].sym, "no DWARF for asm");
		cr_assert_eq(s[i].level + bt_ftrace_level(r.ft), levels[i - 1],
			     "segment %u", i);
	}
	/* t_a jumps to t_b's start: a tail call, linked up to t_a.  */
	cr_assert_eq(s[3].up, 2);
	cr_assert_eq(s[3].flags, btff_up_links_to_tailcall);
	cr_assert_eq(s[3].ninsn, 2);
	/* t_b returns to t_main, skipping t_a.  */
	cr_assert_eq(s[4].prev, 1);
	cr_assert_eq(s[1].next, 4);
	cr_assert_eq(s[4].ninsn, 1);
	/* `call 1f` is no call: t_pic is one segment of call, pop, nop.  */
	cr_assert_eq(s[5].ninsn, 3);
	cr_assert_eq(s[5].up, 4);
	/* Falling into t_c switches functions but keeps the stack.  */
	cr_assert_eq(s[6].up, 4);
	cr_assert_eq(s[6].flags, 0);
	cr_assert_eq(s[6].ninsn, 2);
	cr_assert_eq(s[6].insn_offset, s[5].insn_offset + 3);
	/* t_c returns to t_main; the last segment is just the pc.  */
	cr_assert_eq(s[7].prev, 4);
	cr_assert_eq(s[7].ninsn, 1);
	done(&r);
}

/* A PT trace by hand over two page copies, for code with no symbols.  */
static size_t encode_jump_trace(uint8_t *buf, size_t size, uint64_t start,
				uint64_t stop)
{
	struct pt_config config;
	struct pt_encoder *enc;
	struct pt_packet pkt;
	uint64_t offset = 0;

	pt_config_init(&config);
	config.begin = buf;
	config.end = buf + size;
	enc = pt_alloc_encoder(&config);
	cr_assert_not_null(enc);
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_psb;
	cr_assert_geq(pt_enc_next(enc, &pkt), 0);
	pkt.type = ppt_psbend;
	cr_assert_geq(pt_enc_next(enc, &pkt), 0);
	pkt.type = ppt_mode;
	pkt.payload.mode.leaf = pt_mol_exec;
	pkt.payload.mode.bits.exec = pt_set_exec_mode(ptem_64bit);
	cr_assert_geq(pt_enc_next(enc, &pkt), 0);
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = ppt_tip_pge;
	pkt.payload.ip.ipc = pt_ipc_sext_48;
	pkt.payload.ip.ip = start;
	cr_assert_geq(pt_enc_next(enc, &pkt), 0);
	pkt.type = ppt_fup;
	pkt.payload.ip.ip = stop;
	cr_assert_geq(pt_enc_next(enc, &pkt), 0);
	pkt.type = ppt_tip_pgd;
	pkt.payload.ip.ipc = pt_ipc_suppressed;
	cr_assert_geq(pt_enc_next(enc, &pkt), 0);
	cr_assert_geq(pt_enc_get_offset(enc, &offset), 0);
	pt_free_encoder(enc);
	return (size_t) offset;
}

Test(bt_ftrace, a_segment_may_cross_a_4gib_boundary)
{
	/* jmp from just below 4 GiB to just above; nops there.  */
	static uint8_t low[4096], high[4096];
	const uint64_t jmp = 0xfffffff0ull, target = 0x100000010ull;
	struct bt_pages pages[2] = {
		{ 0xfffff000ull, sizeof(low), 5, "", low },
		{ 0x100000000ull, sizeof(high), 5, "", high },
	};
	struct bt_bundle b;
	struct built r;
	uint8_t trace[128];
	uint64_t ips[8], *at = ips;
	int32_t disp = (int32_t) (target - (jmp + 5));

	memset(low, 0x90, sizeof(low));
	memset(high, 0x90, sizeof(high));
	low[jmp - 0xfffff000ull] = 0xe9;
	memcpy(low + (jmp - 0xfffff000ull) + 1, &disp, 4);

	memset(&b, 0, sizeof(b));
	b.format = btf_pt;
	b.pid = b.tid = 1;
	b.trace = trace;
	b.trace_size = encode_jump_trace(trace, sizeof(trace), jmp,
					 target + 2);
	b.pc = target + 2;
	b.has_pc = 1;
	b.pages = pages;
	b.npages = 2;
	r = build(&b);

	/* No symbols anywhere: one segment of jmp, nop, nop and the pc.  */
	cr_assert_eq(bt_ftrace_nfunctions(r.ft), 1);
	cr_assert_eq(fn(&r, 1).ninsn, 4);
	cr_assert_eq(bt_ftrace_for_each_insn(r.ft, 1, collect, &at), 0);
	cr_assert_eq(at - ips, 4);
	cr_assert_eq(ips[0], jmp);
	cr_assert_eq(ips[1], target);
	cr_assert_eq(ips[2], target + 1);
	cr_assert_eq(ips[3], target + 2);
	done(&r);
}
