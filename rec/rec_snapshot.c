/* A trigger's snapshot: snapshot.c's bundle of the process, and what
   the recorder alone knows (the trigger, ended threads, the side-band,
   --full streams), written to its own file with a line in the log.  */
#include "rec/recorder.h"
#include "rec/snapshot.h"
#include "common/ps_error.h"
#include "common/gdb_signals.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rec_print(struct recorder *rec, const struct bt_bundle *b,
		      const struct rec_trigger *tr, size_t size,
		      const char *file)
{
	FILE *log = rec->opts.log;
	char why[128];

	switch (tr->kind) {
	case btt_signal:
		snprintf(why, sizeof(why), "signal %s in thread %d",
			 gdb_signal_name(gdb_signal_from_host(tr->sig)),
			 (int) tr->tid);
		break;
	case btt_function:
		snprintf(why, sizeof(why), "function %s in thread %d",
			 tr->name, (int) tr->tid);
		break;
	default:
		/* A fork child's (--inherit) says whose it is.  */
		if (b->pid != rec->pid)
			snprintf(why, sizeof(why), "%s of process %d",
				 bt_trigger_name(tr->kind), (int) b->pid);
		else
			snprintf(why, sizeof(why), "%s",
				 bt_trigger_name(tr->kind));
	}
	fprintf(log, "ptstub: snapshot %u: %s, %zu thread%s, %zu bytes, %s\n",
		b->trigger.sequence, why, b->nthreads,
		b->nthreads == 1 ? "" : "s", size, file);
	fflush(log);
}

int rec_snapshot(struct recorder *rec, struct nat_process *proc,
		 const struct rec_trigger *tr, int with_core)
{
	struct rec_space *sp = rec_space_of(rec, proc->pid);
	struct snapshot_options opts = {
		.format = rec->opts.format, .core = with_core,
		.signal_tid = tr->tid, .signal = tr->sig,
		.spare_threads = rec_ended_count(rec, proc->pid),
		.spare_mappings = sp ? sp->nsideband : 0,
	};
	struct bt_sideband *sideband = NULL;
	struct snapshot snap;
	struct bt_bundle *b = &snap.bundle;
	size_t size = 0;
	char *file;
	int err, sys;

	err = snapshot_take(&snap, rec->target, proc, &opts);
	if (!err) {
		b->nthreads += rec_ended_fill(rec, proc->pid,
					      &snap.threads[b->nthreads]);
		if (!b->nthreads)
			err = -pse_notfound;
	}
	if (err < 0) {
		fprintf(rec->opts.log, "ptstub: cannot take snapshot %u: %s\n",
			rec->snapshots, ps_errstr(err));
		snapshot_fini(&snap);
		rec->failed++;
		return err;
	}

	if (!b->buffer_size)
		b->buffer_size = (uint32_t) rec->opts.size;
	b->tid = snap.threads[0].tid;
	b->trigger = (struct bt_trigger) { tr->kind, tr->tid, tr->sig,
		rec->snapshots, tr->address, tr->name ? tr->name : "" };
	if (sp)
		b->nmappings = rec_sideband_gone(sp, snap.mappings,
						 b->nmappings);
	/* Ended threads: what was kept, within which budget, what was
	   dropped (--full keeps every thread's whole stream instead).  */
	if (!rec->opts.full && sp) {
		b->ended.budget = rec->opts.ended_size;
		b->ended.dropped = sp->ended_dropped;
		b->ended.dropped_bytes = sp->ended_dropped_bytes;
	}
	rec_full_fill(rec, b);
	/* An exec is placed in the trace of the thread that made it (the
	   process's only one then, with its id).  */
	if (sp && sp->nsideband) {
		uint64_t start = 0;

		for (size_t i = 0; i < snap.nlive; i++)
			if (snap.threads[i].tid == proc->pid)
				start = snap.start[i];
		sideband = rec_sideband_for(sp, proc->pid, start,
					    b->threads != snap.threads);
		b->sideband = sideband;
		b->nsideband = sideband ? sp->nsideband : 0;
	}

	file = rec_output_name(rec->opts.output, rec->snapshots);
	err = file ? snapshot_write(b, file, &size, &sys) : -pse_nomem;
	if (err < 0 && err != -pse_io) {
		fprintf(rec->opts.log, "ptstub: cannot encode snapshot %u: "
			"%s\n", rec->snapshots, ps_errstr(err));
		err = -pse_nomem;
	} else if (err < 0) {
		fprintf(rec->opts.log, "ptstub: cannot write snapshot "
			"%u to %s: %s\n", rec->snapshots, file, strerror(sys));
	} else {
		rec_print(rec, b, tr, size, file);
		if (b->ended.dropped)
			fprintf(rec->opts.log, "ptstub: snapshot %u: %" PRIu32
				" ended thread%s left out (%" PRIu64 " bytes "
				"of trace), the oldest, to keep ended threads "
				"within --ended-size=%zu\n", rec->snapshots,
				b->ended.dropped, b->ended.dropped == 1 ? ""
				: "s", b->ended.dropped_bytes,
				rec->opts.ended_size);
	}
	if (err < 0)
		rec->failed++;
	rec->snapshots++;
	free(sideband);
	free(file);
	snapshot_fini(&snap);
	return err;
}
