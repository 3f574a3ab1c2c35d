/* Compressed debug sections inflated ahead of libdw (bt_inflate.h).  */
#include "btrace/bt_inflate.h"
#include "btrace/ptbtrace.h"

#include <libdeflate.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* One section: its compressed bytes and where they inflate to.  */
struct bt_inflate_job {
	Elf_Scn *scn;
	const uint8_t *in;
	size_t in_size;
	uint8_t *out;
	size_t out_size;
	uint64_t align;
	int worker;               /* 0: the caller's thread, 1: the other */
	int ok;
};

struct bt_inflate_work {
	struct bt_inflate_job *jobs;
	size_t njobs;
	int worker;
};

void bt_inflated_init(struct bt_inflated *inf)
{
	memset(inf, 0, sizeof(*inf));
}

void bt_inflated_fini(struct bt_inflated *inf)
{
	if (inf->memory)
		munmap(inf->memory, inf->size);
	bt_inflated_init(inf);
}

static int bt_is_debug_section(Elf *elf, size_t shstrndx,
			       const GElf_Shdr *shdr)
{
	const char *name = elf_strptr(elf, shstrndx, shdr->sh_name);

	return name && strncmp(name, ".debug_", 7) == 0 &&
		shdr->sh_type != SHT_NOBITS &&
		(shdr->sh_flags & SHF_COMPRESSED);
}

/* The job for SCN, if it is a zlib-compressed section we can take.  */
static int bt_inflate_job_of(Elf_Scn *scn, size_t chdr_size,
			     struct bt_inflate_job *job)
{
	Elf_Data *raw = elf_rawdata(scn, NULL);
	GElf_Chdr chdr;

	if (!raw || raw->d_size <= chdr_size || !gelf_getchdr(scn, &chdr) ||
	    chdr.ch_type != ELFCOMPRESS_ZLIB || !chdr.ch_size)
		return 0;
	memset(job, 0, sizeof(*job));
	job->scn = scn;
	job->in = (const uint8_t *) raw->d_buf + chdr_size;
	job->in_size = raw->d_size - chdr_size;
	job->out_size = chdr.ch_size;
	job->align = chdr.ch_addralign ? chdr.ch_addralign : 1;
	return 1;
}

static void *bt_inflate_worker(void *arg)
{
	const struct bt_inflate_work *w = arg;
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();

	if (!d)
		return NULL;
	for (size_t i = 0; i < w->njobs; ++i) {
		struct bt_inflate_job *job = &w->jobs[i];
		size_t actual;

		if (job->worker != w->worker)
			continue;
		job->ok = libdeflate_zlib_decompress(d, job->in, job->in_size,
						     job->out, job->out_size,
						     &actual) == LIBDEFLATE_SUCCESS
			&& actual == job->out_size;
	}
	libdeflate_free_decompressor(d);
	return NULL;
}

static int bt_job_by_size(const void *a, const void *b)
{
	const struct bt_inflate_job *x = a, *y = b;

	return x->in_size < y->in_size ? 1 : x->in_size > y->in_size ? -1 : 0;
}

/* Largest first, each to the less loaded of the two workers.  */
static void bt_inflate_balance(struct bt_inflate_job *jobs, size_t n)
{
	size_t load[2] = { 0, 0 };

	qsort(jobs, n, sizeof(*jobs), bt_job_by_size);
	for (size_t i = 0; i < n; ++i) {
		jobs[i].worker = load[1] < load[0];
		load[jobs[i].worker] += jobs[i].in_size;
	}
}

/* Run both workers: the other on a thread of its own (signals left to
   the caller's), or after the first when no thread can be had.  */
static void bt_inflate_run(struct bt_inflate_job *jobs, size_t n)
{
	struct bt_inflate_work w0 = { jobs, n, 0 }, w1 = { jobs, n, 1 };
	sigset_t all, old;
	pthread_t thread;
	int threaded;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	threaded = pthread_create(&thread, NULL, bt_inflate_worker, &w1) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	bt_inflate_worker(&w0);
	if (threaded)
		pthread_join(thread, NULL);
	else
		bt_inflate_worker(&w1);
}

/* Let libelf see JOB's section as the uncompressed bytes.  */
static void bt_inflate_install(const struct bt_inflate_job *job)
{
	Elf_Data *data = elf_getdata(job->scn, NULL);
	GElf_Shdr mem, *shdr = gelf_getshdr(job->scn, &mem);

	if (!data || !shdr)
		return;
	data->d_buf = job->out;
	data->d_size = job->out_size;
	data->d_type = ELF_T_BYTE;
	data->d_align = job->align;
	data->d_off = 0;
	shdr->sh_flags &= ~(GElf_Xword) SHF_COMPRESSED;
	shdr->sh_size = job->out_size;
	shdr->sh_addralign = job->align;
	(void) gelf_update_shdr(job->scn, shdr);
}

int bt_inflate_debug(Elf *elf, struct bt_inflated *inf)
{
	size_t shstrndx, nscns, njobs = 0, total = 0, chdr_size;
	struct bt_inflate_job *jobs;
	Elf_Scn *scn = NULL;
	uint8_t *memory;

	if (inf->memory || elf_getshdrstrndx(elf, &shstrndx) < 0 ||
	    elf_getshdrnum(elf, &nscns) < 0 || !nscns)
		return 0;
	chdr_size = gelf_getclass(elf) == ELFCLASS32 ? sizeof(Elf32_Chdr)
		: sizeof(Elf64_Chdr);
	jobs = calloc(nscns, sizeof(*jobs));
	if (!jobs)
		return -bte_nomem;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr mem, *shdr = gelf_getshdr(scn, &mem);

		if (shdr && bt_is_debug_section(elf, shstrndx, shdr) &&
		    bt_inflate_job_of(scn, chdr_size, &jobs[njobs])) {
			/* Cache-line aligned, whatever a section asks.  */
			total += (jobs[njobs].out_size + 63) & ~(size_t) 63;
			njobs += 1;
		}
	}
	if (!njobs) {
		free(jobs);
		return 0;
	}

	memory = mmap(NULL, total, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (memory == MAP_FAILED) {
		free(jobs);
		return -bte_nomem;
	}
	/* One call instead of a fault per page; a refusal is harmless.  */
	(void) madvise(memory, total, MADV_POPULATE_WRITE);
	inf->memory = memory;
	inf->size = total;
	for (size_t i = 0; i < njobs; ++i) {
		jobs[i].out = memory;
		memory += (jobs[i].out_size + 63) & ~(size_t) 63;
	}

	bt_inflate_balance(jobs, njobs);
	bt_inflate_run(jobs, njobs);
	for (size_t i = 0; i < njobs; ++i)
		if (jobs[i].ok) {
			bt_inflate_install(&jobs[i]);
			inf->nsections += 1;
		}
	free(jobs);
	return 0;
}
