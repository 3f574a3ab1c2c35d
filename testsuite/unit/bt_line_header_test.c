/* Line program headers of DWARF 5 (entry formats, strings in
   .debug_line_str) and DWARF 4 (1-based lists), built byte by byte; the
   byte reader; GDB's path_join.  */
#include "btrace/bt_line_header.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	uint8_t b[512];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	cr_assert_leq(b->n + n, sizeof(b->b));
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void u8(struct buf *b, unsigned int v)
{
	uint8_t x = (uint8_t) v;

	put(b, &x, 1);
}

static void u16(struct buf *b, unsigned int v)
{
	u8(b, v & 0xff);
	u8(b, v >> 8);
}

static void u32(struct buf *b, uint32_t v)
{
	u16(b, v & 0xffff);
	u16(b, v >> 16);
}

static void str(struct buf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

/* The opcode parameters every header here has (opcode base 13).  */
static void params(struct buf *b)
{
	static const uint8_t lens[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

	u8(b, 1);                 /* minimum instruction length */
	u8(b, 1);                 /* maximum operations per instruction */
	u8(b, 1);                 /* default is_stmt */
	u8(b, 0xfb);              /* line base -5 */
	u8(b, 14);                /* line range */
	u8(b, 13);                /* opcode base */
	put(b, lens, sizeof(lens));
}

/* Patch the unit and header lengths once the header is written: the
   program is one DW_LNS_copy.  */
static void finish(struct buf *b, size_t hlen_at)
{
	uint32_t unit, hlen = (uint32_t) (b->n - hlen_at - 4);

	memcpy(b->b + hlen_at, &hlen, 4);
	u8(b, DW_LNS_copy);
	unit = (uint32_t) (b->n - 4);
	memcpy(b->b, &unit, 4);
}

/* A DWARF 5 header: directories by .debug_line_str offset, files by
   inline string and directory index.  */
static size_t dwarf5(struct buf *b, struct buf *strs, uint64_t bad_form)
{
	size_t hlen_at;

	memset(b, 0, sizeof(*b));
	memset(strs, 0, sizeof(*strs));
	str(strs, "/comp");
	str(strs, "inc");
	u32(b, 0);
	u16(b, 5);
	u8(b, 8);                 /* address size */
	u8(b, 0);                 /* segment selector size */
	hlen_at = b->n;
	u32(b, 0);
	params(b);
	u8(b, 1);                 /* directory entry format */
	u8(b, DW_LNCT_path);
	u8(b, bad_form ? (unsigned int) bad_form : DW_FORM_line_strp);
	u8(b, 2);
	u32(b, 0);
	u32(b, 6);
	u8(b, 2);                 /* file entry format */
	u8(b, DW_LNCT_path);
	u8(b, DW_FORM_string);
	u8(b, DW_LNCT_directory_index);
	u8(b, DW_FORM_udata);
	u8(b, 3);
	str(b, "a.c");
	u8(b, 0);
	str(b, "b.h");
	u8(b, 1);
	str(b, "/abs/c.h");
	u8(b, 1);
	finish(b, hlen_at);
	return b->n;
}

Test(bt_line_header, dwarf5_tables_are_zero_based)
{
	struct buf b, strs;
	Elf_Data line = { 0 }, line_str = { 0 };
	struct bt_dsecs secs = { &line, &line_str, NULL };
	struct bt_lhdr h;

	line.d_buf = b.b;
	line.d_size = dwarf5(&b, &strs, 0);
	line_str.d_buf = strs.b;
	line_str.d_size = strs.n;
	memset(&h, 0, sizeof(h));
	cr_assert_eq(bt_lhdr_read(&h, &secs, 0, 8), 0);
	cr_assert_eq(h.version, 5);
	cr_assert_eq(h.line_base, -5);
	cr_assert_eq(h.opcode_base, 13);
	cr_assert_eq(h.std_len[DW_LNS_set_isa], 1);
	cr_assert_eq(h.ndirs, 2);
	cr_assert_str_eq(bt_lhdr_dir(&h, 0), "/comp");
	cr_assert_str_eq(bt_lhdr_dir(&h, 1), "inc");
	cr_assert_null(bt_lhdr_dir(&h, 2));
	cr_assert_eq(h.nfiles, 3);
	cr_assert_str_eq(bt_lhdr_file(&h, 0)->name, "a.c");
	cr_assert_eq(bt_lhdr_file(&h, 1)->dir, 1);
	cr_assert_str_eq(bt_lhdr_file(&h, 2)->name, "/abs/c.h");
	cr_assert_null(bt_lhdr_file(&h, 3));
	cr_assert_eq(h.prog_end - h.prog, 1);
	cr_assert_eq(h.prog[0], DW_LNS_copy);
	/* DW_LNE_define_file adds to the table.  */
	cr_assert_eq(bt_lhdr_add_file(&h, "d.c", 0), 0);
	cr_assert_str_eq(bt_lhdr_file(&h, 3)->name, "d.c");
	bt_lhdr_fini(&h);
}

Test(bt_line_header, bad_headers_are_refused)
{
	struct buf b, strs;
	Elf_Data line = { 0 }, line_str = { 0 };
	struct bt_dsecs secs = { &line, &line_str, NULL };
	struct bt_lhdr h;

	line_str.d_buf = strs.b;
	line.d_buf = b.b;
	/* A form GDB's reader would need other sections for.  */
	line.d_size = dwarf5(&b, &strs, DW_FORM_strx1);
	line_str.d_size = strs.n;
	memset(&h, 0, sizeof(h));
	cr_assert_lt(bt_lhdr_read(&h, &secs, 0, 8), 0);
	bt_lhdr_fini(&h);
	/* Cut short inside the file table.  */
	dwarf5(&b, &strs, 0);
	line.d_size = b.n - 8;
	memset(&h, 0, sizeof(h));
	cr_assert_lt(bt_lhdr_read(&h, &secs, 0, 8), 0);
	bt_lhdr_fini(&h);
	/* An offset past the section, and no section.  */
	line.d_size = b.n;
	memset(&h, 0, sizeof(h));
	cr_assert_lt(bt_lhdr_read(&h, &secs, b.n, 8), 0);
	secs.line = NULL;
	cr_assert_lt(bt_lhdr_read(&h, &secs, 0, 8), 0);
	bt_lhdr_fini(&h);
}

Test(bt_line_header, dwarf4_tables_are_one_based)
{
	struct buf b;
	Elf_Data line = { 0 };
	struct bt_dsecs secs = { &line, NULL, NULL };
	struct bt_lhdr h;
	size_t hlen_at;

	memset(&b, 0, sizeof(b));
	u32(&b, 0);
	u16(&b, 4);
	hlen_at = b.n;
	u32(&b, 0);
	params(&b);
	str(&b, "inc");
	u8(&b, 0);
	str(&b, "a.c");
	u8(&b, 0);
	u8(&b, 0);
	u8(&b, 0);
	str(&b, "b.h");
	u8(&b, 1);
	u8(&b, 0);
	u8(&b, 0);
	u8(&b, 0);
	finish(&b, hlen_at);
	line.d_buf = b.b;
	line.d_size = b.n;
	memset(&h, 0, sizeof(h));
	cr_assert_eq(bt_lhdr_read(&h, &secs, 0, 8), 0);
	cr_assert_eq(h.addr_size, 8);
	cr_assert_null(bt_lhdr_file(&h, 0));
	cr_assert_str_eq(bt_lhdr_file(&h, 1)->name, "a.c");
	cr_assert_str_eq(bt_lhdr_file(&h, 2)->name, "b.h");
	cr_assert_null(bt_lhdr_dir(&h, 0), "directory 0 is the CU's");
	cr_assert_str_eq(bt_lhdr_dir(&h, 1), "inc");
	cr_assert_eq(h.prog_end - h.prog, 1);
	bt_lhdr_fini(&h);
}

Test(bt_line_header, leb128_and_path_join)
{
	static const uint8_t bytes[] = { 0xe5, 0x8e, 0x26, 0xc0, 0xbb, 0x78,
					 0x7f, 0x80 };
	struct bt_rd r = { bytes, bytes + sizeof(bytes), 0 };
	char *p;

	cr_assert_eq(bt_rd_uleb(&r), 624485);
	cr_assert_eq(bt_rd_sleb(&r), -123456);
	cr_assert_eq(bt_rd_sleb(&r), -1);
	cr_assert_eq(r.bad, 0);
	(void) bt_rd_uleb(&r);    /* a continuation byte, then the end */
	cr_assert_eq(r.bad, 1);
	cr_assert_eq(bt_rd_n(&r, 4), 0);

	p = bt_path_join("a/", "b");
	cr_assert_str_eq(p, "a/b");
	free(p);
	p = bt_path_join("a", "b/c");
	cr_assert_str_eq(p, "a/b/c");
	free(p);
	p = bt_path_join("", "b");
	cr_assert_str_eq(p, "b");
	free(p);
}
