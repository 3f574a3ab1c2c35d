/* BTS: the blocks of GDB's btrace XML (newest first), walked instruction
   by instruction as GDB does (btrace_compute_ftrace_bts).  */
#include "btrace/bt_decode.h"
#include "btrace/bt_seg.h"

#include <string.h>

/* GDB classifies BTS instructions by their opcode after prefixes
   (amd64_call_p, amd64_ret_p, amd64_jmp_p), far forms included.  */
static enum bt_insn_class bt_bts_class(const struct bt_image *image,
				       uint64_t ip)
{
	uint8_t insn[16];
	int size = bt_image_read(image, ip, insn, sizeof(insn)), i = 0;

	if (size <= 0)
		return btic_other;
	while (i < size - 1) {
		uint8_t b = insn[i];

		if (b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 ||
		    b == 0xf3 || b == 0x2e || b == 0x36 || b == 0x3e ||
		    b == 0x26 || b == 0x64 || b == 0x65 ||
		    (b >= 0x40 && b <= 0x4f))
			i += 1;
		else
			break;
	}

	switch (insn[i]) {
	case 0xe8:
		return btic_call;
	case 0xe9:
	case 0xeb:
		return btic_jump;
	case 0xc2: case 0xc3: case 0xca: case 0xcb: case 0xcf:
		return btic_return;
	case 0xff:
		if (i + 1 >= size)
			return btic_other;
		switch (insn[i + 1] & 0x38) {
		case 0x10: case 0x18: return btic_call;
		case 0x20: case 0x28: return btic_jump;
		}
		return btic_other;
	}
	return btic_other;
}

/* Add the N instructions from FIRST to LAST (none if N is 0).  */
static int bt_bts_run(struct bt_ftrace *ft, uint64_t first, uint64_t last,
		      uint32_t n, enum bt_insn_class iclass)
{
	return n ? bt_ftrace_add_block(ft, first, last, n, iclass, 0) : 0;
}

static int bt_bts_block(struct bt_ftrace *ft, uint64_t begin, uint64_t end,
			int newest)
{
	uint64_t pc = begin, prev = begin;
	uint32_t n = 0;
	int size, errcode;

	while (pc != end) {
		if (end < pc) {
			/* Walked past the end: the record is inconsistent.  */
			errcode = bt_bts_run(ft, begin, prev, n,
					     bt_bts_class(ft->image, prev));
			return errcode < 0 ? errcode
				: bt_ftrace_add_gap(ft, btg_bts_overflow);
		}
		size = bt_image_insn_length(ft->image, pc);
		if (size <= 0) {
			/* GDB keeps the undecodable instruction itself.  */
			errcode = bt_bts_run(ft, begin, pc, n + 1, btic_other);
			return errcode < 0 ? errcode
				: bt_ftrace_add_gap(ft, btg_bts_insn_size);
		}
		prev = pc;
		pc += (unsigned int) size;
		n += 1;
	}

	if (!newest)
		return bt_ftrace_add_block(ft, begin, end, n + 1,
					   bt_bts_class(ft->image, end), 0);

	/* The newest block ends at the current instruction, which does not
	   count for the level.  */
	errcode = bt_bts_run(ft, begin, prev, n, btic_other);
	if (errcode < 0)
		return errcode;
	ft->track_level = 0;
	errcode = bt_ftrace_add_block(ft, end, end, 1,
				      bt_bts_class(ft->image, end), 0);
	ft->track_level = 1;
	return errcode;
}

int bt_bts_decode(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		  struct bt_diag *diag)
{
	size_t nblocks = bundle->trace_size / 16;

	for (size_t blk = nblocks; blk-- > 0;) {
		uint64_t begin = 0, end = 0;
		int errcode;

		if ((nblocks - blk) % bt_progress_every == 0)
			bt_ftrace_progress(ft, nblocks - blk, nblocks);

		for (int i = 7; i >= 0; --i) {
			begin = (begin << 8) | bundle->trace[blk * 16 + i];
			end = (end << 8) | bundle->trace[blk * 16 + 8 + i];
		}
		errcode = bt_bts_block(ft, begin, end, blk == 0);
		if (errcode < 0)
			return bt_diag_set(diag, -errcode, 1, blk * 16,
					   "BTS block %zu: %s", blk,
					   bt_errstr(errcode));
	}
	return 0;
}
