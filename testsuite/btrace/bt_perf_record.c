/* Test-only: record a corpus program's `run` function twice, once with a
   plain PTRACE_SINGLESTEP loop (the ground truth) and once through the
   trace emulator, and save the emulated trace as a bundle next to the
   truth, for the perf export test (perf_export.sh) to compare perf's
   decode against.

   usage: bt_perf_record pt|bts PROG ARG|- BUNDLE TRUTH
   TRUTH gets one "TID HEXIP" line per instruction, as
   `perf script -F tid,ip` prints them after whitespace is squeezed.
   Exits 77 when the process cannot be traced here.  */
#include "testsuite/emu/emu_driver.h"
#include "btrace/ptbtrace.h"
#include "common/ps_error.h"
#include "nat/maps.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Executable anonymous memory (the vDSO) by copy, as ptstub saves it.  */
static size_t bt_save_pages(pid_t pid, const struct nat_maps *maps,
			    struct bt_pages *pages)
{
	char path[64];
	size_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int) pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	for (size_t i = 0; i < maps->count; i++) {
		const struct nat_map *m = &maps->map[i];
		uint8_t *bytes;

		if (m->path[0] == '/' || !(m->prot & PROT_EXEC) ||
		    strcmp(m->path, "[vsyscall]") == 0)
			continue;
		bytes = malloc(m->end - m->start);
		if (!bytes || pread(fd, bytes, m->end - m->start,
				    (off_t) m->start) !=
			      (ssize_t) (m->end - m->start)) {
			free(bytes);
			continue;
		}
		pages[n].address = m->start;
		pages[n].size = m->end - m->start;
		pages[n].prot = m->prot;
		pages[n].name = m->path;
		pages[n].bytes = bytes;
		n++;
	}
	close(fd);
	return n;
}

static int bt_save(struct drv_proc *proc, enum emu_format format,
		   const struct drv_trace *trace, const char *path)
{
	struct bt_mapping *mappings;
	struct bt_pages *pages;
	struct bt_bts_block *blocks = NULL;
	struct nat_maps maps;
	struct bt_bundle b;
	size_t n = 0;
	int err;

	memset(&b, 0, sizeof(b));
	nat_maps_init(&maps);
	err = nat_maps_read(&maps, proc->pid);
	if (err < 0) {
		fprintf(stderr, "bt_perf_record: maps: %s\n", ps_errstr(err));
		return 1;
	}
	mappings = calloc(maps.count + 1, sizeof(*mappings));
	pages = calloc(maps.count + 1, sizeof(*pages));
	if (!mappings || !pages)
		return 1;
	for (size_t i = 0; i < maps.count; i++) {
		const struct nat_map *m = &maps.map[i];

		if (m->path[0] != '/')
			continue;
		mappings[n].address = m->start;
		mappings[n].size = m->end - m->start;
		mappings[n].offset = m->offset;
		mappings[n].prot = m->prot;
		mappings[n].path = m->path;
		mappings[n].build_id = m->build_id_size ? m->build_id : NULL;
		mappings[n].build_id_size = m->build_id_size;
		n++;
	}
	b.pid = proc->pid;
	b.tid = proc->pid;
	b.buffer_size = 16u << 20;
	b.mappings = mappings;
	b.nmappings = n;
	b.pages = pages;
	b.npages = bt_save_pages(proc->pid, &maps, pages);
	if (format == emu_format_pt) {
		b.format = btf_pt;
		b.trace = (const uint8_t *) trace->pt.data;
		b.trace_size = trace->pt.len;
	} else {
		/* Bundles keep BTS blocks newest first.  */
		blocks = calloc((size_t) trace->nblocks + 1, sizeof(*blocks));
		if (!blocks)
			return 1;
		for (long i = 0; i < trace->nblocks; i++) {
			blocks[i].begin =
				trace->blocks[trace->nblocks - 1 - i].begin;
			blocks[i].end = trace->blocks[trace->nblocks - 1 - i].end;
		}
		b.format = btf_bts;
		b.trace = (const uint8_t *) blocks;
		b.trace_size = (size_t) trace->nblocks * sizeof(*blocks);
	}
	err = bt_bundle_write_file(&b, path);
	if (err < 0)
		fprintf(stderr, "bt_perf_record: cannot write %s\n", path);
	free(blocks);
	for (size_t i = 0; i < b.npages; i++)
		free((void *) pages[i].bytes);
	free(pages);
	free(mappings);
	nat_maps_fini(&maps);
	return err < 0;
}

int main(int argc, char **argv)
{
	enum emu_format format;
	const char *arg;
	struct drv_proc proc;
	struct drv_ips truth;
	struct drv_trace trace;
	FILE *out;
	long n;
	int err, status;
	pid_t pid;

	if (argc != 6 || (strcmp(argv[1], "pt") && strcmp(argv[1], "bts"))) {
		fputs("usage: bt_perf_record pt|bts PROG ARG|- BUNDLE TRUTH\n",
		      stderr);
		return 2;
	}
	format = strcmp(argv[1], "pt") == 0 ? emu_format_pt : emu_format_bts;
	arg = strcmp(argv[3], "-") ? argv[3] : NULL;

	drv_ips_init(&truth);
	if (drv_start(&proc, argv[2], arg, "run") != 0) {
		printf("SKIP: cannot trace %s here\n", argv[2]);
		return 77;
	}
	n = drv_truth(&proc, &truth);
	drv_finish(&proc);
	if (n <= 0) {
		fprintf(stderr, "bt_perf_record: single-step run: %ld\n", n);
		return 1;
	}
	/* The same run under the emulator: a new process, whose pid the
	   bundle and the truth file name.  */
	drv_trace_init(&trace);
	if (drv_start(&proc, argv[2], arg, "run") != 0)
		return 1;
	err = drv_emulate(&proc, NULL, format, 16u << 20, &trace);
	if (err < 0) {
		fprintf(stderr, "bt_perf_record: emulated run: %s\n",
			ps_errstr(err));
		drv_finish(&proc);
		return 1;
	}
	status = bt_save(&proc, format, &trace, argv[4]);
	pid = proc.pid;
	drv_finish(&proc);

	if (!status) {
		out = fopen(argv[5], "w");
		if (!out)
			return 1;
		for (size_t i = 0; i < truth.count; i++)
			fprintf(out, "%d %llx\n", (int) pid,
				(unsigned long long) truth.ips[i]);
		fclose(out);
	}
	drv_trace_fini(&trace);
	drv_ips_fini(&truth);
	return status;
}
