/* The replay cursor: where GDB's record-btrace lands for stepi, step,
   next and finish, forward and in reverse (gdb/record-btrace.c for the
   single steps, gdb/infrun.c for the stepping logic on top of them).
   Frames are function instances: a segment and its prev/next chain, as
   GDB's btrace frame unwinder identifies them; lines come from DWARF.  */
#include "btrace/bt_history.h"
#include "common/ps_array.h"

#include <stdlib.h>
#include <string.h>

struct bt_replay {
	const struct bt_ftrace *ft;
	const struct bt_image *image;
	/* A slot per instruction number (a gap is one slot); the last slot
	   is the current instruction, not yet executed.  */
	size_t nslots;
	size_t pos;               /* the replay position, if replaying */
	int replaying;
	uint32_t *root;           /* each segment's first part */

	/* The segment of the slot last looked at (an index) and its
	   instructions' addresses: the trace stays stored as blocks.  */
	uint32_t seg;
	size_t first, count;      /* its slots */
	uint64_t *pcs;
	size_t pcs_cap;
	int error;                /* a walk that failed (none is expected) */
};

static int bt_replay_collect(uint64_t ip, void *ctx)
{
	struct bt_replay *r = ctx;

	if (PS_ARRAY_RESERVE(r->pcs, r->pcs_cap, r->count + 1))
		return -bte_nomem;
	r->pcs[r->count++] = ip;
	return 0;
}

/* Make segment index SEG the one looked at.  */
static int bt_replay_load(struct bt_replay *r, uint32_t seg)
{
	int errcode = 0;

	r->seg = seg;
	r->first = bt_seg_insn_offset(r->ft, seg + 1) - 1;
	r->count = 0;
	if (bt_seg_is_gap(r->ft, seg + 1)) {
		r->count = 1;
		return 0;
	}
	errcode = bt_ftrace_for_each_insn(r->ft, seg + 1, bt_replay_collect, r);
	if (errcode < 0) {
		r->count = 0;
		r->error = errcode;
	}
	return errcode;
}

/* The segment index of SLOT, loading it: the neighbours of the last one
   for stepping, a search for jumps.  */
static uint32_t bt_slot_seg(struct bt_replay *r, size_t slot)
{
	uint32_t lo = 1, hi = bt_nsegs(r->ft);

	if (slot - r->first < r->count)
		return r->seg;
	if (slot == r->first + r->count && r->seg + 1 < hi &&
	    bt_replay_load(r, r->seg + 1) == 0 && slot - r->first < r->count)
		return r->seg;
	/* The last segment whose first number is at most SLOT's: empty
	   segments share their successor's.  */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;

		if (bt_seg_insn_offset(r->ft, mid) <= slot + 1)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (lo - 1 != r->seg || !r->count)
		(void) bt_replay_load(r, lo - 1);
	return r->seg;
}

static uint64_t bt_slot_pc(struct bt_replay *r, size_t slot)
{
	uint32_t seg = bt_slot_seg(r, slot);

	if (bt_seg_is_gap(r->ft, seg + 1) || slot - r->first >= r->count)
		return 0;
	return r->pcs[slot - r->first];
}

int bt_replay_alloc(struct bt_replay **pr, const struct bt_ftrace *ft,
		    const struct bt_image *image, struct bt_diag *diag)
{
	struct bt_replay *r;
	uint32_t last;

	if (!pr || !ft || !image)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	last = bt_nsegs(ft);
	if (!last)
		return bt_diag_set(diag, bte_no_trace, 0, 0, "No trace.");

	r = calloc(1, sizeof(*r));
	if (!r)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	r->ft = ft;
	r->image = image;
	r->nslots = bt_seg_insn_offset(ft, last) + bt_seg_nnum(ft, last) - 1;
	r->root = malloc(last * sizeof(*r->root));
	if (!r->root) {
		bt_replay_free(r);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	/* Walk every segment once, so that a trace the image cannot follow
	   fails here and not in the middle of a step.  */
	for (uint32_t s = 0; s < last; ++s) {
		uint32_t prev = bt_seg_prev(ft, s + 1);
		int errcode;

		r->root[s] = prev ? r->root[prev - 1] : s;
		errcode = bt_replay_load(r, s);
		if (errcode < 0) {
			bt_replay_free(r);
			return bt_diag_set(diag, -errcode, 0, 0,
					   "walking segment %u: %s", s + 1,
					   bt_errstr(errcode));
		}
	}
	r->pos = r->nslots - 1;
	*pr = r;
	return 0;
}

void bt_replay_free(struct bt_replay *r)
{
	if (!r)
		return;
	free(r->pcs);
	free(r->root);
	free(r);
}

int bt_replay_position(const struct bt_replay *r, uint32_t *number,
		       uint64_t *pc)
{
	/* Looking a slot up only moves the cache: the cursor is unchanged,
	   and every cursor is allocated writable.  */
	struct bt_replay *cache = (struct bt_replay *) r;

	if (!r)
		return -bte_invalid;
	if (number)
		*number = r->replaying ? (uint32_t) r->pos + 1 : 0;
	if (pc)
		*pc = bt_slot_pc(cache, r->replaying ? r->pos : r->nslots - 1);
	return 0;
}

/* ---- Single steps (record_btrace_single_step_forward/backward) ---- */

static int bt_is_gap(struct bt_replay *r, size_t slot)
{
	return bt_seg_is_gap(r->ft, bt_slot_seg(r, slot) + 1);
}

/* One instruction on, skipping gaps; 0 at the end of the history, where
   replaying stops.  */
static int bt_step_forward(struct bt_replay *r)
{
	size_t at = r->pos;

	if (!r->replaying)
		return 0;
	do {
		if (at + 1 >= r->nslots)
			return 0;
		at++;
	} while (bt_is_gap(r, at));
	r->pos = at;
	if (at == r->nslots - 1) {
		r->replaying = 0;
		return 0;
	}
	return 1;
}

static int bt_step_backward(struct bt_replay *r)
{
	size_t at;

	if (!r->replaying) {
		r->replaying = 1;
		r->pos = r->nslots - 1;
	}
	at = r->pos;
	do {
		if (at == 0)
			return 0;
		at--;
	} while (bt_is_gap(r, at));
	r->pos = at;
	return 1;
}

static int bt_step(struct bt_replay *r, int reverse)
{
	return reverse ? bt_step_backward(r) : bt_step_forward(r);
}

/* ---- Frames and lines ---------------------------------------------- */

#define BT_NO_FRAME UINT32_MAX

static uint32_t bt_frame(struct bt_replay *r, size_t slot)
{
	return r->root[bt_slot_seg(r, slot)];
}

static uint32_t bt_caller(const struct bt_replay *r, uint32_t frame)
{
	uint32_t up = bt_seg_up(r->ft, frame + 1);

	return up ? r->root[up - 1] : BT_NO_FRAME;
}

static uint64_t bt_cur_pc(struct bt_replay *r)
{
	return bt_slot_pc(r, r->pos);
}

static int bt_line_of(const struct bt_replay *r, uint64_t pc,
		      const char **file)
{
	int line = 0;

	*file = NULL;
	if (bt_image_line(r->image, pc, &line, file) < 0)
		return 0;
	return line;
}

/* Whether a statement row starts at PC.  */
static int bt_stmt_start(const struct bt_replay *r, uint64_t pc)
{
	int begin, end;

	return bt_image_line_range(r->image, pc, &begin, &end, NULL, NULL)
		== 0 && begin < end;
}

static uint64_t bt_row_start(const struct bt_replay *r, uint64_t pc)
{
	uint64_t start = 0, end = 0;

	if (bt_image_line_bounds(r->image, pc, &start, &end) < 0)
		return 0;
	return start;
}

/* GDB's amd64 prologue analysis for GCC code: after push %rbp and
   mov %rsp,%rbp (an endbr64 first), or the start if frameless; a
   prologue ending mid-row runs on to the row's end.  */
static uint64_t bt_after_prologue(const struct bt_replay *r, uint64_t start)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const uint8_t movs[2][3] = { { 0x48, 0x89, 0xe5 },
					    { 0x48, 0x8b, 0xec } };
	uint8_t code[8];
	uint64_t pc = start, row, end;

	if (bt_image_read(r->image, pc, code, sizeof(code)) !=
	    (int) sizeof(code))
		return start;
	if (memcmp(code, endbr64, 4) == 0) {
		pc += 4;
		if (bt_image_read(r->image, pc, code, 4) != 4)
			return start;
	}
	if (code[0] != 0x55)
		return start;
	if (memcmp(code + 1, movs[0], 3) != 0 &&
	    memcmp(code + 1, movs[1], 3) != 0)
		return start;
	pc += 4;
	if (bt_image_line_bounds(r->image, pc, &row, &end) == 0 && end &&
	    row != pc)
		pc = end;
	return pc;
}

/* ---- Stepping by lines (infrun's process_event_stop_test) ---------- */

/* Run in the direction until the frame is FRAME again.  */
static int bt_run_to_frame(struct bt_replay *r, int reverse, uint32_t frame)
{
	while (bt_frame(r, r->pos) != frame)
		if (!bt_step(r, reverse))
			return 0;
	return 1;
}

static int bt_step_line(struct bt_replay *r, int reverse, int over)
{
	uint32_t frame = bt_frame(r, r->pos);
	const char *file, *nfile;
	int line = bt_line_of(r, bt_cur_pc(r), &file);

	for (;;) {
		uint32_t now;
		uint64_t pc;
		int nline;

		if (!bt_step(r, reverse))
			return 0;
		now = bt_frame(r, r->pos);
		pc = bt_cur_pc(r);

		if (now != frame && bt_caller(r, now) == frame) {
			/* Stepped into a subroutine (backward: over its
			   return).  */
			uint64_t start = bt_image_func_start(r->image, pc);
			int has_lines = start && bt_line_of(r, start, &nfile);

			if (over || !has_lines) {
				if (reverse) {
					/* Back to its entry, then once more
					   onto the call.  */
					while (bt_cur_pc(r) != start ||
					       bt_frame(r, r->pos) != now)
						if (!bt_step(r, 1))
							return 0;
					if (!bt_step(r, 1))
						return 0;
				} else if (!bt_run_to_frame(r, 0, frame))
					return 0;
				pc = bt_cur_pc(r);
				now = frame;
			} else if (!reverse) {
				uint64_t target = bt_after_prologue(r, start);

				while (bt_cur_pc(r) != target)
					if (!bt_step(r, 0))
						return 0;
				return 1;
			} else {
				/* Into the callee's last line, to its
				   start.  */
				frame = now;
				line = bt_line_of(r, pc, &file);
				if (bt_row_start(r, pc) == pc)
					return 1;
				continue;
			}
		} else if (now != frame) {
			/* Out to the caller (or elsewhere).  Forward, a
			   statement of another line starting right there
			   stops; else go on in the caller's line, as from
			   the middle of it.  */
			nline = bt_line_of(r, pc, &nfile);
			if (!reverse && bt_row_start(r, pc) == pc &&
			    (nline != line || nfile != file) &&
			    bt_stmt_start(r, pc))
				return 1;
			frame = now;
			line = nline;
			file = nfile;
			if (reverse && bt_row_start(r, pc) == pc)
				return 1;
			continue;
		}

		nline = bt_line_of(r, pc, &nfile);
		if (!nline)
			return 1;
		if (reverse) {
			/* Stop at the start of a row, unless it is the
			   function's entry: then on to the caller.  */
			if (bt_row_start(r, pc) == pc &&
			    pc != bt_image_func_start(r->image, pc))
				return 1;
			continue;
		}
		if (nline == line && nfile == file)
			continue;
		if (bt_row_start(r, pc) == pc) {
			if (bt_stmt_start(r, pc))
				return 1;
			continue;
		}
		line = nline;
		file = nfile;
	}
}

/* finish: to the caller's frame (forward, at the return address), or
   back past the function's entry onto the call.  */
static int bt_finish(struct bt_replay *r, int reverse, struct bt_diag *diag)
{
	uint32_t caller = bt_caller(r, bt_frame(r, r->pos));
	uint64_t start;

	/* A function whose call is not in the trace has no caller frame.  */
	if (caller == BT_NO_FRAME)
		return bt_diag_set(diag, bte_range, 0, 0,
				   "\"finish\" not meaningful in the "
				   "outermost frame.");
	if (!reverse)
		return bt_run_to_frame(r, 0, caller);

	/* GDB breaks at the entry of the function (in any frame), then
	   steps back once more.  */
	start = bt_image_func_start(r->image, bt_cur_pc(r));
	if (start && bt_cur_pc(r) != start) {
		do {
			if (!bt_step(r, 1))
				return 0;
		} while (bt_cur_pc(r) != start);
	}
	return bt_step(r, 1);
}

int bt_replay_move(struct bt_replay *r, enum bt_replay_cmd cmd, int reverse,
		   uint32_t number, struct bt_diag *diag)
{
	if (!r)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");

	switch (cmd) {
	case btrc_begin:
		r->replaying = 1;
		r->pos = 0;
		while (bt_is_gap(r, r->pos))
			if (++r->pos >= r->nslots)
				return bt_diag_set(diag, bte_no_trace, 0, 0,
						   "No trace.");
		return 1;
	case btrc_end:
		r->replaying = 0;
		return 1;
	case btrc_goto:
		if (number == 0 || number > r->nslots ||
		    bt_is_gap(r, number - 1))
			return bt_diag_set(diag, bte_range, 0, 0,
					   "Target insn '%u' not found.",
					   number);
		r->replaying = 1;
		r->pos = number - 1;
		return 1;
	case btrc_stepi:
		return bt_step(r, reverse);
	case btrc_step:
	case btrc_next:
		/* Forward from the live end there is nothing to replay.  */
		if (!reverse && !r->replaying)
			return 0;
		if (reverse && !r->replaying) {
			r->replaying = 1;
			r->pos = r->nslots - 1;
		}
		return bt_step_line(r, reverse, cmd == btrc_next);
	case btrc_finish:
		if (!reverse && !r->replaying)
			return 0;
		if (reverse && !r->replaying) {
			r->replaying = 1;
			r->pos = r->nslots - 1;
		}
		return bt_finish(r, reverse, diag);
	default:
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad command");
	}
}
