/* Intel PT decoding with libipt's block decoder into function segments,
   handling events and errors as GDB does with its instruction decoder
   (gdb/btrace.c, ftrace_add_pt): the same segments, much faster.  */
#include "btrace/bt_ftrace.h"

#include <intel-pt.h>
#include <limits.h>
#include <string.h>

static enum bt_insn_class bt_pt_class(enum pt_insn_class iclass)
{
	switch (iclass) {
	case ptic_call: return btic_call;
	case ptic_return: return btic_return;
	case ptic_jump: return btic_jump;
	case ptic_cond_jump: return btic_cond_jump;
	case ptic_error: return btic_unknown;
	default: return btic_other;
	}
}

/* Events after sync or a block: a new start of tracing is a gap unless
   it resumes where it stopped; an overflow is a gap.  */
static int bt_pt_events(struct bt_ftrace *ft, struct pt_block_decoder *dec,
			int status)
{
	while (status & pts_event_pending) {
		struct pt_event event;
		int errcode;

		status = pt_blk_event(dec, &event, sizeof(event));
		if (status < 0)
			break;

		switch (event.type) {
		case ptev_enabled:
			if (event.status_update || event.variant.enabled.resumed
			    || !bt_nsegs(ft))
				break;
			errcode = bt_ftrace_add_gap(ft, btg_pt_disabled);
			if (errcode < 0)
				return errcode;
			break;

		case ptev_overflow:
			errcode = bt_ftrace_add_gap(ft, btg_pt_overflow);
			if (errcode < 0)
				return errcode;
			break;

		default:
			break;
		}
	}
	return status;
}

static int bt_pt_add(struct bt_ftrace *ft, const struct pt_block *block)
{
	enum bt_insn_class iclass = bt_pt_class(block->iclass);
	unsigned int size = block->truncated ? block->size : 0;

	/* The block decoder may leave the class out; decode it then.  */
	if (iclass == btic_unknown) {
		int len = bt_image_insn_decode(ft->image, block->end_ip,
					       &iclass);

		if (len < 0)
			iclass = btic_other;
		else
			size = (unsigned int) len;
	}
	if (iclass == btic_cond_jump)
		iclass = btic_other;   /* GDB's PT classes have no Jcc */
	return bt_ftrace_add_block(ft, block->ip, block->end_ip, block->ninsn,
				   iclass, size);
}

static int bt_pt_run(struct bt_ftrace *ft, struct pt_block_decoder *dec,
		     uint64_t size)
{
	int status, errcode;
	unsigned blocks = 0;

	for (;;) {
		struct pt_block block;

		status = pt_blk_sync_forward(dec);
		if (status < 0)
			return 0;   /* -pte_eos or no more sync points */

		for (;;) {
			status = bt_pt_events(ft, dec, status);
			if (status < 0)
				break;

			memset(&block, 0, sizeof(block));
			status = pt_blk_next(dec, &block, sizeof(block));
			/* Even a failing call may have decoded some.  */
			if (block.ninsn) {
				errcode = bt_pt_add(ft, &block);
				if (errcode < 0)
					return errcode;
			}
			if (ft->progress && ++blocks % bt_progress_every == 0) {
				uint64_t offset;

				if (pt_blk_get_offset(dec, &offset) >= 0)
					bt_ftrace_progress(ft, offset, size);
			}
			if (status < 0)
				break;
		}
		if (status == -pte_eos)
			return 0;

		errcode = bt_ftrace_add_gap(ft, status);
		if (errcode < 0)
			return errcode;
	}
}

int bt_pt_decode(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		 struct bt_diag *diag)
{
	struct pt_block_decoder *dec;
	struct pt_config config;
	int errcode;

	if (!bundle->trace_size)
		return 0;

	pt_config_init(&config);
	config.begin = (uint8_t *) bundle->trace;
	config.end = (uint8_t *) bundle->trace + bundle->trace_size;
	/* Blocks that end at every call and jump are contiguous in memory,
	   so that a block's instructions follow from its first address.  */
	config.flags.variant.block.end_on_call = 1;
	config.flags.variant.block.end_on_jump = 1;

	/* An unknown vendor means no errata, as for GDB.  */
	if (bundle->cpu.vendor == btv_intel) {
		config.cpu.vendor = pcv_intel;
		config.cpu.family = bundle->cpu.family;
		config.cpu.model = bundle->cpu.model;
		config.cpu.stepping = bundle->cpu.stepping;
		errcode = pt_cpu_errata(&config.errata, &config.cpu);
		if (errcode < 0)
			return bt_diag_set(diag, bte_decode, 0, 0,
					   "cannot configure the decoder for "
					   "cpu %u/%u/%u: %s",
					   bundle->cpu.family,
					   bundle->cpu.model,
					   bundle->cpu.stepping,
					   pt_errstr(pt_errcode(errcode)));
	}

	dec = pt_blk_alloc_decoder(&config);
	if (!dec)
		return bt_diag_set(diag, bte_nomem, 0, 0,
				   "cannot allocate the PT block decoder");
	errcode = pt_blk_set_image(dec, bt_image_pt(ft->image));
	if (errcode >= 0)
		errcode = bt_pt_run(ft, dec, bundle->trace_size);
	pt_blk_free_decoder(dec);
	if (errcode < 0)
		return bt_diag_set(diag, -errcode, 0, 0, "PT decode: %s",
				   bt_errstr(errcode));

	/* GDB appends the current pc as the trace's last instruction; it
	   does not count for the level.  */
	if (bundle->has_pc) {
		ft->track_level = 0;
		errcode = bt_ftrace_add_block(ft, bundle->pc, bundle->pc, 1,
					      btic_other, 0);
		ft->track_level = 1;
		if (errcode < 0)
			return bt_diag_set(diag, -errcode, 0, 0,
					   "adding the current pc: %s",
					   bt_errstr(errcode));
	}
	return 0;
}
