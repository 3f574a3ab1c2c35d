/* Progress lines while a recorded run lasts (see srv_progress.h).  */
#include "server/srv_progress.h"
#include "server/server.h"
#include "nat/btrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { srv_progress_default_ms = 5000 };

static int64_t srv_progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void srv_progress_init(struct srv_progress *progress)
{
	const char *env = getenv("PTSTUB_PROGRESS_MS");
	char *end;
	long v;

	memset(progress, 0, sizeof(*progress));
	progress->delay_ms = progress->every_ms = srv_progress_default_ms;
	if (!env || !*env)
		return;
	v = strtol(env, &end, 10);
	if (end != env && v >= 0 && v <= 3600000)
		progress->delay_ms = (int) v;
	if (*end == ',') {
		env = end + 1;
		v = strtol(env, &end, 10);
		if (end != env && v > 0 && v <= 3600000)
			progress->every_ms = (int) v;
	}
}

void srv_progress_start(struct srv *srv, struct nat_wait_hook *hook)
{
	struct srv_progress *p = &srv->progress;
	int tick = p->delay_ms < p->every_ms ? p->delay_ms : p->every_ms;

	p->start_ms = srv_progress_now();
	p->next_ms = p->start_ms + p->delay_ms;
	/* Lines go out only in all-stop, where a resumption's reply may be
	   preceded by O packets.  */
	if (p->off || srv->non_stop)
		return;
	hook->tick = srv_progress_tick;
	hook->tick_ms = tick < 50 ? 50 : tick;
}

/* What every traced thread has recorded, summed, as one line; 0 if no
   thread is traced.  */
static int srv_progress_line(struct srv *srv, int64_t now, struct ps_buf *out)
{
	unsigned long long bytes = 0, blocks = 0, stops = 0, followed = 0;
	unsigned long long insns = 0;
	const char *engine = NULL;
	int threads = 0, mixed = 0, emulated = 0, cache = 0;

	for (struct nat_process *p = nat_first_process(srv->target); p;
	     p = nat_process_next(p)) {
		bool cache_counted = false;

		for (struct nat_thread *t = nat_process_first_thread(p);
		     t; t = nat_thread_next(t)) {
			struct nat_btrace_status st;
			const char *kind;

			if (nat_btrace_status(t, &st) < 0)
				continue;
			threads++;
			if (st.emulated) {
				emulated = 1;
				insns += st.insns;
				/* The code cache counts for its process.  */
				if (!cache_counted)
					insns += st.cc.insns;
				cache_counted = true;
				cache |= st.cache;
			}
			if (st.format == trace_format_pt)
				bytes += st.recorded;
			else
				blocks += st.recorded;
			stops += st.stops;
			followed += st.followed;
			kind = st.emulated ?
				(st.format == trace_format_pt ? "the emulator (PT)"
				 : "the emulator (BTS)") :
				st.format == trace_format_pt ? "hardware PT"
				: "hardware BTS";
			if (engine && strcmp(engine, kind))
				mixed = 1;
			engine = kind;
		}
	}
	if (!threads)
		return 0;
	ps_buf_printf(out, "ptstub: recording for %.1f s with %s: ",
		      (double) (now - srv->progress.start_ms) / 1000.0,
		      mixed ? "several engines" : engine);
	/* Hardware does not count them: only decoding would.  The code
	   cache misses a few where it leaves a block midway.  */
	if (emulated)
		ps_buf_printf(out, "%s%llu instructions, ",
			      cache ? "about " : "", insns);
	if (bytes || !blocks)
		ps_buf_printf(out, "%llu bytes of trace", bytes);
	if (blocks)
		ps_buf_printf(out, "%s%llu BTS blocks", bytes ? ", " : "",
			      blocks);
	/* The emulator's own counts: hardware has no stops to count.  */
	if (stops || followed)
		ps_buf_printf(out, ", %llu stops, %llu branches followed",
			      stops, followed);
	if (threads > 1)
		ps_buf_printf(out, ", %d threads", threads);
	ps_buf_puts(out, " (monitor set progress off to hide).\n");
	return 1;
}

int srv_progress_tick(void *ctx)
{
	struct srv *srv = ctx;
	struct srv_progress *p = &srv->progress;
	int64_t now = srv_progress_now();
	struct ps_buf line;
	int err = 0;

	if (p->off || srv->non_stop || now < p->next_ms)
		return 0;
	p->next_ms = now + p->every_ms;
	ps_buf_init(&line);
	if (srv_progress_line(srv, now, &line))
		err = srv_console(srv, line.data);
	ps_buf_fini(&line);
	return err < 0 ? err : 0;
}
