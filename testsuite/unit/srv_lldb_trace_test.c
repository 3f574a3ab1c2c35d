/* LLDB's trace packets (server/srv_lldb_trace.c) against the native
   layer's test program, traced by the emulator: good requests, and bad
   ones (malformed JSON, unknown type, unknown tid, a read past the end)
   that must get an error naming the cause and change nothing.  */
#include "testsuite/unit/srv_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include "nat/btrace.h"
#include "server/srv_lldb.h"

#include <jansson.h>
#include <string.h>

static void setup(void)
{
	srv_fx_setup();
	fx.target.btrace_policy = nat_btrace_emulated;
}

TestSuite(srv_lldb_trace, .init = setup, .fini = srv_fx_teardown,
	  .timeout = SRV_FX_TIMEOUT);

/* Send NAME:JSON escaped as LLDB escapes it ('}' and friends).  */
static const char *req_json(const char *name, const char *json)
{
	struct ps_buf pkt;
	const char *r;

	ps_buf_init(&pkt);
	ps_buf_printf(&pkt, "%s:", name);
	rsp_escape(&pkt, json, strlen(json), 2 * strlen(json));
	r = srv_fx_req_len(pkt.data, pkt.len);
	ps_buf_fini(&pkt);
	return r;
}

/* The reply unescaped (JSON, binary data).  */
static const char *unescaped(const char *r)
{
	static char out[1 << 17];
	long n;

	cr_assert_lt(fx.len, sizeof(out));
	n = rsp_unescape(out, r, fx.len);
	cr_assert_geq(n, 0);
	out[n] = '\0';
	fx.len = (size_t) n;
	return out;
}

/* The text of an "Eff;HEX" error reply; fails on anything else.  */
static const char *error_text(const char *r)
{
	static char text[1024];
	size_t n;

	cr_assert(r && !strncmp(r, "Eff;", 4), "not an error: %s", r ? r : "");
	n = strlen(r + 4) / 2;
	cr_assert_lt(n, sizeof(text));
	cr_assert_eq(ps_hex_decode(text, r + 4, n), 0);
	text[n] = '\0';
	return text;
}

static void assert_error(const char *r, const char *needle)
{
	const char *text = error_text(r);

	cr_assert(strstr(text, needle), "error '%s' lacks '%s'", text, needle);
}

/* jLLDBTraceGetState, parsed.  */
static json_t *get_state(void)
{
	const char *r = req_json("jLLDBTraceGetState", "{\"type\":\"intel-pt\"}");
	json_error_t err;
	json_t *o;

	cr_assert(r && r[0] == '{', "%s", r ? r : "");
	o = json_loads(unescaped(r), 0, &err);
	cr_assert_not_null(o, "%s", err.text);
	return o;
}

/* The iptTrace size GetState lists for TID, or -1.  */
static long traced_size(json_t *state, pid_t tid)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(state, "tracedThreads"), i, t)
		if (json_integer_value(json_object_get(t, "tid")) == tid)
			return (long) json_integer_value(json_object_get(
				json_array_get(json_object_get(t, "binaryData"),
					       0), "size"));
	return -1;
}

Test(srv_lldb_trace, supported_names_intel_pt)
{
	const char *r = srv_fx_req("jLLDBTraceSupported");

	assert_error(r, "no process");
	srv_fx_start("marker", NULL);
	r = unescaped(srv_fx_req("jLLDBTraceSupported"));
	cr_assert(strstr(r, "\"name\":\"intel-pt\""), "%s", r);
	cr_assert(strstr(r, "emulator"), "%s", r);
}

Test(srv_lldb_trace, malformed_requests_are_refused)
{
	srv_fx_start("marker", NULL);
	assert_error(srv_fx_req("jLLDBTraceStart"), "missing JSON arguments");
	assert_error(req_json("jLLDBTraceStart", "{\"type\":"), "malformed JSON");
	assert_error(req_json("jLLDBTraceStart", "[1,2]"), "JSON object");
	assert_error(req_json("jLLDBTraceStart", "{}"), "missing \"type\"");
	assert_error(req_json("jLLDBTraceStart", "{\"type\":\"arm-etm\"}"),
		     "Unsupported tracing type 'arm-etm'");
	assert_error(req_json("jLLDBTraceStart",
			      "{\"type\":\"intel-pt\",\"tids\":\"all\"}"),
		     "array of thread ids");
	assert_error(req_json("jLLDBTraceStart",
			      "{\"type\":\"intel-pt\",\"tids\":[1]}"),
		     "no thread with tid 1");
	assert_error(req_json("jLLDBTraceGetState", "{\"type\":1}"),
		     "missing \"type\"");
	/* A lone escape character at the end.  */
	assert_error(srv_fx_req("jLLDBTraceStop:{\"type\":\"intel-pt\"}"),
		     "bad escape");
	cr_assert_null(fx.srv.target->procs->threads->btrace,
		       "nothing was started");
}

Test(srv_lldb_trace, options_honoured_or_refused)
{
	pid_t pid = srv_fx_start("marker", NULL);
	char json[256];

	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"tids\":[%d],"
		 "\"enableTsc\":true}", (int) pid);
	assert_error(req_json("jLLDBTraceStart", json), "enableTsc");
	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"tids\":[%d],"
		 "\"iptTraceSize\":5000}", (int) pid);
	assert_error(req_json("jLLDBTraceStart", json), "power of 2");
	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"tids\":[%d],"
		 "\"psbPeriod\":16}", (int) pid);
	assert_error(req_json("jLLDBTraceStart", json), "psbPeriod");
	assert_error(req_json("jLLDBTraceStart", "{\"type\":\"intel-pt\","
			      "\"perCpuTracing\":true}"),
		     "perCpuTracing is not supported");
	cr_assert_null(fx.srv.target->procs->threads->btrace);

	/* psbPeriod 0: a PSB+ every 2 KiB, honoured by the emulator.  */
	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"tids\":[%d],"
		 "\"iptTraceSize\":8192,\"psbPeriod\":0,\"enableTsc\":false}",
		 (int) pid);
	cr_assert_str_eq(req_json("jLLDBTraceStart", json), "OK");
	cr_assert_eq(fx.srv.target->procs->threads->btrace->size, 8192);
	cr_assert_eq(fx.target.btrace_psb_period, 0, "no lasting change");
}

Test(srv_lldb_trace, thread_trace_and_its_data)
{
	pid_t pid = srv_fx_start("marker", NULL);
	char json[256];
	const char *r;
	json_t *state;
	long size;

	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"tids\":[%d],"
		 "\"iptTraceSize\":4096}", (int) pid);
	cr_assert_str_eq(req_json("jLLDBTraceStart", json), "OK");
	assert_error(req_json("jLLDBTraceStart", json), "already traced");
	srv_fx_run_to("marker");

	state = get_state();
	size = traced_size(state, pid);
	cr_assert_gt(size, 0);
	cr_assert_eq(json_array_size(json_object_get(state,
						     "processBinaryData")), 1);
	json_decref(state);

	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"kind\":"
		 "\"iptTrace\",\"tid\":%d,\"cpuId\":null}", (int) pid);
	r = unescaped(req_json("jLLDBTraceGetBinaryData", json));
	cr_assert_eq((long) fx.len, size, "the size GetState promised");
	/* It starts at a PSB, as a decoder needs.  */
	cr_assert_eq(memcmp(r, "\x02\x82\x02\x82", 4), 0);
	/* MODE.Exec next: no TSC (0x19) without enableTsc.  */
	cr_assert_gt(size, 17);
	cr_expect_eq((uint8_t) r[16], 0x99, "after the PSB: %#x",
		     (uint8_t) r[16]);

	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"kind\":"
		 "\"iptTrace\",\"tid\":%d,\"offset\":2,\"size\":2}", (int) pid);
	r = unescaped(req_json("jLLDBTraceGetBinaryData", json));
	cr_assert_eq(fx.len, 2);
	cr_assert_eq(memcmp(r, "\x02\x82", 2), 0);
	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"kind\":"
		 "\"iptTrace\",\"tid\":%d,\"offset\":%ld,\"size\":1}",
		 (int) pid, size);
	assert_error(req_json("jLLDBTraceGetBinaryData", json),
		     "read past the end");
	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"kind\":"
		 "\"perfContextSwitchTrace\",\"tid\":%d}", (int) pid);
	assert_error(req_json("jLLDBTraceGetBinaryData", json),
		     "unknown data kind 'perfContextSwitchTrace'");
	assert_error(req_json("jLLDBTraceGetBinaryData", "{\"type\":"
			      "\"intel-pt\",\"kind\":\"iptTrace\",\"tid\":1}"),
		     "no thread with tid 1");
	assert_error(req_json("jLLDBTraceGetBinaryData", "{\"type\":"
			      "\"intel-pt\",\"kind\":\"iptTrace\",\"cpuId\":0}"),
		     "per-cpu");

	/* The cpu an emulated trace names: one libipt knows.  */
	r = unescaped(req_json("jLLDBTraceGetBinaryData", "{\"type\":"
			       "\"intel-pt\",\"kind\":\"procfsCpuInfo\"}"));
	cr_assert(strstr(r, "GenuineIntel"), "%s", r);

	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"tids\":[%d]}",
		 (int) pid);
	cr_assert_str_eq(req_json("jLLDBTraceStop", json), "OK");
	assert_error(req_json("jLLDBTraceStop", json), "not currently traced");
	snprintf(json, sizeof(json), "{\"type\":\"intel-pt\",\"kind\":"
		 "\"iptTrace\",\"tid\":%d}", (int) pid);
	assert_error(req_json("jLLDBTraceGetBinaryData", json),
		     "not currently traced");
}

Test(srv_lldb_trace, process_trace_follows_new_threads)
{
	json_t *state;

	srv_fx_start("threads", NULL);
	assert_error(req_json("jLLDBTraceStop", "{\"type\":\"intel-pt\"}"),
		     "Process not currently traced");
	cr_assert_str_eq(req_json("jLLDBTraceStart", "{\"type\":\"intel-pt\","
				  "\"iptTraceSize\":4096,"
				  "\"processBufferSizeLimit\":null}"), "OK");
	assert_error(req_json("jLLDBTraceStart", "{\"type\":\"intel-pt\"}"),
		     "Process currently traced");
	/* marker() runs on the new threads only.  */
	srv_fx_run_to("marker");
	state = get_state();
	cr_assert_geq(json_array_size(json_object_get(state, "tracedThreads")),
		      2, "the new threads are traced too");
	json_decref(state);
	cr_assert_str_eq(req_json("jLLDBTraceStop", "{\"type\":\"intel-pt\"}"),
			 "OK");
	state = get_state();
	cr_assert_eq(json_array_size(json_object_get(state, "tracedThreads")),
		     0);
	json_decref(state);
}

Test(srv_lldb_trace, process_limit_leaves_new_threads_untraced)
{
	json_t *state, *w;
	size_t i;
	int warned = 0;

	srv_fx_start("threads", NULL);
	cr_assert_str_eq(req_json("jLLDBTraceStart", "{\"type\":\"intel-pt\","
				  "\"iptTraceSize\":4096,"
				  "\"processBufferSizeLimit\":4096}"), "OK");
	srv_fx_run_to("marker");
	state = get_state();
	cr_assert_eq(json_array_size(json_object_get(state, "tracedThreads")),
		     1, "only the first thread fits in the limit");
	json_array_foreach(json_object_get(state, "warnings"), i, w)
		warned |= strstr(json_string_value(w), "limit") != NULL;
	cr_assert(warned, "a warning names the limit");
	json_decref(state);

	assert_error(req_json("jLLDBTraceStart", "{\"type\":\"intel-pt\"}"),
		     "Process currently traced");
}
