/* nat/emu/emu_thread.c: a traced thread's trace buffers (the PT packet
   writer and its ring, or the BTS blocks), started and ended.  What is
   recorded in them is emu_rec.c's.  */
#include "nat/emu/emu_thread.h"
#include "nat/emu/emu.h"

#include <string.h>

int emu_thread_trace_init(struct emu_thread *th, uint8_t format,
			  size_t size, uint32_t psb_period, bool untimed)
{
	int err;

	th->format = format;
	if (format == trace_format_bts)
		return emu_bts_init(&th->bts, size);
	err = emu_ring_init(&th->ring, size);
	if (err < 0)
		return err;
	err = emu_pt_init(&th->pt, &th->ring, psb_period);
	if (err < 0) {
		emu_ring_fini(&th->ring);
		return err;
	}
	/* The trace starts with the time (in its PSB+).  */
	th->pt.untimed = untimed;
	th->pt.tsc = untimed ? 0 : emu_pt_now();
	return emu_pt_psb(&th->pt, false, 0);
}

void emu_thread_trace_fini(struct emu_thread *th)
{
	if (th->format == trace_format_bts) {
		emu_bts_fini(&th->bts);
		return;
	}
	emu_pt_fini(&th->pt);
	emu_ring_fini(&th->ring);
}
