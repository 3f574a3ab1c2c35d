/* `monitor btrace save FILE`: the selected thread's trace bundle, for
   ptbtrace to decode away from the process; the snapshot is rec/'s one
   (rec/snapshot.h), the recorder's with one thread and no core.  */
#define _GNU_SOURCE /* strerrorname_np */
#include "server/server.h"
#include "rec/snapshot.h"
#include "common/ps_error.h"
#include "nat/btrace.h"

#include <string.h>

/* "No space left on device (ENOSPC)": the text and the name to search.  */
static void srv_put_errno(struct ps_buf *msg, int err)
{
	const char *name = strerrorname_np(err);

	ps_buf_puts(msg, strerror(err));
	if (name)
		ps_buf_printf(msg, " (%s)", name);
}

int srv_btrace_save(struct srv *srv, const char *path, struct ps_buf *msg)
{
	struct nat_thread *thread = srv_general_thread(srv);
	struct snapshot_options opts = { .only = thread };
	struct snapshot snap;
	const struct bt_bundle *b = &snap.bundle;
	size_t size;
	int err, sys = 0;

	if (!thread || !nat_thread_traced(thread))
		return ps_buf_puts(msg, "The selected thread is not traced.\n"),
			-pse_notfound;
	err = snapshot_take(&snap, srv->target, nat_thread_process(thread),
			    &opts);
	if (!err)
		err = snapshot_write(b, path, &size, &sys);
	if (err < 0 && sys) {
		ps_buf_printf(msg, "Cannot save the trace to %s: ", path);
		srv_put_errno(msg, sys);
		ps_buf_puts(msg, ".\n");
	} else if (err < 0)
		ps_buf_printf(msg, "Cannot save the trace to %s: %s.\n", path,
			      ps_errstr(err));
	else
		ps_buf_printf(msg, "Saved %zu bytes of %s trace of thread %d.%d "
			      "and %zu mappings to %s.\n", b->trace_size,
			      b->format == btf_pt ? "PT" : "BTS", (int) b->pid,
			      (int) b->tid, b->nmappings + b->npages, path);
	snapshot_fini(&snap);
	return err;
}
