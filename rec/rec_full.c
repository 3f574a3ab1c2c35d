/* --full: the whole trace, not the last ring's worth.  The rings are
   drained into per-thread streams whenever the recorder has the program
   stopped (its events, and a timer); what a ring overwrote before it was
   drained is counted, reported and marked in the bundle (a thread's
   "lost"), never silently dropped.  */
#include "rec/recorder.h"
#include "common/ps_array.h"
#include "btrace/ptbundle.h"
#include "nat/btrace.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

static struct rec_stream *rec_stream_of(struct recorder *rec, pid_t pid,
					pid_t tid, int bts)
{
	struct rec_stream *s;

	for (size_t i = 0; i < rec->nstreams; i++)
		if (rec->streams[i].tid == tid)
			return &rec->streams[i];
	if (PS_ARRAY_RESERVE(rec->streams, rec->streams_cap,
			     rec->nstreams + 1))
		return NULL;
	s = &rec->streams[rec->nstreams++];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->tid = tid;
	s->bts = bts;
	return s;
}

static int rec_stream_append(struct rec_stream *s, const void *data,
			     size_t len)
{
	if (PS_ARRAY_RESERVE(s->data, s->cap, s->len + len))
		return -pse_nomem;
	memcpy(s->data + s->len, data, len);
	s->len += len;
	return 0;
}

/* The ring holds units [RECORDED - HELD, RECORDED) of the stream; take
   the part after what was taken, count a hole before it as lost.  */
static void rec_take_units(struct rec_stream *s, const uint8_t *ring,
			   uint64_t held, uint64_t recorded, size_t unit)
{
	uint64_t first, skip = 0;

	/* A ring cannot hold more than was ever recorded: if it seems to,
	   the count is stale, and only its newest part is the stream's.  */
	if (held > recorded) {
		ring += (size_t) (held - recorded) * unit;
		held = recorded;
	}
	first = recorded - held;
	if (recorded <= s->taken)
		return;
	if (s->taken < first) {
		s->lost += first - s->taken;
		/* BTS: a block that ends before it begins, where the lost
		   ones were, so that a decoder (GDB's too) shows a gap
		   rather than joining the blocks on both sides.  */
		if (s->bts && s->len) {
			static const uint8_t hole[16] = { 1 };

			rec_stream_append(s, hole, sizeof(hole));
		}
	} else
		skip = s->taken - first;
	if (rec_stream_append(s, ring + skip * unit,
			      (size_t) (held - skip) * unit) < 0)
		s->lost += held - skip;
	s->taken = recorded;
}

/* BTS: the read ends with the block the thread stopped in, still open
   (a ring's last block as GDB reads it): not a unit of the ring yet, it
   is kept aside, replaced at each drain, and ends the bundle's trace.  */
static void rec_take_bts(struct rec_stream *s, const uint8_t *flat,
			 size_t n, const struct nat_btrace_status *st)
{
	s->has_tail = n > st->held;
	if (s->has_tail) {
		n = (size_t) st->held;
		memcpy(s->tail, flat + 16 * n, 16);
	}
	rec_take_units(s, flat, n, st->recorded, 16);
}

void rec_full_drain_thread(struct recorder *rec, struct nat_thread *t,
			   int ended)
{
	struct nat_btrace_status st;
	struct rec_stream *s;
	int bts;

	if (!rec->opts.full || !t->btrace)
		return;
	bts = t->btrace->format != trace_format_pt;
	s = rec_stream_of(rec, t->proc->pid, t->tid, bts);
	if (!s)
		return;
	s->ended |= ended;
	if (!bts) {
		struct ps_buf raw;

		/* The status after the read: reading flushes the emulator's
		   batched bits into the ring.  */
		ps_buf_init(&raw);
		if (nat_btrace_read_pt(t, nat_btrace_read_copy, &raw) == 0 &&
		    nat_btrace_status(t, &st) == 0)
			rec_take_units(s, (const uint8_t *) raw.data, raw.len,
				       st.recorded, 1);
		ps_buf_fini(&raw);
	} else if (nat_btrace_status(t, &st) == 0 && st.recorded > s->taken) {
		struct trace_blocks b;
		uint8_t *flat;

		trace_blocks_init(&b);
		if (nat_btrace_read_bts(t, nat_btrace_read_copy, &b) == 0 &&
		    (flat = malloc(b.len * 16 + 1))) {
			for (size_t i = 0; i < b.len; i++) {
				memcpy(flat + 16 * i, &b.block[i].begin, 8);
				memcpy(flat + 16 * i + 8, &b.block[i].end, 8);
			}
			rec_take_bts(s, flat, b.len, &st);
			free(flat);
		}
		trace_blocks_fini(&b);
	}
}

void rec_full_drain(struct recorder *rec)
{
	if (!rec->opts.full)
		return;
	for (struct nat_process *p = rec->target->procs; p; p = p->next) {
		if (!rec_space_of(rec, p->pid))
			continue;
		for (struct nat_thread *t = p->threads; t; t = t->next)
			rec_full_drain_thread(rec, t, 0);
	}
}

void rec_full_fill(struct recorder *rec, struct bt_bundle *b)
{
	struct bt_thread *threads;
	size_t n = 0;

	/* Each process's bundle has its own threads' streams.  */
	if (!rec->opts.full || !rec->nstreams)
		return;
	threads = calloc(rec->nstreams, sizeof(*threads));
	for (size_t i = 0; rec->full_bts && i < rec->nstreams; i++)
		free(rec->full_bts[i]);
	free(rec->full_bts);
	rec->full_bts = calloc(rec->nstreams, sizeof(*rec->full_bts));
	if (!threads || !rec->full_bts) {
		free(threads);
		return;
	}
	for (size_t i = 0; i < rec->nstreams; i++) {
		struct rec_stream *s = &rec->streams[i];
		struct bt_thread *t = &threads[n];

		if (s->pid != b->pid)
			continue;
		n++;

		t->tid = s->tid;
		t->lost = s->lost;
		t->ended = s->ended;
		t->trace = s->data;
		t->trace_size = s->len;
		/* Bundles keep BTS blocks newest first: the open one, then
		   the stream backwards.  */
		if (s->bts && (s->len || s->has_tail)) {
			size_t n = s->len / 16, k0 = s->has_tail ? 1 : 0;
			uint8_t *r = malloc(s->len + 16);

			if (r && s->has_tail)
				memcpy(r, s->tail, 16);
			for (size_t k = 0; r && k < n; k++)
				memcpy(r + 16 * (k0 + k),
				       s->data + 16 * (n - 1 - k), 16);
			rec->full_bts[i] = r;
			t->trace = r;
			t->trace_size = r ? s->len + 16 * k0 : 0;
		}
		for (size_t k = 0; k < b->nthreads; k++)
			if (b->threads[k].tid == s->tid) {
				t->pc = b->threads[k].pc;
				t->has_pc = b->threads[k].has_pc;
			}
	}
	free(rec->full_threads);
	rec->full_threads = threads;
	if (!n)
		return;
	b->threads = threads;
	b->nthreads = n;
}

void rec_full_report(struct recorder *rec)
{
	for (size_t i = 0; rec->opts.full && i < rec->nstreams; i++)
		if (rec->streams[i].lost)
			fprintf(rec->opts.log, "ptstub: thread %d: %llu trace "
				"%s could not be kept (the ring of %zu bytes "
				"wrapped before it was drained; try a larger "
				"--size)\n", (int) rec->streams[i].tid,
				(unsigned long long) rec->streams[i].lost,
				rec->streams[i].bts ? "blocks" : "bytes",
				rec->opts.size);
}

void rec_full_fini(struct recorder *rec)
{
	for (size_t i = 0; i < rec->nstreams; i++) {
		free(rec->streams[i].data);
		if (rec->full_bts)
			free(rec->full_bts[i]);
	}
	free(rec->streams);
	free(rec->full_bts);
	free(rec->full_threads);
	rec->streams = NULL;
	rec->nstreams = rec->streams_cap = 0;
}
