/* Threads that ended: a thread's ring goes with the thread, so at its
   exit (nat's on_thread_exit hook) the recorder copies the trace the
   ring holds, its last ring's worth, and puts it in every later snapshot
   of its process.  The copies of all processes together stay within a
   budget (--ended-size): past it the oldest ended threads are dropped
   first, and each bundle of their process says how many and how much.
   An exec drops its process's ended threads (their code is gone).
   With --full the thread's stream keeps its trace instead: its ring is
   drained one last time.  */
#include "rec/recorder.h"
#include "rec/snapshot.h"
#include "btrace/ptbundle.h"
#include "nat/btrace.h"
#include "common/ps_array.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

static void rec_ended_free(struct rec_ended *e)
{
	free(e->data);
	e->data = NULL;
}

/* Drop ended thread I, counting it against its process if SAY.  */
static void rec_ended_drop(struct recorder *rec, size_t i, int say)
{
	struct rec_ended *e = &rec->ended[i];
	struct rec_space *sp = say ? rec_space_of(rec, e->pid) : NULL;

	if (sp) {
		sp->ended_dropped++;
		sp->ended_dropped_bytes += e->size;
	}
	rec->ended_bytes -= e->size;
	rec_ended_free(e);
	memmove(e, e + 1, (rec->nended - i - 1) * sizeof(*e));
	rec->nended--;
}

/* Oldest first (the list is in the order the threads ended).  */
static void rec_ended_trim(struct recorder *rec)
{
	while (rec->nended && rec->ended_bytes > rec->opts.ended_size)
		rec_ended_drop(rec, 0, 1);
}

int rec_ended_keep(struct recorder *rec, pid_t pid, pid_t tid,
		   uint8_t *data, size_t size, uint64_t lost)
{
	struct rec_ended *e;

	if (PS_ARRAY_RESERVE(rec->ended, rec->ended_cap, rec->nended + 1)) {
		free(data);
		return -pse_nomem;
	}
	e = &rec->ended[rec->nended++];
	*e = (struct rec_ended) { pid, tid, data, size, lost };
	rec->ended_bytes += size;
	rec_ended_trim(rec);
	return 0;
}

int rec_ended_add(struct recorder *rec, struct nat_thread *thread)
{
	struct bt_bts_block *bts = NULL;
	struct bt_thread bt;
	struct ps_buf raw;
	uint64_t start;
	uint8_t *data;
	int err;

	memset(&bt, 0, sizeof(bt));
	ps_buf_init(&raw);
	err = snapshot_thread_trace(thread, &bt, &raw, &bts, &start);
	if (err < 0) {
		ps_buf_fini(&raw);
		free(bts);
		return err;
	}
	/* Whichever buffer holds the trace is kept; the other goes.  */
	if (bts) {
		data = (uint8_t *) bts;
		ps_buf_fini(&raw);
	} else {
		data = (uint8_t *) raw.data;
	}
	return rec_ended_keep(rec, thread->proc->pid, thread->tid, data,
			      bt.trace_size, bt.lost);
}

void rec_thread_exit(void *ctx, struct nat_thread *thread)
{
	struct recorder *rec = ctx;
	int err;

	if (!rec_space_of(rec, thread->proc->pid))
		return;
	if (rec->opts.full) {
		rec_full_drain_thread(rec, thread, 1);
		return;
	}
	err = rec_ended_add(rec, thread);
	if (err < 0)
		fprintf(rec->opts.log, "ptstub: thread %d ended; its trace "
			"cannot be kept: %s\n", (int) thread->tid,
			ps_errstr(err));
}

size_t rec_ended_count(const struct recorder *rec, pid_t pid)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->nended; i++)
		n += rec->ended[i].pid == pid;
	return n;
}

size_t rec_ended_fill(const struct recorder *rec, pid_t pid,
		      struct bt_thread *threads)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->nended; i++) {
		const struct rec_ended *e = &rec->ended[i];
		struct bt_thread *t;

		if (e->pid != pid)
			continue;
		t = &threads[n++];
		memset(t, 0, sizeof(*t));
		t->tid = e->tid;
		t->trace = e->data;
		t->trace_size = e->size;
		t->lost = e->lost;
		t->ended = 1;
	}
	return n;
}

void rec_ended_forget(struct recorder *rec, pid_t pid)
{
	for (size_t i = rec->nended; i-- > 0;)
		if (rec->ended[i].pid == pid)
			rec_ended_drop(rec, i, 0);
}

void rec_ended_fini(struct recorder *rec)
{
	for (size_t i = 0; i < rec->nended; i++)
		rec_ended_free(&rec->ended[i]);
	free(rec->ended);
	rec->ended = NULL;
	rec->nended = rec->ended_cap = 0;
	rec->ended_bytes = 0;
}
