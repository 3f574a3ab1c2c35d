#include "server/srv_pm_image.h"
#include "nat/amd64_regs_image.h"
#include "common/ps_error.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pm_image_fini(struct pm_image *image)
{
	for (size_t i = 0; i < image->nthreads; i++)
		free(image->threads[i].regs);
	for (size_t i = 0; image->fds && i < image->bundle.nmappings; i++)
		if (image->fds[i] >= 0)
			close(image->fds[i]);
	free(image->fds);
	free(image->threads);
	bt_bundle_fini(&image->bundle);
	memset(image, 0, sizeof(*image));
}

int pm_image_load(struct pm_image *image, const char *file, char *why,
		  size_t why_len)
{
	struct bt_bundle *b = &image->bundle;
	struct bt_diag diag;
	int err;

	memset(image, 0, sizeof(*image));
	bt_diag_init(&diag);
	err = bt_bundle_load(b, file, &diag);
	if (err < 0) {
		snprintf(why, why_len, "%s", diag.text);
		return -pse_invalid;
	}
	if (!b->ncore_threads) {
		snprintf(why, why_len, "the bundle holds no core (only a crash "
			 "bundle of `ptstub record` has one)");
		pm_image_fini(image);
		return -pse_invalid;
	}
	image->threads = calloc(b->ncore_threads, sizeof(*image->threads));
	image->fds = malloc((b->nmappings + 1) * sizeof(*image->fds));
	if (!image->threads || !image->fds) {
		pm_image_fini(image);
		return -pse_nomem;
	}
	for (size_t i = 0; i < b->nmappings; i++)
		image->fds[i] = -1;
	for (size_t i = 0; i < b->ncore_threads; i++) {
		const struct bt_core_thread *c = &b->core_threads[i];
		struct pm_thread *t = &image->threads[image->nthreads++];

		t->tid = c->tid;
		t->sig = c->signal;
		t->regs = malloc(sizeof(*t->regs));
		if (!t->regs || amd64_regs_image_read(t->regs, c->regs,
						      c->regs_size) < 0) {
			snprintf(why, why_len, "thread %d's registers are not "
				 "an amd64 register image", (int) c->tid);
			pm_image_fini(image);
			return -pse_invalid;
		}
		for (size_t k = 0; k < b->nthreads; k++)
			if (b->threads[k].tid == c->tid)
				t->trace = &b->threads[k];
		if (c->signal && !image->threads[image->crashed].sig)
			image->crashed = i;
		if (b->trigger.tid == c->tid)
			image->crashed = i;
	}
	return 0;
}

struct pm_thread *pm_image_thread(struct pm_image *image, int32_t tid)
{
	for (size_t i = 0; i < image->nthreads; i++)
		if (image->threads[i].tid == tid)
			return &image->threads[i];
	return NULL;
}

/* The bytes at ADDR from one source, and how many there are.  */
static long pm_read_one(struct pm_image *image, uint64_t addr, void *buf,
			size_t len)
{
	const struct bt_bundle *b = &image->bundle;

	for (size_t i = 0; i < b->ncore_pages; i++) {
		const struct bt_pages *p = &b->core_pages[i];

		if (addr >= p->address && addr - p->address < p->size) {
			size_t n = p->size - (addr - p->address);

			n = n < len ? n : len;
			memcpy(buf, p->bytes + (addr - p->address), n);
			return (long) n;
		}
	}
	for (size_t i = 0; i < b->npages; i++) {
		const struct bt_pages *p = &b->pages[i];

		if (addr >= p->address && addr - p->address < p->size) {
			size_t n = p->size - (addr - p->address);

			n = n < len ? n : len;
			memcpy(buf, p->bytes + (addr - p->address), n);
			return (long) n;
		}
	}
	for (size_t i = 0; i < b->nmappings; i++) {
		const struct bt_mapping *m = &b->mappings[i];
		size_t n;
		ssize_t got;

		if (addr < m->address || addr - m->address >= m->size)
			continue;
		if (image->fds[i] < 0)
			image->fds[i] = open(m->path, O_RDONLY | O_CLOEXEC);
		if (image->fds[i] < 0)
			return -pse_fault;
		n = m->size - (addr - m->address);
		n = n < len ? n : len;
		got = pread(image->fds[i], buf, n,
			    (off_t) (m->offset + (addr - m->address)));
		return got > 0 ? (long) got : -pse_fault;
	}
	return -pse_fault;
}

long pm_image_read(struct pm_image *image, uint64_t addr, void *buf,
		   size_t len)
{
	size_t done = 0;

	while (done < len) {
		long n = pm_read_one(image, addr + done, (char *) buf + done,
				     len - done);

		if (n <= 0)
			break;
		done += (size_t) n;
	}
	return done ? (long) done : -pse_fault;
}
