#include "nat/emu/cc_xlate.h"
#include "common/ps_error.h"

#include <Zydis/Zydis.h>
#include <stdlib.h>
#include <string.h>

/* A block being built.  */
struct cc_build {
	uint8_t *code;
	size_t room, off;
	uint64_t cache;
	struct cc_pos pos[4 * cc_block_max_insns + 64];
	uint16_t npos;
	struct cc_insn insns[cc_block_max_insns + 1];
	uint16_t ninsns;
	struct emu_edge edges[cc_block_max_edges];
	uint16_t nedges;
	bool overflow;
};

static void cc_emit(struct cc_build *b, const void *bytes, size_t len)
{
	if (b->off + len > b->room) {
		b->overflow = true;
		return;
	}
	memcpy(b->code + b->off, bytes, len);
	b->off += len;
}

static void cc_put32(uint8_t *at, uint32_t v)
{
	memcpy(at, &v, 4);
}

static void cc_pos_add(struct cc_build *b, uint8_t kind, uint8_t way,
		       uint8_t flags, uint16_t insn)
{
	struct cc_pos *p = &b->pos[b->npos++];

	p->off = (uint32_t) b->off;
	p->kind = kind;
	p->way = way;
	p->flags = flags;
	p->insn = insn;
}

static uint16_t cc_insn_add(struct cc_build *b, uint64_t ip, uint64_t prev)
{
	struct cc_insn *in = &b->insns[b->ninsns];

	in->ip = ip;
	in->prev = prev;
	in->edges = b->nedges;
	return b->ninsns++;
}

/* A call's return address pushed with no flag touched:
   lea rsp,[rsp-8]; mov dword [rsp],lo; mov dword [rsp+4],hi.  */
static void cc_emit_push(struct cc_build *b, uint64_t ret, uint16_t edge)
{
	uint8_t lea[5] = { 0x48, 0x8d, 0x64, 0x24, 0xf8 };
	uint8_t lo[7] = { 0xc7, 0x04, 0x24 };
	uint8_t hi[8] = { 0xc7, 0x44, 0x24, 0x04 };

	cc_put32(lo + 3, (uint32_t) ret);
	cc_put32(hi + 4, (uint32_t) (ret >> 32));
	cc_pos_add(b, cc_pos_push, 0, 0, edge);
	cc_emit(b, lea, sizeof(lea));
	cc_pos_add(b, cc_pos_push, 0, 1, edge);
	cc_emit(b, lo, sizeof(lo));
	cc_pos_add(b, cc_pos_push, 0, 2, edge);
	cc_emit(b, hi, sizeof(hi));
}

/* mov gs:[DISP], rax (STORE) or mov rax, gs:[DISP].  */
static void cc_emit_gs_rax(struct cc_build *b, bool store, uint32_t disp)
{
	uint8_t insn[9] = { 0x65, 0x48, store ? 0x89 : 0x8b, 0x04, 0x25 };

	cc_put32(insn + 5, disp);
	cc_emit(b, insn, sizeof(insn));
}

/* Way WAY: log VALUE (unless negative), then JMP rel32 to its stub
   (patched later).  Returns the JMP's offset.  */
static uint32_t cc_emit_way(struct cc_build *b, uint8_t way, int value)
{
	static const uint8_t store[3] = { 0xc6, 0x00 };
	static const uint8_t bump[4] = { 0x48, 0x8d, 0x40, 0x01 };
	static const uint8_t jmp[5] = { 0xe9 };
	uint8_t st[3];
	uint32_t at;

	if (value >= 0) {
		cc_pos_add(b, cc_pos_way, way, 0, 0);
		cc_emit_gs_rax(b, true, cc_ctl_save);
		cc_pos_add(b, cc_pos_way, way, cc_way_rax_saved, 0);
		cc_emit_gs_rax(b, false, cc_ctl_cursor);
		memcpy(st, store, sizeof(st));
		st[2] = (uint8_t) value;
		cc_pos_add(b, cc_pos_way, way,
			   cc_way_rax_saved | cc_way_store, 0);
		cc_emit(b, st, sizeof(st));
		cc_pos_add(b, cc_pos_way, way, cc_way_rax_saved, 0);
		cc_emit(b, bump, sizeof(bump));
		cc_pos_add(b, cc_pos_way, way, cc_way_rax_saved, 0);
		cc_emit_gs_rax(b, true, cc_ctl_cursor);
		cc_pos_add(b, cc_pos_way, way,
			   cc_way_rax_saved | cc_way_logged, 0);
		cc_emit_gs_rax(b, false, cc_ctl_save);
	}
	cc_pos_add(b, cc_pos_way, way, cc_way_logged, 0);
	at = (uint32_t) b->off;
	cc_emit(b, jmp, sizeof(jmp));
	return at;
}

/* Stubs after the code: a trap each, room for an absolute jump.  Every
   way's JMP is pointed at its stub.  */
static void cc_emit_stubs(struct cc_build *b, struct cc_block *blk)
{
	uint8_t stub[cc_stub_size];

	memset(stub, 0xcc, sizeof(stub));
	for (uint8_t w = 0; w < blk->nways; w++) {
		struct cc_way *way = &blk->ways[w];

		way->stub_off = (uint32_t) b->off;
		cc_pos_add(b, cc_pos_stub, w, cc_way_logged, 0);
		cc_emit(b, stub, sizeof(stub));
		if (!b->overflow)
			cc_put32(b->code + way->jmp_off + 1,
				 way->stub_off - (way->jmp_off + 5));
	}
}

/* Leave the block at IP (not copied).  LINK: IP may be translated.
   CUT: a limit of the block ends it, the path goes on at IP: the exit
   logs a byte as a branch would, so that once linked the drain still
   sees the block end.  */
static void cc_end_exit_at(struct cc_build *b, struct cc_block *blk,
			   uint64_t ip, uint64_t prev, bool link, bool cut)
{
	uint16_t at = cc_insn_add(b, ip, prev);

	(void) at;
	blk->end = cc_end_exit;
	blk->cut = cut;
	blk->nways = 1;
	blk->ways[0].target = ip;
	blk->ways[0].link = link;
	blk->ways[0].jmp_off = cc_emit_way(b, 0, cut ? 0 : -1);
}

/* The conditional INSN, copied as a branch between two logging ways.  */
static void cc_end_with_cond(struct cc_build *b, struct cc_block *blk,
			const struct emu_insn *insn, uint64_t prev)
{
	uint16_t at = cc_insn_add(b, insn->ip, prev);
	uint64_t next = insn->ip + insn->len;

	blk->end = cc_end_cond;
	blk->nways = 2;
	blk->jcc_ip = insn->ip;
	blk->jcc_target = insn->target;
	blk->ways[0].target = next;
	blk->ways[1].target = insn->target;
	blk->ways[0].link = blk->ways[1].link = true;
	cc_pos_add(b, cc_pos_orig, 0, 0, at);
	if (insn->cond < 16) {
		uint8_t jcc[6] = { 0x0f, (uint8_t) (0x80 | insn->cond) };
		uint32_t jcc_off = (uint32_t) b->off;

		cc_emit(b, jcc, sizeof(jcc));
		blk->ways[0].jmp_off = cc_emit_way(b, 0, 0);
		if (!b->overflow)
			cc_put32(b->code + jcc_off + 2,
				 (uint32_t) (b->off - (jcc_off + 6)));
		blk->ways[1].jmp_off = cc_emit_way(b, 1, 1);
	} else {
		/* JrCXZ and LOOPcc have rel8 forms only: branch over a short
		   jump to the not-taken way.  */
		uint8_t op[3];
		size_t n = 0;
		uint8_t short_jmp[2] = { 0xeb };
		uint32_t short_off;

		switch (insn->cond) {
		case emu_cc_ecxz: op[n++] = 0x67; op[n++] = 0xe3; break;
		case emu_cc_rcxz: op[n++] = 0xe3; break;
		case emu_cc_loop: op[n++] = 0xe2; break;
		case emu_cc_loope: op[n++] = 0xe1; break;
		default: op[n++] = 0xe0; break;
		}
		op[n++] = 2;
		cc_emit(b, op, n);
		cc_pos_add(b, cc_pos_way, 0, 0, 0);
		short_off = (uint32_t) b->off;
		cc_emit(b, short_jmp, sizeof(short_jmp));
		blk->ways[1].jmp_off = cc_emit_way(b, 1, 1);
		if (!b->overflow)
			b->code[short_off + 1] =
				(uint8_t) (b->off - (short_off + 2));
		blk->ways[0].jmp_off = cc_emit_way(b, 0, 0);
	}
}

/* One instruction of a return's lookup, at stop state FLAGS.  */
static void cc_ret_insn(struct cc_build *b, uint8_t flags,
			const uint8_t *bytes, size_t len)
{
	cc_pos_add(b, cc_pos_ret, 0, flags, 0);
	cc_emit(b, bytes, len);
}

static void cc_ret_gs(struct cc_build *b, uint8_t flags, uint8_t op,
		      uint8_t modrm, uint32_t disp)
{
	uint8_t insn[9] = { 0x65, 0x48, op, modrm, 0x25 };

	cc_put32(insn + 5, disp);
	cc_ret_insn(b, flags, insn, sizeof(insn));
}

/* mov rcx, gs:[rcx*8+AT]: a table's word, RCX its index.  */
static void cc_ret_table(struct cc_build *b, uint32_t at)
{
	uint8_t insn[9] = { 0x65, 0x48, 0x8b, 0x0c, 0xcd };

	cc_put32(insn + 5, at);
	cc_ret_insn(b, cc_ret_rax | cc_ret_rcx, insn, sizeof(insn));
}

/* movzx ecx, word gs:[cc_ctl_jump+1]: way 1's index, the target's
   bits 8-23, from where the lookup stored it.  */
static void cc_ret_index1(struct cc_build *b)
{
	uint8_t insn[9] = { 0x65, 0x0f, 0xb7, 0x0c, 0x25 };

	cc_put32(insn + 5, cc_ctl_jump + 1);
	cc_ret_insn(b, cc_ret_rax | cc_ret_rcx, insn, sizeof(insn));
}

/* MOV RCX, <the operand of the indirect branch ZI at IP>, with its
   RIP-relative displacement moved for the copy; false if it cannot be
   written so.  */
static bool cc_emit_load(struct cc_build *b, uint64_t ip,
			 const uint8_t *bytes,
			 const ZydisDecodedInstruction *zi,
			 const struct emu_insn *insn)
{
	uint8_t mov[16];
	size_t n = 0, rest;
	uint8_t mod = zi->raw.modrm.mod, rm = zi->raw.modrm.rm;
	size_t tail = zi->raw.modrm.offset + 1u;

	if (insn->op.seg == emu_seg_gs)
		return false;
	if (insn->op.seg == emu_seg_fs)
		mov[n++] = 0x64;
	mov[n++] = (uint8_t) (0x48 | (zi->raw.rex.X << 1) | zi->raw.rex.B);
	mov[n++] = 0x8b;
	mov[n++] = (uint8_t) ((mod << 6) | (1 << 3) | rm);
	rest = zi->length - tail;
	if (n + rest > sizeof(mov))
		return false;
	memcpy(mov + n, bytes + tail, rest);
	if (mod == 0 && rm == 5) {
		int32_t disp;
		int64_t moved;
		size_t at = n + (zi->raw.disp.offset - tail);

		memcpy(&disp, bytes + zi->raw.disp.offset, 4);
		moved = (int64_t) disp + (int64_t) (ip + zi->length) -
			(int64_t) (b->cache + b->off + n + rest);
		if (moved < INT32_MIN || moved > INT32_MAX)
			return false;
		cc_put32(mov + at, (uint32_t) (int32_t) moved);
	}
	n += rest;
	cc_pos_add(b, cc_pos_ret, 0, 0, 0);
	cc_emit(b, mov, n);
	return true;
}

/* A return or an indirect branch INSN: its target (RAX) looked up in
   the thread's table and logged (8 bytes), then a jump to the
   translation; a miss traps.  No flag is touched: the table holds the
   negated target, so RCX = target + entry is zero on a hit, which
   JRCXZ tests.  ZI and BYTES: the indirect branch as decoded.  False
   if it cannot be translated (nothing emitted that counts).  */
static bool cc_end_with_lookup(struct cc_build *b, struct cc_block *blk,
			       const struct emu_insn *insn, uint64_t prev,
			       const ZydisDecodedInstruction *zi,
			       const uint8_t *bytes)
{
	enum { A = cc_ret_rax, C = cc_ret_rcx, L = cc_ret_logged,
	       R = cc_ret_rsp };
	bool ret = insn->iclass == emu_ic_ret;
	bool call = insn->iclass == emu_ic_call_ind;
	uint8_t buf[9];
	size_t miss_jmp, miss_off, hit0, hit1, mark = b->off;
	uint16_t mark_pos = b->npos;

	cc_ret_gs(b, 0, 0x89, 0x04, cc_ctl_save);          /* save rax */
	cc_ret_gs(b, 0, 0x89, 0x0c, cc_ctl_save2);         /* save rcx */
	if (ret) {
		cc_ret_insn(b, 0, (const uint8_t[]) { 0x48, 0x8b, 0x04, 0x24 },
			    4);                            /* mov rax,[rsp] */
	} else {
		if (!cc_emit_load(b, insn->ip, bytes, zi, insn)) {
			b->off = mark;
			b->npos = mark_pos;
			return false;
		}
		cc_ret_insn(b, C, (const uint8_t[]) { 0x48, 0x89, 0xc8 }, 3);
		/* jmp/call [rip+disp] (a PLT's, a GOT's call): where the
		   target is kept, for translation ahead.  */
		if (zi->raw.modrm.mod == 0 && zi->raw.modrm.rm == 5 &&
		    insn->op.seg != emu_seg_fs) {
			int32_t disp;

			memcpy(&disp, bytes + zi->raw.disp.offset, 4);
			blk->ind_slot = insn->ip + zi->length + (int64_t) disp;
		}
	}
	/* Way 0, indexed by the target's bits 0-15: movzx ecx, ax;
	   mov rcx, gs:[rcx*8+T]; lea rcx, [rcx+rax]; jrcxz hit0.  */
	cc_ret_insn(b, A | (ret ? 0 : C), (const uint8_t[]) { 0x0f, 0xb7, 0xc8 },
		    3);
	cc_ret_table(b, cc_ctl_table);
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0x48, 0x8d, 0x0c, 0x01 }, 4);
	hit0 = b->off;
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0xe3, 0 }, 2);
	/* Way 1, by bits 8-23, read back from a slot (no shift leaves
	   the flags alone): two hot targets that share bits 0-15 do not
	   trap in turn.  */
	cc_ret_gs(b, A | C, 0x89, 0x04, cc_ctl_jump);
	cc_ret_index1(b);
	cc_ret_table(b, cc_ctl_table1);
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0x48, 0x8d, 0x0c, 0x01 }, 4);
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0xe3, 0x05 }, 2); /* jrcxz */
	miss_jmp = b->off;
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0xe9, 0, 0, 0, 0 }, 5);
	cc_ret_index1(b);
	cc_ret_table(b, cc_ctl_table1 + cc_table_size * 8);
	hit1 = b->off;
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0xeb, 0 }, 2);
	/* A hit in way 0: rcx = gs:[rcx*8+T2], the translation.  */
	if (!b->overflow)
		b->code[hit0 + 1] = (uint8_t) (b->off - (hit0 + 2));
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0x0f, 0xb7, 0xc8 }, 3);
	cc_ret_table(b, cc_ctl_table + cc_table_size * 8);
	if (!b->overflow)
		b->code[hit1 + 1] = (uint8_t) (b->off - (hit1 + 2));
	cc_ret_gs(b, A | C, 0x89, 0x0c, cc_ctl_jump);
	cc_ret_gs(b, A | C, 0x8b, 0x0c, cc_ctl_cursor);
	cc_ret_insn(b, A | C | cc_ret_store,
		    (const uint8_t[]) { 0x48, 0x89, 0x01 }, 3);
	cc_ret_insn(b, A | C, (const uint8_t[]) { 0x48, 0x8d, 0x49, 0x08 }, 4);
	cc_ret_gs(b, A | C, 0x89, 0x0c, cc_ctl_cursor);
	cc_ret_gs(b, A | C | L, 0x8b, 0x04, cc_ctl_save);
	cc_ret_gs(b, C | L, 0x8b, 0x0c, cc_ctl_save2);
	if (ret) {
		buf[0] = 0x48; buf[1] = 0x8d; buf[2] = 0xa4; buf[3] = 0x24;
		cc_put32(buf + 4, 8u + insn->ret_imm);
		cc_ret_insn(b, L, buf, 8); /* lea rsp, [rsp+8+imm] */
	} else if (call) {
		uint64_t nlip = insn->ip + insn->len;
		uint8_t lea[5] = { 0x48, 0x8d, 0x64, 0x24, 0xf8 };
		uint8_t lo[7] = { 0xc7, 0x04, 0x24 };
		uint8_t hi[8] = { 0xc7, 0x44, 0x24, 0x04 };

		cc_put32(lo + 3, (uint32_t) nlip);
		cc_put32(hi + 4, (uint32_t) (nlip >> 32));
		cc_ret_insn(b, L, lea, sizeof(lea));
		cc_ret_insn(b, L | R, lo, sizeof(lo));
		cc_ret_insn(b, L | R, hi, sizeof(hi));
	}
	buf[0] = 0x65; buf[1] = 0xff; buf[2] = 0x24; buf[3] = 0x25;
	cc_put32(buf + 4, cc_ctl_jump);
	cc_ret_insn(b, L | (ret || call ? R : 0), buf, 8);
	miss_off = b->off;
	cc_pos_add(b, cc_pos_miss, 0, A | C, 0);
	cc_emit(b, (const uint8_t[]) { 0xcc }, 1);
	if (!b->overflow)
		cc_put32(b->code + miss_jmp + 1,
			 (uint32_t) (miss_off - (miss_jmp + 5)));
	cc_insn_add(b, insn->ip, prev);
	blk->end = ret ? cc_end_ret : cc_end_ind;
	blk->jcc_ip = insn->ip;
	blk->ret_pop = (uint16_t) (8 + insn->ret_imm);
	blk->ind_call = call;
	blk->jcc_target = insn->ip + insn->len;
	return true;
}

/* Whether the cache may run ZI as a copy: no GS (the engine's), no
   relative operand but a RIP-relative memory one.  */
static bool cc_copyable(const ZydisDecodedInstruction *zi,
			const ZydisDecodedOperand *ops, bool *riprel)
{
	*riprel = false;
	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_RDGSBASE:
	case ZYDIS_MNEMONIC_WRGSBASE:
	case ZYDIS_MNEMONIC_SWAPGS:
	case ZYDIS_MNEMONIC_XBEGIN:
	case ZYDIS_MNEMONIC_XEND:
	case ZYDIS_MNEMONIC_XABORT:
		return false;
	default:
		break;
	}
	for (uint8_t i = 0; i < zi->operand_count; i++) {
		const ZydisDecodedOperand *op = &ops[i];

		if (op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
		    op->reg.value == ZYDIS_REGISTER_GS)
			return false;
		if (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		    op->imm.is_relative)
			return false;
		if (op->type != ZYDIS_OPERAND_TYPE_MEMORY)
			continue;
		if (op->mem.segment == ZYDIS_REGISTER_GS)
			return false;
		if (op->mem.base == ZYDIS_REGISTER_RIP ||
		    op->mem.base == ZYDIS_REGISTER_EIP) {
			if (op->mem.base == ZYDIS_REGISTER_EIP ||
			    zi->raw.disp.size != 32)
				return false;
			*riprel = true;
		}
	}
	return true;
}

/* Copy the instruction at IP (BYTES, decoded as ZI) to the block;
   false if a RIP-relative operand cannot reach from there.  */
static bool cc_emit_copy(struct cc_build *b, uint64_t ip,
			 const uint8_t *bytes,
			 const ZydisDecodedInstruction *zi, bool riprel)
{
	size_t start = b->off;

	if (riprel) {
		int32_t disp;
		int64_t moved;
		uint64_t here = b->cache + b->off + zi->length;

		memcpy(&disp, bytes + zi->raw.disp.offset, 4);
		moved = (int64_t) disp + (int64_t) (ip + zi->length - here);
		if (moved < INT32_MIN || moved > INT32_MAX)
			return false;
		cc_emit(b, bytes, zi->length);
		if (!b->overflow)
			cc_put32(b->code + start + zi->raw.disp.offset,
				 (uint32_t) (int32_t) moved);
		return true;
	}
	cc_emit(b, bytes, zi->length);
	return true;
}

static int cc_finish(struct cc_build *b, struct cc_block *blk)
{
	if (b->overflow)
		return -pse_range;
	size_t insns_at, edges_at, all;
	uint8_t *mem;

	blk->size = (uint32_t) b->off;
	/* One allocation for the three (the instructions 8-byte aligned
	   after the positions), where three mallocs a block showed in
	   profiles.  */
	insns_at = b->npos * sizeof(*blk->pos);
	insns_at = (insns_at + 7) & ~(size_t) 7;
	edges_at = insns_at + b->ninsns * sizeof(*blk->insns);
	all = edges_at + (b->nedges ? b->nedges : 1) * sizeof(*blk->edges);
	mem = malloc(all);
	if (!mem)
		return -pse_nomem;
	blk->pos = (struct cc_pos *) mem;
	blk->insns = (struct cc_insn *) (mem + insns_at);
	blk->edges = (struct emu_edge *) (mem + edges_at);
	memcpy(blk->pos, b->pos, b->npos * sizeof(*blk->pos));
	memcpy(blk->insns, b->insns, b->ninsns * sizeof(*blk->insns));
	memcpy(blk->edges, b->edges, b->nedges * sizeof(*blk->edges));
	for (uint16_t e = 0; e < b->nedges; e++)
		blk->calls |= b->edges[e].call;
	blk->npos = b->npos;
	blk->ninsns = b->ninsns;
	blk->nedges = b->nedges;
	return 0;
}

int cc_xlate(struct cc_block *blk, const struct cc_xlate_env *env,
	     uint64_t start, uint64_t cache, uint8_t *code, size_t room)
{
	/* Its arrays are written before they are read: only the counts
	   start at zero (20 KB cleared per block showed in profiles).  On
	   the stack: a malloc and free of it per block did too.  */
	struct cc_build build, *b = &build;
	ZydisDecoder zydis;
	uint64_t ip = start, prev = 0;
	unsigned steps = 0;

	memset(blk, 0, sizeof(*blk));
	blk->start = start;
	blk->cache = cache;
	b->code = code;
	b->room = room < cc_block_max_bytes ? room : cc_block_max_bytes;
	b->cache = cache;
	b->off = 0;
	b->npos = b->ninsns = b->nedges = 0;
	b->overflow = false;
	ZydisDecoderInit(&zydis, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);

	for (;; steps++) {
		ZydisDecodedInstruction zi;
		ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
		struct emu_insn insn;
		uint8_t bytes[16];
		bool riprel;
		long n;

		if (steps >= cc_block_max_insns ||
		    b->nedges >= cc_block_max_edges) {
			cc_end_exit_at(b, blk, ip, prev, true, true);
			break;
		}
		if (!env->may_copy(env->ctx, ip)) {
			/* Linked only once IP may be copied: after a flush.  */
			cc_end_exit_at(b, blk, ip, prev, true, false);
			break;
		}
		n = env->read(env->ctx, ip, bytes, sizeof(bytes));
		if (n <= 0 ||
		    !ZYAN_SUCCESS(ZydisDecoderDecodeFull(&zydis, bytes,
				(size_t) n, &zi, ops))) {
			cc_end_exit_at(b, blk, ip, prev, false, false);
			break;
		}
		emu_insn_classify(ip, &zi, ops, &insn);
		if (insn.iclass == emu_ic_jmp && insn.emulable) {
			struct emu_edge e = { ip, insn.target, insn.len,
					      false };

			b->edges[b->nedges++] = e;
			prev = ip;
			ip = insn.target;
			continue;
		}
		if (insn.iclass == emu_ic_call && insn.emulable) {
			struct emu_edge e = { ip, insn.target, insn.len,
					      true };

			cc_emit_push(b, ip + insn.len, b->nedges);
			b->edges[b->nedges++] = e;
			prev = ip;
			ip = insn.target;
			continue;
		}
		if (insn.iclass == emu_ic_cond && insn.emulable) {
			cc_end_with_cond(b, blk, &insn, prev);
			blk->ncopied++;
			break;
		}
		if ((insn.iclass == emu_ic_ret ||
		     insn.iclass == emu_ic_jmp_ind ||
		     insn.iclass == emu_ic_call_ind) && insn.emulable &&
		    cc_end_with_lookup(b, blk, &insn, prev, &zi, bytes)) {
			blk->ncopied++;
			break;
		}
		if (insn.iclass != emu_ic_other || !insn.emulable ||
		    !cc_copyable(&zi, ops, &riprel)) {
			cc_end_exit_at(b, blk, ip, prev, false, false);
			break;
		}
		{
			uint16_t at = b->ninsns;
			size_t off = b->off;

			cc_pos_add(b, cc_pos_orig, 0, 0, at);
			if (!cc_emit_copy(b, ip, bytes, &zi, riprel)) {
				b->npos--;
				b->off = off;
				cc_end_exit_at(b, blk, ip, prev, false, false);
				break;
			}
			cc_insn_add(b, ip, prev);
			blk->ncopied++;
		}
		prev = ip;
		ip += insn.len;
	}
	if (blk->end == cc_end_exit && blk->ncopied == 0)
		return -pse_unsupported;
	cc_emit_stubs(b, blk);
	return cc_finish(b, blk);
}

void cc_block_fini(struct cc_block *blk)
{
	free(blk->pos);  /* the insns and edges are in its allocation */
	blk->pos = NULL;
	blk->insns = NULL;
	blk->edges = NULL;
}

const struct cc_pos *cc_block_pos(const struct cc_block *blk, uint32_t off)
{
	size_t lo = 0, hi = blk->npos;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (blk->pos[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < blk->npos && blk->pos[lo].off == off ? &blk->pos[lo]
		: NULL;
}

void cc_stub_abs_jmp(uint8_t stub[cc_stub_size], uint64_t target)
{
	static const uint8_t jmp[6] = { 0xff, 0x25, 0, 0, 0, 0 };

	memset(stub, 0xcc, cc_stub_size);
	memcpy(stub, jmp, sizeof(jmp));
	memcpy(stub + 6, &target, 8);
}
