/* LLDB's trace bundle from a bundle built in memory: trace.json's
   fields (cpu, process, thread, modules at their load addresses), the
   raw trace copied byte for byte, the vDSO copy written as a module, and
   the inputs it refuses.  (testsuite/lldb/scenarios/trace_export.lldb
   has LLDB itself load one.)  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/bt_export_lldb_XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(bt_export_lldb, .init = setup, .fini = teardown);

static const uint8_t trace[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02,
				 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
				 0x02, 0x82, 0x02, 0x23 };
static const uint8_t vdso[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };

/* A PT bundle of thread 101 of process 100: libc in two mappings, the
   program at a PIE base, and a copy of the vDSO.  */
static void fill(struct bt_bundle *b, struct bt_mapping *maps,
		 struct bt_pages *pages)
{
	memset(b, 0, sizeof(*b));
	b->format = btf_pt;
	b->pid = 100;
	b->tid = 101;
	b->trace = trace;
	b->trace_size = sizeof(trace);
	maps[0] = (struct bt_mapping) { 0x555555555000, 0x1000, 0x1000, 5,
					"/bin/prog", NULL, 0 };
	maps[1] = (struct bt_mapping) { 0x555555554000, 0x1000, 0, 4,
					"/bin/prog", NULL, 0 };
	maps[2] = (struct bt_mapping) { 0x7ffff7dd4000, 0x10000, 0x2000, 5,
					"/lib/libc.so.6", NULL, 0 };
	b->mappings = maps;
	b->nmappings = 3;
	pages[0] = (struct bt_pages) { 0x7ffff7fc8000, sizeof(vdso), 5,
				       "[vdso]", vdso };
	b->pages = pages;
	b->npages = 1;
}

static json_t *load_json(void)
{
	char path[512];
	json_error_t err;
	json_t *root;

	snprintf(path, sizeof(path), "%s/out/trace.json", dir);
	root = json_load_file(path, 0, &err);
	cr_assert_not_null(root, "%s: %s", path, err.text);
	return root;
}

static const char *module_load(json_t *root, const char *path)
{
	json_t *m;
	size_t i;

	json_array_foreach(json_object_get(json_array_get(json_object_get(
			root, "processes"), 0), "modules"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "systemPath")),
			    path))
			return json_string_value(json_object_get(m,
								 "loadAddress"));
	return NULL;
}

Test(bt_export_lldb, writes_the_bundle_lldb_loads)
{
	struct bt_mapping maps[3];
	struct bt_pages pages[1];
	struct bt_bundle b;
	struct bt_diag diag;
	char path[512], buf[64];
	json_t *root, *proc, *thread, *cpu;
	FILE *f;
	size_t n;

	fill(&b, maps, pages);
	snprintf(path, sizeof(path), "%s/out", dir);
	bt_diag_init(&diag);
	cr_assert_eq(bt_export_lldb(path, &b, &diag), 0, "%s", diag.text);

	root = load_json();
	cr_assert_str_eq(json_string_value(json_object_get(root, "type")),
			 "intel-pt");
	/* An emulated trace names no cpu: LLDB gets one libipt knows.  */
	cpu = json_object_get(root, "cpuInfo");
	cr_assert_str_eq(json_string_value(json_object_get(cpu, "vendor")),
			 "GenuineIntel");
	cr_assert_eq(json_integer_value(json_object_get(cpu, "family")), 6);
	cr_assert_eq(json_integer_value(json_object_get(cpu, "model")), 122);
	proc = json_array_get(json_object_get(root, "processes"), 0);
	cr_assert_eq(json_integer_value(json_object_get(proc, "pid")), 100);
	thread = json_array_get(json_object_get(proc, "threads"), 0);
	cr_assert_eq(json_integer_value(json_object_get(thread, "tid")), 101);
	cr_assert_str_eq(json_string_value(json_object_get(thread, "iptTrace")),
			 "threads/101.intelpt_trace");
	/* Each file once, at its offset-0 address.  */
	cr_assert_eq(json_array_size(json_object_get(proc, "modules")), 3);
	cr_assert_str_eq(module_load(root, "/bin/prog"), "0x555555554000");
	cr_assert_str_eq(module_load(root, "/lib/libc.so.6"), "0x7ffff7dd2000");
	cr_assert_str_eq(module_load(root, "[vdso]"), "0x7ffff7fc8000");
	/* A bundle without time gives LLDB none.  */
	cr_assert_null(json_object_get(root, "tscPerfZeroConversion"));
	json_decref(root);

	snprintf(path, sizeof(path), "%s/out/threads/101.intelpt_trace", dir);
	f = fopen(path, "rb");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	cr_assert_eq(n, sizeof(trace));
	cr_assert_eq(memcmp(buf, trace, n), 0);
	snprintf(path, sizeof(path), "%s/out/modules/pages-7ffff7fc8000.so", dir);
	cr_assert_eq(access(path, R_OK), 0, "the vDSO copy: %s", path);
}

Test(bt_export_lldb, hardware_cpu_kept)
{
	struct bt_mapping maps[3];
	struct bt_pages pages[1];
	struct bt_bundle b;
	json_t *root, *cpu;
	char path[512];

	fill(&b, maps, pages);
	b.cpu = (struct bt_cpu) { btv_intel, 6, 0x8e, 10 };
	snprintf(path, sizeof(path), "%s/out", dir);
	cr_assert_eq(bt_export_lldb(path, &b, NULL), 0);
	root = load_json();
	cpu = json_object_get(root, "cpuInfo");
	cr_assert_eq(json_integer_value(json_object_get(cpu, "model")), 0x8e);
	cr_assert_eq(json_integer_value(json_object_get(cpu, "stepping")), 10);
	json_decref(root);
}

Test(bt_export_lldb, time_as_lldb_takes_it)
{
	struct bt_mapping maps[3];
	struct bt_pages pages[1];
	struct bt_bundle b;
	json_t *root, *conv;
	char path[512];

	fill(&b, maps, pages);
	/* perf's time_zero may wrap below 0: LLDB takes it as a u64.  */
	b.time = (struct bt_time) { 0xffffffffff09b761ull, 1651892774, 32 };
	snprintf(path, sizeof(path), "%s/out", dir);
	cr_assert_eq(bt_export_lldb(path, &b, NULL), 0);
	root = load_json();
	conv = json_object_get(root, "tscPerfZeroConversion");
	cr_assert_not_null(conv);
	cr_assert_eq(json_integer_value(json_object_get(conv, "timeMult")),
		     1651892774);
	cr_assert_eq(json_integer_value(json_object_get(conv, "timeShift")),
		     32);
	cr_assert_str_eq(json_string_value(json_object_get(conv, "timeZero")),
			 "0xffffffffff09b761");
	json_decref(root);
}

Test(bt_export_lldb, refuses_what_it_cannot_write)
{
	struct bt_mapping maps[3];
	struct bt_pages pages[1];
	struct bt_bundle b;
	struct bt_diag diag;
	char path[512];

	fill(&b, maps, pages);
	bt_diag_init(&diag);
	cr_assert_eq(bt_export_lldb("", &b, &diag), -bte_invalid);
	b.format = btf_bts;
	snprintf(path, sizeof(path), "%s/bts", dir);
	cr_assert_eq(bt_export_lldb(path, &b, &diag), -bte_unsupported);
	cr_assert(strstr(diag.text, "BTS"), "%s", diag.text);
	cr_assert_neq(access(path, F_OK), 0, "nothing written");
	b.format = btf_pt;
	cr_assert_eq(bt_export_lldb("/proc/self/no/such", &b, &diag),
		     -bte_io);
	cr_assert(strstr(diag.text, "cannot create"), "%s", diag.text);
}
