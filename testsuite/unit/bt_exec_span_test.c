/* A trace across an exec: the old program's side-band mappings join the
   image where they clash with nothing; where they overlap other code the
   part before the exec is cut (BTS: its blocks; PT: behind a PSB, the
   new program's TIP.PGE given its whole IP); undo gives the bundle back
   as it was.  */
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <string.h>

static struct bt_mapping now[] = {
	{ 0x555555554000, 0x1000, 0, 5, "/bin/new", NULL, 0 },
	{ 0x7ffff7fc3000, 0x20000, 0x1000, 5, "/lib/ld.so", NULL, 0 },
};

static struct bt_bts_block blocks[4] = {
	{ 0x555555554100, 0x555555554110 },   /* newest first */
	{ 0x7ffff7fc3100, 0x7ffff7fc3120 },
	{ 0x400100, 0x400110 },
	{ 0x400000, 0x400010 },
};

/* Old program ANY at OLD_ADDR, then the exec placed at AT.  */
static void bundle(struct bt_bundle *b, struct bt_sideband *sb,
		   uint64_t old_addr, uint64_t at)
{
	memset(b, 0, sizeof(*b));
	b->format = btf_bts;
	b->tid = 42;
	b->trace = (const uint8_t *) blocks;
	b->trace_size = sizeof(blocks);
	b->mappings = now;
	b->nmappings = 2;
	sb[0] = (struct bt_sideband) { bts_exec, 42, 0, 0, 0, 0, "/bin/old",
				       NULL, 0 };
	sb[1] = (struct bt_sideband) { bts_map, 42, old_addr, 0x1000, 0, 5,
				       "/bin/old", NULL, 0 };
	sb[2] = (struct bt_sideband) { bts_map, 42, 0x7ffff7fc3000, 0x20000,
				       0x1000, 5, "/lib/ld.so", NULL, 0 };
	sb[3] = (struct bt_sideband) { bts_exec, 42, at, 1, 0, 0, "/bin/new",
				       NULL, 0 };
	b->sideband = sb;
	b->nsideband = 4;
}

Test(bt_exec_span, old_code_joins_where_nothing_clashes)
{
	struct bt_bundle b;
	struct bt_sideband sb[4];
	struct bt_exec_span span;

	bundle(&b, sb, 0x400000, 2);
	cr_assert_eq(bt_exec_span_apply(&b, &span), 1);
	cr_assert_eq(span.nexecs, 1);
	cr_assert_eq(span.cut, 0);
	cr_assert_str_eq(span.path, "/bin/new");
	/* The old program added; its ld.so, the same load, not twice.  */
	cr_assert_eq(b.nmappings, 3);
	cr_assert_str_eq(b.mappings[2].path, "/bin/old");
	cr_assert_eq(b.mappings[2].address, 0x400000);
	cr_assert_eq(b.trace_size, sizeof(blocks));
	bt_exec_span_undo(&b, &span);
	cr_assert_eq(b.mappings, now);
	cr_assert_eq(b.nmappings, 2);
}

Test(bt_exec_span, a_clash_cuts_the_old_part)
{
	struct bt_bundle b;
	struct bt_sideband sb[4];
	struct bt_exec_span span;

	bundle(&b, sb, 0x555555554000, 2);
	cr_assert_eq(bt_exec_span_apply(&b, &span), 1);
	cr_assert_eq(span.nexecs, 0);
	cr_assert_eq(span.cut, 2);
	/* The two newest blocks are the new program's.  */
	cr_assert_eq(b.trace, (const uint8_t *) blocks);
	cr_assert_eq(b.trace_size, 2 * sizeof(blocks[0]));
	cr_assert_eq(b.nmappings, 2);
	bt_exec_span_undo(&b, &span);
	cr_assert_eq(b.trace_size, sizeof(blocks));
}

Test(bt_exec_span, an_exec_outside_the_trace_changes_nothing)
{
	struct bt_bundle b;
	struct bt_sideband sb[4];
	struct bt_exec_span span;

	bundle(&b, sb, 0x400000, 0);          /* the trace starts there */
	cr_assert_eq(bt_exec_span_apply(&b, &span), 0);
	cr_assert_eq(b.nmappings, 2);
	bundle(&b, sb, 0x400000, 4);          /* past its end */
	cr_assert_eq(bt_exec_span_apply(&b, &span), 0);
	bundle(&b, sb, 0x400000, 2);
	sb[3].size = 0;                       /* not placed */
	cr_assert_eq(bt_exec_span_apply(&b, &span), 0);
	bundle(&b, sb, 0x400000, 2);
	sb[3].tid = 43;                       /* another thread's */
	cr_assert_eq(bt_exec_span_apply(&b, &span), 0);
	cr_assert_eq(b.trace_size, sizeof(blocks));
}

Test(bt_exec_span, a_pt_cut_starts_at_the_new_programs_pge)
{
	/* PSB+; TIP.PGE at 0x7fff12345678 (sext48); TIP.PGD; then, at 28,
	   MODE.Exec and a TIP.PGE giving only the low 32 bits.  */
	static const uint8_t pt[] = {
		2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
		2, 0x82, 2, 0x23,
		0x71, 0x78, 0x56, 0x34, 0x12, 0xff, 0x7f,
		0x01,
		0x99, 0x01,
		0x51, 0x44, 0x33, 0x22, 0x11,
		0x0c,                            /* TNT.8: one bit */
	};
	static const uint8_t want_tail[] = {
		0x99, 0x01,
		0xd1, 0x44, 0x33, 0x22, 0x11, 0xff, 0x7f, 0, 0,
		0x0c,
	};
	struct bt_bundle b;
	struct bt_sideband sb[4];
	struct bt_exec_span span;

	bundle(&b, sb, 0x555555554000, 26);
	b.format = btf_pt;
	b.trace = pt;
	b.trace_size = sizeof(pt);
	cr_assert_eq(bt_exec_span_apply(&b, &span), 1);
	cr_assert_eq(span.cut, 26);
	cr_assert_eq(b.trace_size, 18 + sizeof(want_tail));
	cr_assert_eq(memcmp(b.trace, pt, 18), 0, "not behind a PSB+");
	cr_assert_eq(memcmp(b.trace + 18, want_tail, sizeof(want_tail)), 0);
	bt_exec_span_undo(&b, &span);
	cr_assert_eq(b.trace, pt);
	cr_assert_eq(b.trace_size, sizeof(pt));
}

/* The old program's vDSO (a side-band "[vdso]" mapping) gets the
   bundle's copy of the vDSO there, where nothing else is; never a
   mapping of a file named "[vdso]".  */
Test(bt_exec_span, an_older_vdso_is_the_bundles_copy_elsewhere)
{
	static const uint8_t code[0x2000] = { 0xc3 };
	struct bt_pages vdso = { 0x7ffff7fc1000, sizeof(code), 5, "[vdso]",
				 code };
	struct bt_bundle b;
	struct bt_sideband sb[6];
	struct bt_exec_span span;

	bundle(&b, sb, 0x400000, 2);
	b.pages = &vdso;
	b.npages = 1;
	sb[4] = sb[3];
	sb[3] = (struct bt_sideband) { bts_map, 42, 0x7ffff7ff0000,
				       sizeof(code), 0, 5, "[vdso]", NULL, 0 };
	/* One where ld.so is now: left out.  */
	sb[5] = sb[4];
	sb[4] = (struct bt_sideband) { bts_map, 42, 0x7ffff7fc4000,
				       sizeof(code), 0, 5, "[vdso]", NULL, 0 };
	b.nsideband = 6;
	cr_assert_eq(bt_exec_span_apply(&b, &span), 1);
	cr_assert_eq(span.nexecs, 1);
	cr_assert_eq(b.nmappings, 3);
	cr_assert_eq(b.npages, 2);
	cr_assert_eq(b.pages[1].address, 0x7ffff7ff0000);
	cr_assert_eq(b.pages[1].bytes, code);
	cr_assert_eq(b.pages[1].size, sizeof(code));
	bt_exec_span_undo(&b, &span);
	cr_assert_eq(b.pages, &vdso);
	cr_assert_eq(b.npages, 1);
}
