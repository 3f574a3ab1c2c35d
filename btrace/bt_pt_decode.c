/* Intel PT decoding with libipt's block decoder into function segments,
   handling events and errors as GDB does with its instruction decoder
   (gdb/btrace.c, ftrace_add_pt): the same segments, much faster.  The
   decoder runs on a thread of its own and hands its blocks to the
   segment builder through a bt_blockq, so that decoding and building
   take two cores; they take turns in one thread when no thread can be
   had.  */
#include "btrace/bt_decode.h"
#include "btrace/bt_seg.h"
#include "btrace/bt_blockq.h"

#include <immintrin.h>
#include <intel-pt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
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

/* The decoder's side: libipt's block decoder, stepped so that it can
   stop whenever a chunk of records is full.  */
struct bt_pt_producer {
	struct pt_block_decoder *dec;
	const struct bt_image *image;
	int status;               /* the decoder's last status */
	enum { btp_sync, btp_blocks, btp_ended } phase;
	uint64_t tsc;             /* the last time put, if have_tsc */
	int have_tsc;
};

/* The most records one step puts: a block, a gap and a time.  */
enum { bt_pt_step_max = 3 };

static void bt_pt_put_gap(struct bt_blockq_chunk *c,
			  enum bt_blockrec_kind kind, int errcode)
{
	struct bt_blockrec *r = &c->recs[c->n++];

	memset(r, 0, sizeof(*r));
	r->kind = (uint8_t) kind;
	r->errcode = errcode;
}

/* A block, with its last instruction's class as GDB classes it; the
   block decoder may leave the class out: decode it then.  */
static void bt_pt_put_block(const struct bt_pt_producer *p,
			    struct bt_blockq_chunk *c,
			    const struct pt_block *block)
{
	struct bt_blockrec *r = &c->recs[c->n++];
	enum bt_insn_class iclass = bt_pt_class(block->iclass);
	unsigned int size = block->truncated ? block->size : 0;

	if (iclass == btic_unknown) {
		int len = bt_image_insn_decode(p->image, block->end_ip,
					       &iclass);

		if (len < 0)
			iclass = btic_other;
		else
			size = (unsigned int) len;
	}
	if (iclass == btic_cond_jump)
		iclass = btic_other;   /* GDB's PT classes have no Jcc */
	r->kind = bt_rec_block;
	r->ip = block->ip;
	r->end = (uint32_t) (block->end_ip - block->ip);
	r->ninsn = block->ninsn;
	r->iclass = iclass & 0xf;
	r->size = size <= 0xf ? size : 0;
}

/* A new start of tracing is a gap unless it resumes where it stopped
   (or nothing came before); an overflow is a gap.  */
static void bt_pt_put_event(struct bt_blockq_chunk *c,
			    const struct pt_event *event)
{
	switch (event->type) {
	case ptev_enabled:
		if (!event->status_update && !event->variant.enabled.resumed)
			bt_pt_put_gap(c, bt_rec_gap_if_any, btg_pt_disabled);
		break;
	case ptev_overflow:
		bt_pt_put_gap(c, bt_rec_gap, btg_pt_overflow);
		break;
	default:
		break;
	}
}

/* The decoder's time, when its timing packets moved it: it holds from
   the next block on.  A TSC packet is read as the decoder gets to it,
   so instructions before it on the same block keep the earlier time
   (never a later one).  */
static void bt_pt_put_time(struct bt_pt_producer *p, struct bt_blockq_chunk *c)
{
	struct bt_blockrec *r;
	uint32_t lost_mtc, lost_cyc;
	uint64_t tsc;

	if (pt_blk_time(p->dec, &tsc, &lost_mtc, &lost_cyc) < 0 ||
	    (p->have_tsc && tsc == p->tsc))
		return;
	p->tsc = tsc;
	p->have_tsc = 1;
	r = &c->recs[c->n++];
	memset(r, 0, sizeof(*r));
	r->kind = bt_rec_time;
	r->ip = tsc;
}

/* One step of the decoder, adding at most bt_pt_step_max records to C:
   a sync, an event, or a block, then the time if it moved; a decode
   error ends a run of blocks with a gap.  */
static void bt_pt_step(struct bt_pt_producer *p, struct bt_blockq_chunk *c)
{
	int status;

	if (p->phase == btp_sync) {
		status = pt_blk_sync_forward(p->dec);
		/* -pte_eos, or no more sync points.  */
		p->phase = status < 0 ? btp_ended : btp_blocks;
		p->status = status;
		if (status >= 0)
			bt_pt_put_time(p, c);
		return;
	}
	if (p->status & pts_event_pending) {
		struct pt_event event;

		status = pt_blk_event(p->dec, &event, sizeof(event));
		if (status >= 0)
			bt_pt_put_event(c, &event);
	} else {
		struct pt_block block;

		memset(&block, 0, sizeof(block));
		status = pt_blk_next(p->dec, &block, sizeof(block));
		/* Even a failing call may have decoded some.  */
		if (block.ninsn)
			bt_pt_put_block(p, c, &block);
	}
	p->status = status;
	bt_pt_put_time(p, c);
	if (status >= 0)
		return;
	if (status == -pte_eos) {
		p->phase = btp_ended;
	} else {
		bt_pt_put_gap(c, bt_rec_gap, status);
		p->phase = btp_sync;
	}
}

/* Records are staged in a few cache lines of the decoder's own, then
   streamed to the chunk past the caches when the builder reads them on
   another core: stores that pulled each line back from that core took
   a third of the decoder's time.  */
enum { bt_pt_stage_size = 64 };

static void bt_pt_stream(struct bt_blockrec *to, const struct bt_blockrec *from,
			 size_t n)
{
	long long *dst = (long long *) to;
	const long long *src = (const long long *) from;

	for (size_t i = 0; i < n * sizeof(*from) / sizeof(*src); ++i)
		_mm_stream_si64(&dst[i], src[i]);
}

/* Fill C with the next records, up to CAP (at least bt_pt_step_max),
   STREAMED to it or not.  */
static void bt_pt_produce(struct bt_pt_producer *p, struct bt_blockq_chunk *c,
			  size_t cap, int streamed)
{
	struct bt_blockrec staged[bt_pt_stage_size];
	struct bt_blockq_chunk stage = { staged, 0, 0 };

	c->n = 0;
	while (p->phase != btp_ended && c->n + bt_pt_step_max <= cap) {
		stage.n = 0;
		while (p->phase != btp_ended &&
		       stage.n + bt_pt_step_max <= bt_pt_stage_size &&
		       c->n + stage.n + bt_pt_step_max <= cap)
			bt_pt_step(p, &stage);
		if (streamed)
			bt_pt_stream(&c->recs[c->n], staged, stage.n);
		else
			memcpy(&c->recs[c->n], staged, stage.n * sizeof(*staged));
		c->n += stage.n;
	}
	if (streamed)
		_mm_sfence();   /* before the chunk is given */
	if (pt_blk_get_offset(p->dec, &c->offset) < 0)
		c->offset = 0;
}

/* The builder's side: C's records into segments.  */
static int bt_pt_consume(struct bt_ftrace *ft, const struct bt_blockq_chunk *c)
{
	for (size_t i = 0; i < c->n; ++i) {
		const struct bt_blockrec *r = &c->recs[i];
		int errcode;

		if (r->kind == bt_rec_block)
			errcode = bt_ftrace_add_block(ft, r->ip, r->ip + r->end,
						      r->ninsn, r->iclass,
						      r->size);
		else if (r->kind == bt_rec_time)
			errcode = bt_ftrace_add_time(ft, r->ip);
		else if (r->kind == bt_rec_gap || bt_nsegs(ft))
			errcode = bt_ftrace_add_gap(ft, (int) r->errcode);
		else
			errcode = 0;
		if (errcode < 0)
			return errcode;
	}
	return 0;
}

/* Progress after a chunk: every bt_progress_every records or so.  */
static void bt_pt_progress(struct bt_ftrace *ft, const struct bt_blockq_chunk *c,
			   uint64_t *records, uint64_t size)
{
	uint64_t before = *records;

	*records += c->n;
	if (*records / bt_progress_every != before / bt_progress_every)
		bt_ftrace_progress(ft, c->offset, size);
}

/* What the decoder's thread is given.  */
struct bt_pt_pipeline {
	struct bt_pt_producer *p;
	struct bt_blockq *q;
};

static void *bt_pt_producer_main(void *arg)
{
	struct bt_pt_pipeline *pl = arg;
	struct bt_pt_producer *p = pl->p;
	struct bt_blockq *q = pl->q;

	while (p->phase != btp_ended) {
		struct bt_blockq_chunk *c = bt_blockq_free_chunk(q);

		if (!c)
			break;
		bt_pt_produce(p, c, q->chunk_size, 1);
		bt_blockq_give(q);
	}
	bt_blockq_close(q);
	return NULL;
}

/* The decoder on a thread of its own, signals left to the caller's.  */
static int bt_pt_start(pthread_t *thread, struct bt_pt_pipeline *pl)
{
	sigset_t all, old;
	int failed;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	failed = pthread_create(thread, NULL, bt_pt_producer_main, pl);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return failed ? -1 : 0;
}

static int bt_pt_run(struct bt_ftrace *ft, struct bt_pt_producer *p,
		     struct bt_blockq *q, int threaded, uint64_t size)
{
	struct bt_pt_pipeline pl = { p, q };
	struct bt_blockq_chunk *c;
	pthread_t thread;
	uint64_t records = 0;
	int errcode = 0;

	if (!threaded || bt_pt_start(&thread, &pl) < 0) {
		/* Taking turns in this thread, through one chunk.  */
		while (p->phase != btp_ended && errcode >= 0) {
			c = bt_blockq_free_chunk(q);
			if (!c)
				return q->error;
			bt_pt_produce(p, c, q->chunk_size, 0);
			errcode = bt_pt_consume(ft, c);
			bt_pt_progress(ft, c, &records, size);
		}
		return errcode;
	}
	while ((c = bt_blockq_full_chunk(q)) != NULL) {
		errcode = bt_pt_consume(ft, c);
		bt_pt_progress(ft, c, &records, size);
		bt_blockq_take(q);
		if (errcode < 0) {
			bt_blockq_cancel(q);
			break;
		}
	}
	pthread_join(thread, NULL);
	/* A decoder that ran out of memory must not pass for the end.  */
	return errcode < 0 ? errcode : q->error;
}

const struct bt_pt_pipe bt_pt_pipe_default = {
	.threaded = 1,
	/* 64 KiB chunks: the lock is taken once per 4096 blocks.  More
	   of them only let the decoder run further ahead while the builder
	   reads debug information: the builder's own time did not change,
	   and the three threads slowed each other on two cores.  */
	.nchunks = 8,
	.chunk_size = 4096,
};

int bt_pt_decode_piped(struct bt_ftrace *ft, const struct bt_bundle *bundle,
		       struct bt_diag *diag, const struct bt_pt_pipe *pipe)
{
	struct bt_pt_producer p;
	struct bt_blockq q;
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

	memset(&p, 0, sizeof(p));
	p.image = ft->image;
	p.phase = btp_sync;
	p.dec = pt_blk_alloc_decoder(&config);
	errcode = bt_blockq_init(&q, pipe->nchunks,
				 pipe->chunk_size < bt_pt_step_max ?
				 bt_pt_step_max : pipe->chunk_size);
	if (!p.dec || errcode < 0) {
		pt_blk_free_decoder(p.dec);
		bt_blockq_fini(&q);
		return bt_diag_set(diag, bte_nomem, 0, 0,
				   "cannot allocate the PT block decoder");
	}
	errcode = pt_blk_set_image(p.dec, bt_image_pt(ft->image));
	if (errcode >= 0)
		errcode = bt_pt_run(ft, &p, &q, pipe->threaded,
				    bundle->trace_size);
	pt_blk_free_decoder(p.dec);
	bt_blockq_fini(&q);
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
