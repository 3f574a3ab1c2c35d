/* The client benchmark's floor: libipt's bare block-decoder loop over a
   trace bundle's raw PT, with the bundle's memory image (its files
   through libipt's own file sections, its page copies through a read
   callback).  Nothing is kept: blocks and instructions are counted.
     blk_loop FILE [REPS]
   prints one line of key=value: seconds (best of REPS; loading the
   bundle is not timed, the image is: libipt maps files lazily), blocks,
   instructions, decode errors resynced over.  */
#include "btrace/ptbtrace.h"

#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The bundle's copies of anonymous executable pages (the vDSO).  */
static int read_pages(uint8_t *buffer, size_t size,
		      const struct pt_asid *asid, uint64_t ip, void *context)
{
	const struct bt_bundle *bundle = context;

	(void) asid;
	for (size_t i = 0; i < bundle->npages; i++) {
		const struct bt_pages *p = &bundle->pages[i];

		if (ip >= p->address && ip - p->address < p->size) {
			uint64_t left = p->size - (ip - p->address);

			if (size > left)
				size = (size_t) left;
			memcpy(buffer, p->bytes + (ip - p->address), size);
			return (int) size;
		}
	}
	return -pte_nomap;
}

struct counts {
	unsigned long blocks, insns, errors;
};

static int decode(const struct bt_bundle *bundle, struct counts *n)
{
	struct pt_block_decoder *dec;
	struct pt_image *image;
	struct pt_config config;
	int status;

	pt_config_init(&config);
	config.begin = (uint8_t *) bundle->trace;
	config.end = (uint8_t *) bundle->trace + bundle->trace_size;
	if (bundle->cpu.vendor == btv_intel) {
		config.cpu.vendor = pcv_intel;
		config.cpu.family = bundle->cpu.family;
		config.cpu.model = bundle->cpu.model;
		config.cpu.stepping = bundle->cpu.stepping;
		pt_cpu_errata(&config.errata, &config.cpu);
	}
	dec = pt_blk_alloc_decoder(&config);
	if (!dec)
		return -1;
	image = pt_blk_get_image(dec);
	for (size_t i = 0; i < bundle->nmappings; i++) {
		const struct bt_mapping *m = &bundle->mappings[i];

		if (m->prot & 4 /* PROT_EXEC */)
			pt_image_add_file(image, m->path, m->offset, m->size,
					  NULL, m->address);
	}
	pt_image_set_callback(image, read_pages, (void *) bundle);

	memset(n, 0, sizeof(*n));
	for (;;) {
		status = pt_blk_sync_forward(dec);
		if (status == -pte_eos)
			break;
		if (status < 0) {
			n->errors++;
			continue;
		}
		for (;;) {
			struct pt_block block;

			block.ninsn = 0;

			while (status & pts_event_pending) {
				struct pt_event event;

				status = pt_blk_event(dec, &event, sizeof(event));
				if (status < 0)
					break;
			}
			if (status < 0)
				break;
			status = pt_blk_next(dec, &block, sizeof(block));
			if (block.ninsn) {
				n->blocks++;
				n->insns += block.ninsn;
			}
			if (status < 0)
				break;
		}
		if (status == -pte_eos)
			break;
		n->errors++;
	}
	pt_blk_free_decoder(dec);
	return 0;
}

int main(int argc, char **argv)
{
	struct bt_bundle bundle;
	struct bt_diag diag;
	struct counts n;
	double best = 0;
	int reps = argc > 2 ? atoi(argv[2]) : 1;

	if (argc < 2 || reps < 1) {
		fprintf(stderr, "usage: blk_loop FILE [REPS]\n");
		return 2;
	}
	bt_diag_init(&diag);
	if (bt_bundle_load(&bundle, argv[1], &diag) < 0) {
		bt_diag_print(&diag, "blk_loop", stderr);
		return 1;
	}
	if (bundle.format != btf_pt) {
		fprintf(stderr, "blk_loop: %s is not a PT bundle\n", argv[1]);
		return 1;
	}
	for (int rep = 0; rep < reps; rep++) {
		double t = now();

		if (decode(&bundle, &n) < 0)
			return 1;
		t = now() - t;
		if (!rep || t < best)
			best = t;
	}
	printf("best=%.6f blocks=%lu insns=%lu errors=%lu\n", best, n.blocks,
	       n.insns, n.errors);
	bt_bundle_fini(&bundle);
	return 0;
}
