/* Reading traces out of the engine, and its status.  */
#define _GNU_SOURCE
#include "nat/emu/cc.h"
#include "nat/emu/emu_engine.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <sched.h>

static struct emu_thread *emu_traced_thread(const struct emu *emu,
					    pid_t tid, uint8_t format)
{
	struct emu_thread *th = emu_thread_find(emu, tid);

	if (!th || !th->traced)
		return NULL;
	return th->format == format ? th : NULL;
}

int emu_read_pt(struct emu *emu, pid_t tid, bool only_new,
		struct ps_buf *out)
{
	struct emu_thread *th = emu_traced_thread(emu, tid, trace_format_pt);
	int err;

	if (!th)
		return -pse_notfound;
	/* Bits still batched belong to what was run.  */
	err = emu_pt_flush(&th->pt);
	if (err < 0)
		return err;
	return only_new ? emu_ring_read_new(&th->ring, out)
		: emu_ring_read_all(&th->ring, out);
}

int emu_read_bts(struct emu *emu, pid_t tid, enum emu_bts_read_type type,
		 bool to_stop, struct trace_blocks *blocks)
{
	struct emu_thread *th = emu_traced_thread(emu, tid, trace_format_bts);

	if (!th)
		return -pse_notfound;
	return emu_bts_read(&th->bts, type, to_stop, blocks);
}

int emu_status(const struct emu *emu, pid_t tid, struct emu_status *status)
{
	const struct emu_thread *th = emu_thread_find(emu, tid);

	if (!th || !th->traced)
		return -pse_notfound;
	*status = (struct emu_status) {
		.stops = th->stops, .steps = th->steps, .gaps = th->gaps,
		.followed = th->followed, .insns = th->insns,
		.engine = emu->config.engine,
	};
	if (emu->cc)
		cc_status(emu->cc, tid, &status->cc);
	if (th->format == trace_format_pt) {
		status->bytes_recorded = th->ring.head;
		status->wraps = emu_ring_wraps(&th->ring);
		status->bytes_held = emu_ring_fill(&th->ring);
	} else {
		status->blocks = th->bts.count;
		status->blocks_held = th->bts.count < th->bts.cap ?
			th->bts.count : th->bts.cap;
		/* As for PT: a ring just filled has not wrapped yet.  */
		status->wraps = th->bts.count ?
			(th->bts.count - 1) / th->bts.cap : 0;
	}
	return 0;
}

int emu_pin_cpu(pid_t tid)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return -pse_io;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0 ||
	    sched_setaffinity(tid, sizeof(set), &set) < 0)
		return -pse_io;
	return cpu;
}
