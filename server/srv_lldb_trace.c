/* LLDB's trace packets: jLLDBTraceSupported, jLLDBTraceStart,
   jLLDBTraceStop, jLLDBTraceGetState and jLLDBTraceGetBinaryData, for
   the intel-pt type, served from the same per-thread traces as GDB's
   btrace (nat/btrace.h: hardware PT, or the emulator).  Requests and
   replies are JSON (jansson); errors are "Eff;" and the hex of a
   sentence, which LLDB shows as it is.  */
#include "server/server.h"
#include "server/srv_lldb.h"
#include "server/rsp_escape.h"
#include "common/ps_error.h"
#include "nat/btrace.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char srv_lldb_type[] = "intel-pt";

/* The cpu an emulated trace names.  LLDB's decoder takes the cpu from
   procfsCpuInfo and insists on one libipt knows (any other vendor or
   model is "unknown cpu"), but an emulated trace comes from no real
   cpu.  Family 6 model 122 (0x7a) carries the fewest workarounds: only
   apl11, which concerns OVF packets, and the emulator writes none.  */
static const char srv_lldb_emu_cpuinfo[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"cpu family\t: 6\n"
	"model\t\t: 122\n"
	"stepping\t: 0\n"
	"\n";

/* LLDB's default and smallest buffer; sizes are powers of two.  */
enum { srv_lldb_min_size = 4096 };

/* The request's JSON (after the packet's name and ':'), unescaped.  */
static json_t *srv_lldb_parse(struct srv *srv, const char *pkt, size_t len,
			      const char *name)
{
	size_t skip = strlen(name) + 1;
	json_error_t jerr;
	json_t *root;
	char *text;
	long n;

	if (len < skip || pkt[skip - 1] != ':') {
		srv_lldb_error(srv, "%s: missing JSON arguments", name);
		return NULL;
	}
	text = malloc(len - skip + 1);
	if (!text) {
		srv_lldb_error(srv, "%s: out of memory", name);
		return NULL;
	}
	n = rsp_unescape(text, pkt + skip, len - skip);
	if (n < 0) {
		free(text);
		srv_lldb_error(srv, "%s: bad escape in packet", name);
		return NULL;
	}
	root = json_loadb(text, (size_t) n, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root) {
		srv_lldb_error(srv, "%s: malformed JSON: %s (column %d)", name,
			       jerr.text, jerr.column);
		return NULL;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		srv_lldb_error(srv, "%s: the arguments must be a JSON object",
			       name);
		return NULL;
	}
	return root;
}

/* "type" must be intel-pt.  */
static int srv_lldb_check_type(struct srv *srv, json_t *root, const char *name)
{
	json_t *type = json_object_get(root, "type");

	if (!json_is_string(type))
		return srv_lldb_error(srv, "%s: missing \"type\" string", name), -1;
	if (strcmp(json_string_value(type), srv_lldb_type))
		return srv_lldb_error(srv, "Unsupported tracing type '%s': "
				      "ptstub traces intel-pt only",
				      json_string_value(type)), -1;
	return 0;
}

/* An optional non-negative integer member: 0 when absent or null, 1 when
   present (*VALUE set), -1 with the error reply written.  */
static int srv_lldb_uint(struct srv *srv, json_t *root, const char *key,
			 const char *name, uint64_t *value)
{
	json_t *v = json_object_get(root, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return srv_lldb_error(srv, "%s: \"%s\" must be a non-negative "
				      "integer", name, key), -1;
	*value = (uint64_t) json_integer_value(v);
	return 1;
}

static int srv_lldb_bool(struct srv *srv, json_t *root, const char *key,
			 const char *name, int *value)
{
	json_t *v = json_object_get(root, key);

	*value = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_boolean(v))
		return srv_lldb_error(srv, "%s: \"%s\" must be a boolean", name,
				      key), -1;
	*value = json_is_true(v);
	return 0;
}

/* "tids": absent or null (the process), or an array of known threads
   of PROC.  Returns the count, or -1 with the error reply written.  */
static long srv_lldb_tids(struct srv *srv, json_t *root, const char *name,
			  struct nat_process *proc, json_t **tids)
{
	json_t *v = json_object_get(root, "tids"), *tid;
	size_t i;

	*tids = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_array(v))
		return srv_lldb_error(srv, "%s: \"tids\" must be an array of "
				      "thread ids", name), -1;
	json_array_foreach(v, i, tid) {
		if (!json_is_integer(tid))
			return srv_lldb_error(srv, "%s: \"tids\" must be an array "
					      "of thread ids", name), -1;
		if (!nat_find_thread(srv->target, nat_process_pid(proc),
				     (pid_t) json_integer_value(tid)))
			return srv_lldb_error(srv, "%s: no thread with tid %lld "
					      "in process %d", name,
					      (long long) json_integer_value(tid),
					      (int) nat_process_pid(proc)), -1;
	}
	*tids = v;
	return (long) json_array_size(v);
}

static struct nat_process *srv_lldb_process(struct srv *srv, const char *name)
{
	struct nat_process *proc = srv_general_process(srv);

	if (!proc)
		srv_lldb_error(srv, "%s: no process is being debugged", name);
	return proc;
}

/* Whether the hardware, rather than the emulator, would trace.  */
static int srv_lldb_hardware(struct srv *srv)
{
	char reason[256];

	return nat_target_btrace_policy(srv->target) != nat_btrace_emulated &&
	       nat_btrace_pt_probe(reason, sizeof(reason)) == 0;
}

static int srv_lldb_supported(struct srv *srv)
{
	const char *name = "jLLDBTraceSupported";
	char reason[256];
	json_t *o;

	if (!srv_lldb_process(srv, name))
		return srv_reply;
	if (nat_target_btrace_policy(srv->target) == nat_btrace_hardware &&
	    nat_btrace_pt_probe(reason, sizeof(reason)) < 0)
		return srv_lldb_error(srv, "Intel PT is not available: %s "
				      "(ptstub runs with "
				      "--btrace-source=hardware)", reason);
	o = json_pack("{s:s, s:s}", "name", srv_lldb_type, "description",
		      srv_lldb_hardware(srv) ?
		      "Intel Processor Trace (hardware, through perf)" :
		      "Intel Processor Trace, written by ptstub's trace "
		      "emulator (this CPU has no Intel PT)");
	return srv_lldb_reply_json(srv, o);
}

/* The start options both kinds of tracing share.  */
struct srv_lldb_start {
	uint64_t size;
	uint32_t psb;
	uint64_t limit;
};

static int srv_lldb_start_opts(struct srv *srv, json_t *root, int process,
			       struct srv_lldb_start *opts)
{
	const char *name = "jLLDBTraceStart";
	uint64_t psb = 0;
	int tsc, per_cpu, have;

	opts->size = srv_lldb_min_size;
	opts->psb = 0;
	opts->limit = 0;
	if (srv_lldb_uint(srv, root, "iptTraceSize", name, &opts->size) < 0)
		return -1;
	if (opts->size < srv_lldb_min_size ||
	    (opts->size & (opts->size - 1)) || opts->size > 0x80000000ull)
		return srv_lldb_error(srv, "The intel pt trace size must be a "
				      "power of 2 between 4096 and 2^31 "
				      "bytes, not %llu",
				      (unsigned long long) opts->size), -1;
	if (srv_lldb_bool(srv, root, "enableTsc", name, &tsc) < 0)
		return -1;
	if (tsc)
		return srv_lldb_error(srv, "enableTsc is not supported: ptstub's "
				      "traces for LLDB carry no TSC timestamps "
				      "(it gives LLDB no conversion of them "
				      "to time, and its perf setup asks for "
				      "none); start the trace without it"), -1;
	have = srv_lldb_uint(srv, root, "psbPeriod", name, &psb);
	if (have < 0)
		return -1;
	if (have) {
		if (psb > 15)
			return srv_lldb_error(srv, "psbPeriod must be between 0 "
					      "and 15, not %llu",
					      (unsigned long long) psb), -1;
		if (srv_lldb_hardware(srv))
			return srv_lldb_error(srv, "psbPeriod is not supported "
					      "with hardware Intel PT: ptstub "
					      "leaves the PSB period to the "
					      "processor"), -1;
		/* 2^(value + 11) bytes between PSB+, as LLDB defines it.  */
		opts->psb = (uint32_t) 1 << (psb + 11);
	}
	if (!process)
		return 0;
	if (srv_lldb_bool(srv, root, "perCpuTracing", name, &per_cpu) < 0)
		return -1;
	if (per_cpu)
		return srv_lldb_error(srv, "perCpuTracing is not supported: "
				      "ptstub traces each thread into a buffer "
				      "of its own, and per-cpu traces need "
				      "TSC timestamps and perf context-switch "
				      "records, which it does not write; use "
				      "per-thread process tracing"), -1;
	if (srv_lldb_uint(srv, root, "processBufferSizeLimit", name,
			  &opts->limit) < 0)
		return -1;
	return 0;
}

static int srv_lldb_enable(struct srv *srv, struct nat_thread *t,
			   const struct srv_lldb_start *opts)
{
	char reason[256];
	int err;

	/* Without enableTsc, as lldb-server's perf setup: no TSC.  */
	nat_target_set_psb_period(srv->target, opts->psb);
	nat_target_set_untimed(srv->target, true);
	reason[0] = '\0';
	err = nat_btrace_enable(srv->target, t, trace_format_pt,
				(size_t) opts->size, reason, sizeof(reason));
	nat_target_set_psb_period(srv->target, 0);
	nat_target_set_untimed(srv->target, false);
	if (err < 0)
		srv_lldb_error(srv, "Thread %d cannot be traced: %s",
			       (int) nat_thread_tid(t), reason[0] ? reason : ps_errstr(err));
	return err;
}

static int srv_lldb_start_threads(struct srv *srv, struct nat_process *proc,
				  json_t *tids,
				  const struct srv_lldb_start *opts)
{
	json_t *tid;
	size_t i, done;

	/* Nothing changes unless every thread can be traced.  */
	json_array_foreach(tids, i, tid) {
		struct nat_thread *t = nat_find_thread(srv->target, nat_process_pid(proc),
			(pid_t) json_integer_value(tid));

		if (nat_thread_traced(t))
			return srv_lldb_error(srv, "Thread %d already traced",
					      (int) nat_thread_tid(t));
	}
	json_array_foreach(tids, done, tid) {
		struct nat_thread *t = nat_find_thread(srv->target, nat_process_pid(proc),
			(pid_t) json_integer_value(tid));

		if (srv_lldb_enable(srv, t, opts) < 0)
			break;
	}
	if (done == json_array_size(tids)) {
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}
	for (i = 0; i < done; i++) {
		struct nat_thread *t = nat_find_thread(srv->target, nat_process_pid(proc),
			(pid_t) json_integer_value(json_array_get(tids, i)));

		nat_btrace_disable(srv->target, t);
	}
	return srv_reply;
}

static void srv_lldb_proc_reset(struct srv_lldb *st)
{
	st->proc_pid = 0;
	st->proc_ntids = 0;
	for (size_t i = 0; i < st->nwarnings; i++)
		free(st->warnings[i]);
	st->nwarnings = 0;
}

/* A process trace of a process that is gone is over.  */
static struct srv_lldb *srv_lldb_live_state(struct srv *srv)
{
	struct srv_lldb *st = srv_lldb_state(srv);

	if (st && st->proc_pid && !nat_find_process(srv->target, st->proc_pid))
		srv_lldb_proc_reset(st);
	return st;
}

static void srv_lldb_proc_stop(struct srv *srv, struct srv_lldb *st)
{
	for (size_t i = 0; i < st->proc_ntids; i++) {
		struct nat_thread *t = nat_find_thread(srv->target, st->proc_pid,
						       st->proc_tids[i]);

		if (t && nat_thread_traced(t))
			nat_btrace_disable(srv->target, t);
	}
	srv_lldb_proc_reset(st);
}

static int srv_lldb_start_process(struct srv *srv, struct nat_process *proc,
				  const struct srv_lldb_start *opts)
{
	struct srv_lldb *st = srv_lldb_live_state(srv);
	char reason[256];

	if (!st)
		return -pse_nomem;
	if (st->proc_pid)
		return srv_lldb_error(srv, "Process currently traced. Stop "
				      "process tracing first");
	srv_lldb_proc_reset(st);
	st->proc_pid = nat_process_pid(proc);
	st->proc_size = (size_t) opts->size;
	st->proc_limit = opts->limit;
	st->proc_psb = opts->psb;
	/* Threads traced one by one stay as they are.  */
	for (struct nat_thread *t = nat_process_first_thread(proc);
	     t; t = nat_thread_next(t)) {
		if (nat_thread_traced(t))
			continue;
		if (srv_lldb_proc_add(st, t, reason, sizeof(reason)) < 0) {
			srv_lldb_proc_stop(srv, st);
			return srv_lldb_error(srv, "%s", reason[0] ? reason :
					      "Cannot start the process trace");
		}
	}
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

static int srv_lldb_start(struct srv *srv, json_t *root)
{
	struct nat_process *proc = srv_lldb_process(srv, "jLLDBTraceStart");
	struct srv_lldb_start opts;
	json_t *tids;
	long n;

	if (!proc || srv_lldb_check_type(srv, root, "jLLDBTraceStart") < 0)
		return srv_reply;
	n = srv_lldb_tids(srv, root, "jLLDBTraceStart", proc, &tids);
	if (n < 0 || srv_lldb_start_opts(srv, root, !tids, &opts) < 0)
		return srv_reply;
	if (tids)
		return srv_lldb_start_threads(srv, proc, tids, &opts);
	return srv_lldb_start_process(srv, proc, &opts);
}

static int srv_lldb_stop(struct srv *srv, json_t *root)
{
	struct nat_process *proc = srv_lldb_process(srv, "jLLDBTraceStop");
	struct srv_lldb *st;
	json_t *tids, *tid;
	size_t i;
	long n;
	int missing = 0;

	if (!proc || srv_lldb_check_type(srv, root, "jLLDBTraceStop") < 0)
		return srv_reply;
	n = srv_lldb_tids(srv, root, "jLLDBTraceStop", proc, &tids);
	if (n < 0)
		return srv_reply;
	st = srv_lldb_live_state(srv);
	if (!st)
		return -pse_nomem;
	if (!tids) {
		if (!st->proc_pid)
			return srv_lldb_error(srv, "Process not currently traced");
		srv_lldb_proc_stop(srv, st);
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}
	/* Best effort: every traced thread named stops.  */
	json_array_foreach(tids, i, tid) {
		struct nat_thread *t = nat_find_thread(srv->target, nat_process_pid(proc),
			(pid_t) json_integer_value(tid));

		if (nat_btrace_format(t) != trace_format_pt) {
			missing = (int) nat_thread_tid(t);
			continue;
		}
		nat_btrace_disable(srv->target, t);
		for (size_t j = 0; j < st->proc_ntids; j++)
			if (st->proc_tids[j] == nat_thread_tid(t))
				st->proc_tids[j] = st->proc_tids[--st->proc_ntids];
	}
	if (missing)
		return srv_lldb_error(srv, "Thread %d not currently traced",
				      missing);
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

/* The trace of THREAD as LLDB gets it: every byte held, the read mark
   GDB's "new" reads keep left alone.  */
static int srv_lldb_ipt(struct nat_thread *thread, struct ps_buf *raw)
{
	if (nat_btrace_format(thread) != trace_format_pt)
		return -pse_notfound;
	return nat_btrace_read_pt(thread, nat_btrace_read_copy, raw);
}

/* /proc/cpuinfo for hardware traces; the emulator's cpu for emulated
   ones (a process's threads all come from one source).  */
static int srv_lldb_cpuinfo(struct srv *srv, struct nat_process *proc,
			    struct ps_buf *out)
{
	int emulated = !srv_lldb_hardware(srv);

	for (struct nat_thread *t = nat_process_first_thread(proc);
	     t; t = nat_thread_next(t))
		if (nat_thread_traced(t)) {
			emulated = nat_btrace_is_emulated(t);
			break;
		}
	if (emulated)
		return ps_buf_puts(out, srv_lldb_emu_cpuinfo);
	return nat_btrace_host_cpuinfo(out);
}

static int srv_lldb_add_data(json_t *list, const char *kind, size_t size)
{
	return json_array_append_new(list, json_pack("{s:s, s:I}", "kind", kind,
						     "size", (json_int_t) size));
}

static int srv_lldb_get_state(struct srv *srv, json_t *root)
{
	struct nat_process *proc = srv_lldb_process(srv, "jLLDBTraceGetState");
	json_t *o, *threads, *pdata, *warnings;
	struct srv_lldb *st;
	struct ps_buf buf;
	int err = 0, emulated = 0;

	if (!proc || srv_lldb_check_type(srv, root, "jLLDBTraceGetState") < 0)
		return srv_reply;
	st = srv_lldb_live_state(srv);
	if (!st)
		return -pse_nomem;
	threads = json_array();
	pdata = json_array();
	warnings = json_array();
	ps_buf_init(&buf);
	for (struct nat_thread *t = nat_process_first_thread(proc);
	     t && !err; t = nat_thread_next(t)) {
		json_t *data = json_array();

		ps_buf_reset(&buf);
		if (srv_lldb_ipt(t, &buf) < 0) {
			json_decref(data);
			continue;
		}
		emulated |= nat_btrace_is_emulated(t);
		if (srv_lldb_add_data(data, "iptTrace", buf.len) ||
		    json_array_append_new(threads, json_pack("{s:I, s:o}",
			    "tid", (json_int_t) nat_thread_tid(t), "binaryData", data)))
			err = -pse_nomem;
	}
	ps_buf_reset(&buf);
	if (!err && srv_lldb_cpuinfo(srv, proc, &buf) == 0 &&
	    srv_lldb_add_data(pdata, "procfsCpuInfo", buf.len))
		err = -pse_nomem;
	ps_buf_fini(&buf);
	if (emulated)
		json_array_append_new(warnings, json_string(
			"The trace is written by ptstub's trace emulator: "
			"this CPU has no Intel PT"));
	for (size_t i = 0; i < st->nwarnings; i++)
		json_array_append_new(warnings, json_string(st->warnings[i]));
	o = json_pack("{s:o, s:o, s:o, s:b}", "tracedThreads", threads,
		      "processBinaryData", pdata, "warnings", warnings,
		      "usingCgroupFiltering", 0);
	if (err) {
		json_decref(o);
		return -pse_nomem;
	}
	return srv_lldb_reply_json(srv, o);
}

static int srv_lldb_get_data(struct srv *srv, json_t *root)
{
	const char *name = "jLLDBTraceGetBinaryData";
	struct nat_process *proc = srv_lldb_process(srv, name);
	json_t *kind = json_object_get(root, "kind");
	json_t *cpu = json_object_get(root, "cpuId");
	uint64_t tid = 0, offset = 0, size = 0;
	int have_tid, have_size;
	struct ps_buf data;
	int err;

	if (!proc || srv_lldb_check_type(srv, root, name) < 0)
		return srv_reply;
	if (!json_is_string(kind))
		return srv_lldb_error(srv, "%s: missing \"kind\" string", name);
	if (cpu && !json_is_null(cpu))
		return srv_lldb_error(srv, "%s: no per-cpu data: ptstub traces "
				      "threads, not cpus", name);
	have_tid = srv_lldb_uint(srv, root, "tid", name, &tid);
	if (have_tid < 0 ||
	    srv_lldb_uint(srv, root, "offset", name, &offset) < 0)
		return srv_reply;
	have_size = srv_lldb_uint(srv, root, "size", name, &size);
	if (have_size < 0)
		return srv_reply;

	ps_buf_init(&data);
	if (!strcmp(json_string_value(kind), "iptTrace")) {
		struct nat_thread *t;

		if (!have_tid) {
			ps_buf_fini(&data);
			return srv_lldb_error(srv, "%s: iptTrace needs a \"tid\"",
					      name);
		}
		t = nat_find_thread(srv->target, nat_process_pid(proc), (pid_t) tid);
		if (!t) {
			ps_buf_fini(&data);
			return srv_lldb_error(srv, "%s: no thread with tid %llu",
					      name, (unsigned long long) tid);
		}
		err = srv_lldb_ipt(t, &data);
		if (err < 0) {
			ps_buf_fini(&data);
			return srv_lldb_error(srv, "Thread %llu not currently "
					      "traced",
					      (unsigned long long) tid);
		}
	} else if (!strcmp(json_string_value(kind), "procfsCpuInfo")) {
		if (srv_lldb_cpuinfo(srv, proc, &data) < 0) {
			ps_buf_fini(&data);
			return srv_lldb_error(srv, "Cannot read /proc/cpuinfo");
		}
	} else {
		ps_buf_fini(&data);
		return srv_lldb_error(srv, "%s: unknown data kind '%s' (ptstub "
				      "has iptTrace and procfsCpuInfo)", name,
				      json_string_value(kind));
	}
	/* Older LLDBs read in pieces: "offset" and "size".  */
	if (offset > data.len || (have_size && size > data.len - offset)) {
		size_t len = data.len;

		ps_buf_fini(&data);
		return srv_lldb_error(srv, "%s: read past the end: %llu bytes at "
				      "offset %llu, the data has %zu", name,
				      (unsigned long long) size,
				      (unsigned long long) offset, len);
	}
	if (!have_size)
		size = data.len - offset;
	if (rsp_escape(&srv->reply, data.data + offset, (size_t) size,
		       2 * (size_t) size) != size)
		err = -pse_nomem;
	else
		err = 0;
	ps_buf_fini(&data);
	return err < 0 ? err : srv_reply;
}

int srv_handle_lldb_trace(struct srv *srv, const char *pkt, size_t len)
{
	static const struct {
		const char *name;
		int (*handle)(struct srv *srv, json_t *root);
	} packets[] = {
		{ "jLLDBTraceStart", srv_lldb_start },
		{ "jLLDBTraceStop", srv_lldb_stop },
		{ "jLLDBTraceGetState", srv_lldb_get_state },
		{ "jLLDBTraceGetBinaryData", srv_lldb_get_data },
	};

	if (len == strlen("jLLDBTraceSupported") &&
	    srv_prefix(pkt, len, "jLLDBTraceSupported"))
		return srv_lldb_supported(srv);
	for (size_t i = 0; i < sizeof(packets) / sizeof(packets[0]); i++) {
		size_t n = strlen(packets[i].name);
		json_t *root;
		int res;

		if (!srv_prefix(pkt, len, packets[i].name) ||
		    (len > n && pkt[n] != ':'))
			continue;
		root = srv_lldb_parse(srv, pkt, len, packets[i].name);
		if (!root)
			return srv_reply;
		res = packets[i].handle(srv, root);
		json_decref(root);
		return res;
	}
	return srv_reply;
}
