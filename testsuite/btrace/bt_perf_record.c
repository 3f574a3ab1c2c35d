/* Test-only: record a corpus program's `run` function twice, once with a
   plain PTRACE_SINGLESTEP loop (the ground truth) and once through the
   trace emulator, and save the emulated trace as a bundle next to the
   truth, for the perf export test (perf_export.sh) to compare perf's
   decode against.

   usage: bt_perf_record pt|bts PROG ARG|- BUNDLE TRUTH
          bt_perf_record --threads=N pt|bts PROG ARG|- PERF.DATA TRUTH
   TRUTH gets one "TID HEXIP" line per instruction, as
   `perf script -F tid,ip` prints them after whitespace is squeezed.
   With --threads, N runs (ASLR is off: they map the program alike) go
   into one perf.data as N threads of the first run's process, written
   by the exporter's thread-level entry, and TRUTH is each thread's
   truth in turn: what perf decodes queue by queue.
   Exits 77 when the process cannot be traced here.  */
#include "testsuite/emu/emu_driver.h"
#include "btrace/bt_export_perf.h"
#include "btrace/ptbtrace.h"
#include "common/ps_error.h"
#include "nat/maps.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BT_MAX_RUNS 4

/* One recording: the truth, the emulated trace and the process's map.  */
struct bt_run {
	struct drv_ips truth;
	struct drv_trace trace;
	struct bt_bts_block *blocks;   /* BTS, newest first */
	pid_t pid;
	struct nat_maps maps;
	struct bt_mapping *mappings;
	struct bt_pages *pages;
	size_t nmappings, npages;
};

/* Executable anonymous memory (the vDSO) by copy, as ptstub saves it.  */
static void bt_read_pages(struct bt_run *r)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int) r->pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	for (size_t i = 0; i < r->maps.count; i++) {
		const struct nat_map *m = &r->maps.map[i];
		size_t size = m->end - m->start;
		uint8_t *bytes;

		if (m->path[0] == '/' || !(m->prot & PROT_EXEC) ||
		    strcmp(m->path, "[vsyscall]") == 0)
			continue;
		bytes = malloc(size);
		if (!bytes || pread(fd, bytes, size, (off_t) m->start) !=
			      (ssize_t) size) {
			free(bytes);
			continue;
		}
		r->pages[r->npages].address = m->start;
		r->pages[r->npages].size = size;
		r->pages[r->npages].prot = m->prot;
		r->pages[r->npages].name = m->path;
		r->pages[r->npages].bytes = bytes;
		r->npages++;
	}
	close(fd);
}

/* The stopped process's mappings, as a bundle holds them.  */
static int bt_read_maps(struct bt_run *r)
{
	int err = nat_maps_read(&r->maps, r->pid);

	if (err < 0) {
		fprintf(stderr, "bt_perf_record: maps: %s\n", ps_errstr(err));
		return -1;
	}
	r->mappings = calloc(r->maps.count + 1, sizeof(*r->mappings));
	r->pages = calloc(r->maps.count + 1, sizeof(*r->pages));
	if (!r->mappings || !r->pages)
		return -1;
	for (size_t i = 0; i < r->maps.count; i++) {
		const struct nat_map *m = &r->maps.map[i];
		struct bt_mapping *bm = &r->mappings[r->nmappings];

		if (m->path[0] != '/')
			continue;
		bm->address = m->start;
		bm->size = m->end - m->start;
		bm->offset = m->offset;
		bm->prot = m->prot;
		bm->path = m->path;
		bm->build_id = m->build_id_size ? m->build_id : NULL;
		bm->build_id_size = m->build_id_size;
		r->nmappings++;
	}
	bt_read_pages(r);
	return 0;
}

/* Single-step PROG's run, then emulate it; 77 if it cannot be traced.  */
static int bt_record(struct bt_run *r, enum trace_format format,
		     const char *prog, const char *arg,
		     const struct emu_config *config)
{
	struct drv_proc proc;
	int err;

	memset(r, 0, sizeof(*r));
	drv_ips_init(&r->truth);
	drv_trace_init(&r->trace);
	nat_maps_init(&r->maps);
	if (drv_start(&proc, prog, arg, "run") != 0) {
		printf("SKIP: cannot trace %s here\n", prog);
		return 77;
	}
	err = (int) drv_truth(&proc, &r->truth);
	drv_finish(&proc);
	if (err <= 0) {
		fprintf(stderr, "bt_perf_record: single-step run: %d\n", err);
		return 1;
	}
	if (drv_start(&proc, prog, arg, "run") != 0)
		return 1;
	err = drv_emulate(&proc, config, format, 16u << 20, &r->trace);
	if (err < 0) {
		fprintf(stderr, "bt_perf_record: emulated run: %s\n",
			ps_errstr(err));
		drv_finish(&proc);
		return 1;
	}
	r->pid = proc.pid;
	err = bt_read_maps(r);
	drv_finish(&proc);
	if (err < 0)
		return 1;
	if (format == trace_format_bts) {
		long n = r->trace.nblocks;

		r->blocks = calloc((size_t) n + 1, sizeof(*r->blocks));
		if (!r->blocks)
			return 1;
		for (long i = 0; i < n; i++) {
			r->blocks[i].begin = r->trace.blocks[n - 1 - i].begin;
			r->blocks[i].end = r->trace.blocks[n - 1 - i].end;
		}
	}
	return 0;
}

static void bt_run_fini(struct bt_run *r)
{
	for (size_t i = 0; i < r->npages; i++)
		free((void *) r->pages[i].bytes);
	free(r->pages);
	free(r->mappings);
	free(r->blocks);
	nat_maps_fini(&r->maps);
	drv_trace_fini(&r->trace);
	drv_ips_fini(&r->truth);
}

static void bt_bundle_of(const struct bt_run *r, enum trace_format format,
			 struct bt_bundle *b)
{
	memset(b, 0, sizeof(*b));
	b->pid = r->pid;
	b->tid = r->pid;
	b->buffer_size = 16u << 20;
	b->mappings = r->mappings;
	b->nmappings = r->nmappings;
	b->pages = r->pages;
	b->npages = r->npages;
	if (format == trace_format_pt) {
		b->format = btf_pt;
		b->trace = (const uint8_t *) r->trace.pt.data;
		b->trace_size = r->trace.pt.len;
	} else {
		b->format = btf_bts;
		b->trace = (const uint8_t *) r->blocks;
		b->trace_size = (size_t) r->trace.nblocks * sizeof(*r->blocks);
	}
}

static int bt_same_maps(const struct bt_run *a, const struct bt_run *b)
{
	if (a->nmappings != b->nmappings)
		return 0;
	for (size_t i = 0; i < a->nmappings; i++)
		if (a->mappings[i].address != b->mappings[i].address ||
		    strcmp(a->mappings[i].path, b->mappings[i].path))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	struct bt_run runs[BT_MAX_RUNS];
	struct bt_perf_thread threads[BT_MAX_RUNS];
	enum trace_format format;
	struct bt_bundle b;
	struct bt_diag diag;
	const char *arg;
	/* --engine=cache: the code-cache engine records, not the ptrace
	   engine (NULL: the emulator's defaults).  */
	static const struct emu_config cache = { .engine = emu_engine_cache };
	const struct emu_config *config = NULL;
	long nruns = 1;
	int status = 0, i;
	FILE *out;

	for (; argc > 1 && strncmp(argv[1], "--", 2) == 0; argv++, argc--) {
		if (strncmp(argv[1], "--threads=", 10) == 0)
			nruns = strtol(argv[1] + 10, NULL, 10);
		else if (strcmp(argv[1], "--engine=cache") == 0)
			config = &cache;
		else
			break;
	}
	if (argc != 6 || (strcmp(argv[1], "pt") && strcmp(argv[1], "bts")) ||
	    nruns < 1 || nruns > BT_MAX_RUNS) {
		fputs("usage: bt_perf_record [--threads=N] [--engine=cache] "
		      "pt|bts PROG ARG|- "
		      "BUNDLE|PERF.DATA TRUTH\n", stderr);
		return 2;
	}
	format = strcmp(argv[1], "pt") == 0 ? trace_format_pt : trace_format_bts;
	arg = strcmp(argv[3], "-") ? argv[3] : NULL;

	for (i = 0; i < nruns && !status; i++)
		status = bt_record(&runs[i], format, argv[2], arg, config);
	if (status) {
		while (i-- > 0)
			bt_run_fini(&runs[i]);
		return status;
	}

	bt_bundle_of(&runs[0], format, &b);
	bt_diag_init(&diag);
	if (nruns == 1) {
		if (bt_bundle_write_file(&b, argv[4]) < 0) {
			fprintf(stderr, "bt_perf_record: cannot write %s\n",
				argv[4]);
			status = 1;
		}
	} else {
		for (i = 0; i < nruns; i++) {
			struct bt_bundle own;

			if (!bt_same_maps(&runs[0], &runs[i])) {
				printf("SKIP: the runs map %s differently "
				       "(ASLR?)\n", argv[2]);
				status = 77;
			}
			bt_bundle_of(&runs[i], format, &own);
			threads[i].pid = runs[0].pid;
			threads[i].tid = runs[i].pid;
			threads[i].trace = own.trace;
			threads[i].size = own.trace_size;
		}
		if (!status && bt_export_perf_threads(argv[4], &b, threads,
						      (size_t) nruns,
						      &diag) < 0) {
			fprintf(stderr, "bt_perf_record: %s\n", diag.text);
			status = 1;
		}
	}

	out = status ? NULL : fopen(argv[5], "w");
	for (i = 0; out && i < nruns; i++)
		for (size_t k = 0; k < runs[i].truth.count; k++)
			fprintf(out, "%d %llx\n", (int) runs[i].pid,
				(unsigned long long) runs[i].truth.ips[k]);
	if (out)
		fclose(out);
	else if (!status)
		status = 1;
	for (i = 0; i < nruns; i++)
		bt_run_fini(&runs[i]);
	return status;
}
