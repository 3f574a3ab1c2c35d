/* LLDB's intel-pt trace bundle from a ptstub bundle: the folder that
   `trace load DIR/trace.json` opens (its schema is what `trace schema
   intel-pt` prints).  trace.json names the cpu, the process and its
   thread with the raw trace in threads/TID.intelpt_trace, and the
   modules at their load addresses; anonymous code the bundle carries a
   copy of (the vDSO) is written to modules/; a bundle with time adds
   its TSC conversion.  JSON through jansson.  */
#include "btrace/ptbtrace.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* LLDB's decoder takes an Intel cpu libipt knows, or none at all
   ("unknown cpu").  A trace that names no cpu (emulated) gets family 6
   model 122: its only erratum, apl11, is about OVF followed by TIP.PGD,
   which the emulator never writes; the stub says the same to a live
   LLDB.  */
static const struct bt_cpu bt_lldb_default_cpu = { btv_intel, 6, 122, 0 };

static int bt_lldb_mkdir(const char *path, struct bt_diag *diag)
{
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		return bt_diag_set(diag, bte_io, 0, 0, "cannot create %s: %s",
				   path, strerror(errno));
	return 0;
}

static int bt_lldb_write(const char *path, const void *data, size_t size,
			 struct bt_diag *diag)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return bt_diag_set(diag, bte_io, 0, 0, "cannot create %s: %s",
				   path, strerror(errno));
	ok = fwrite(data, 1, size, f) == size;
	ok = fclose(f) == 0 && ok;
	if (!ok)
		return bt_diag_set(diag, bte_io, 0, 0, "cannot write %s: %s",
				   path, strerror(errno));
	return 0;
}

static json_t *bt_lldb_hex(uint64_t value)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%" PRIx64, value);
	return json_string(text);
}

/* The load address of the module PATH: where its offset-0 page sits
   (the lowest mapping less its file offset).  */
static uint64_t bt_lldb_load_address(const struct bt_bundle *b,
				     const char *path)
{
	uint64_t best = UINT64_MAX;

	for (size_t i = 0; i < b->nmappings; i++) {
		const struct bt_mapping *m = &b->mappings[i];

		if (!strcmp(m->path, path) && m->address >= m->offset &&
		    m->address - m->offset < best)
			best = m->address - m->offset;
	}
	return best;
}

static int bt_lldb_modules(json_t *modules, const char *dir,
			   const struct bt_bundle *b, struct bt_diag *diag)
{
	char path[4096];
	int err;

	for (size_t i = 0; i < b->nmappings; i++) {
		const char *file = b->mappings[i].path;
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(b->mappings[j].path, file);
		if (seen || !file[0])
			continue;
		if (json_array_append_new(modules, json_pack("{s:s, s:o}",
				"systemPath", file, "loadAddress",
				bt_lldb_hex(bt_lldb_load_address(b, file)))))
			return bt_diag_set(diag, bte_nomem, 0, 0,
					   "out of memory");
	}
	for (size_t i = 0; i < b->npages; i++) {
		const struct bt_pages *p = &b->pages[i];
		char rel[64];

		/* Only an ELF image (the vDSO) is a module LLDB can load.  */
		if (p->size < 4 || memcmp(p->bytes, "\177ELF", 4))
			continue;
		snprintf(rel, sizeof(rel), "modules/pages-%" PRIx64 ".so",
			 p->address);
		snprintf(path, sizeof(path), "%s/%s", dir, rel);
		err = bt_lldb_write(path, p->bytes, p->size, diag);
		if (err < 0)
			return err;
		if (json_array_append_new(modules, json_pack("{s:s, s:s, s:o}",
				"systemPath", p->name[0] ? p->name : rel,
				"file", rel, "loadAddress",
				bt_lldb_hex(p->address))))
			return bt_diag_set(diag, bte_nomem, 0, 0,
					   "out of memory");
	}
	return 0;
}

int bt_export_lldb(const char *dir, const struct bt_bundle *b,
		   struct bt_diag *diag)
{
	const struct bt_cpu *cpu = b->cpu.vendor == btv_intel ? &b->cpu
		: &bt_lldb_default_cpu;
	char path[4096], rel[64];
	json_t *root, *modules;
	int err;

	if (!dir || !*dir || !b)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	if (b->format != btf_pt)
		return bt_diag_set(diag, bte_unsupported, 0, 0,
				   "LLDB's bundles hold Intel PT traces; this "
				   "bundle's trace is BTS");
	if (strlen(dir) > sizeof(path) - 128)
		return bt_diag_set(diag, bte_invalid, 0, 0, "folder name too "
				   "long: %s", dir);
	err = bt_lldb_mkdir(dir, diag);
	snprintf(path, sizeof(path), "%s/threads", dir);
	if (!err)
		err = bt_lldb_mkdir(path, diag);
	snprintf(path, sizeof(path), "%s/modules", dir);
	if (!err)
		err = bt_lldb_mkdir(path, diag);
	if (err < 0)
		return err;

	snprintf(rel, sizeof(rel), "threads/%d.intelpt_trace", (int) b->tid);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	err = bt_lldb_write(path, b->trace, b->trace_size, diag);
	if (err < 0)
		return err;

	modules = json_array();
	err = modules ? bt_lldb_modules(modules, dir, b, diag)
		: bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	if (err < 0) {
		json_decref(modules);
		return err;
	}
	root = json_pack("{s:s, s:{s:s, s:i, s:i, s:i}, s:[{s:i, s:s, "
			 "s:[{s:i, s:s}], s:o}]}",
			 "type", "intel-pt",
			 "cpuInfo", "vendor", "GenuineIntel",
			 "family", (int) cpu->family, "model", (int) cpu->model,
			 "stepping", (int) cpu->stepping,
			 "processes", "pid", (int) b->pid,
			 "triple", "x86_64-pc-linux-gnu",
			 "threads", "tid", (int) b->tid, "iptTrace", rel,
			 "modules", modules);
	if (!root)
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	/* The bundle's time, so that LLDB turns the trace's TSC packets
	   into timestamps (perf's conversion, as LLDB takes it).  */
	if (b->time.mult &&
	    json_object_set_new(root, "tscPerfZeroConversion", json_pack(
		    "{s:I, s:i, s:o}", "timeMult", (json_int_t) b->time.mult,
		    "timeShift", (int) b->time.shift,
		    "timeZero", bt_lldb_hex(b->time.zero))) < 0) {
		json_decref(root);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	snprintf(path, sizeof(path), "%s/trace.json", dir);
	err = json_dump_file(root, path, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (err)
		return bt_diag_set(diag, bte_io, 0, 0, "cannot write %s: %s",
				   path, strerror(errno));
	return 0;
}
