/* LLDB's per-server state, its JSON and error replies, and the hook
   that traces the new threads of a process-wide trace.  */
#include "server/srv_lldb.h"
#include "common/ps_array.h"
#include "server/server.h"
#include "server/rsp_escape.h"
#include "common/ps_error.h"
#include "nat/btrace.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct srv_lldb *srv_lldb_state(struct srv *srv)
{
	if (!srv->lldb) {
		srv->lldb = calloc(1, sizeof(*srv->lldb));
		if (!srv->lldb)
			return NULL;
		srv->lldb->srv = srv;
		nat_target_set_new_thread_hook(srv->target,
					       srv_lldb_on_new_thread, srv);
	}
	return srv->lldb;
}

void srv_lldb_fini(struct srv *srv)
{
	struct srv_lldb *st = srv->lldb;

	if (!st)
		return;
	for (size_t i = 0; i < st->nwarnings; i++)
		free(st->warnings[i]);
	free(st->warnings);
	free(st->proc_tids);
	if (srv->target)
		nat_target_clear_new_thread_hook(srv->target, srv);
	free(st);
	srv->lldb = NULL;
}

int srv_lldb_put_json_text(struct srv *srv, const char *text)
{
	size_t len = strlen(text);

	if (rsp_escape(&srv->reply, text, len, 2 * len) != len)
		return -pse_nomem;
	return 0;
}

int srv_lldb_reply_json(struct srv *srv, json_t *value)
{
	char *text = value ? json_dumps(value, JSON_COMPACT) : NULL;
	int err;

	json_decref(value);
	if (!text)
		return -pse_nomem;
	err = srv_lldb_put_json_text(srv, text);
	free(text);
	return err < 0 ? err : srv_reply;
}

int srv_lldb_error(struct srv *srv, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ps_buf_reset(&srv->reply);
	ps_buf_puts(&srv->reply, "Eff;");
	ps_buf_put_hex(&srv->reply, text, strlen(text));
	return srv_reply;
}

static void srv_lldb_warn(struct srv_lldb *st, const char *text)
{
	if (PS_ARRAY_RESERVE(st->warnings, st->warnings_cap,
			     st->nwarnings + 1) < 0)
		return;
	st->warnings[st->nwarnings] = strdup(text);
	if (st->warnings[st->nwarnings])
		st->nwarnings++;
}

/* The bytes the process trace's buffers take now.  */
static uint64_t srv_lldb_proc_used(struct srv_lldb *st, struct nat_process *proc)
{
	uint64_t used = 0;

	for (size_t i = 0; i < st->proc_ntids; i++) {
		struct nat_thread *t = nat_find_thread(st->srv->target,
						       nat_process_pid(proc),
						       st->proc_tids[i]);

		if (t && nat_thread_traced(t))
			used += nat_btrace_size(t);
	}
	return used;
}

int srv_lldb_proc_add(struct srv_lldb *st, struct nat_thread *thread,
		      char *reason, size_t len)
{
	struct nat_target *target = st->srv->target;
	size_t want = nat_btrace_buffer_size(st->proc_size, 4096);
	int err;

	if (st->proc_limit &&
	    srv_lldb_proc_used(st, nat_thread_process(thread)) + want > st->proc_limit) {
		snprintf(reason, len, "Thread %d can't be traced as the process "
			 "trace size limit (%llu bytes) has been reached. "
			 "Consider retracing with a higher limit.",
			 (int) nat_thread_tid(thread),
			 (unsigned long long) st->proc_limit);
		return -pse_nospace;
	}
	if (PS_ARRAY_RESERVE(st->proc_tids, st->proc_cap, st->proc_ntids + 1))
		return -pse_nomem;
	nat_target_set_psb_period(target, st->proc_psb);
	nat_target_set_untimed(target, true);
	reason[0] = '\0';
	err = nat_btrace_enable(target, thread, trace_format_pt,
				st->proc_size, reason, len);
	nat_target_set_psb_period(target, 0);
	nat_target_set_untimed(target, false);
	if (err < 0)
		return err;
	st->proc_tids[st->proc_ntids++] = nat_thread_tid(thread);
	return 0;
}

void srv_lldb_on_new_thread(void *ctx, struct nat_thread *thread)
{
	struct srv *srv = ctx;
	struct srv_lldb *st = srv->lldb;
	char reason[256];

	if (!st || !st->proc_pid || nat_thread_pid(thread) != st->proc_pid ||
	    nat_thread_traced(thread))
		return;
	if (srv_lldb_proc_add(st, thread, reason, sizeof(reason)) < 0) {
		char text[400];

		snprintf(text, sizeof(text), "Thread %d is not traced: %s",
			 (int) nat_thread_tid(thread), reason[0] ? reason : "unknown error");
		srv_lldb_warn(st, text);
	}
}
