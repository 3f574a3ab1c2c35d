/* A post-mortem image: a crash bundle (ptstub record) seen as a stopped
   process.  Its threads' registers come from the core, its memory from
   the core, else the copied pages, else the files that were mapped.  */
#ifndef SRV_PM_IMAGE_H
#define SRV_PM_IMAGE_H

#include "btrace/ptbundle.h"

#include <stddef.h>
#include <stdint.h>

struct amd64_regs;

struct pm_thread {
	int32_t tid;
	int sig;                    /* host signal it stopped with, or 0 */
	struct amd64_regs *regs;    /* NULL: no registers in the core */
	const struct bt_thread *trace;   /* NULL: it was not traced */
	int traced;                 /* the client enabled btrace on it */
	int read_once;              /* "all" or "new" was read */
};

struct pm_image {
	struct bt_bundle bundle;
	struct pm_thread *threads;
	size_t nthreads;
	size_t crashed;             /* index of the thread to report */
	int *fds;                   /* per mapping, opened on first read */
};

/* Load the bundle FILE; *WHY says what is wrong (for the user).  */
int pm_image_load(struct pm_image *image, const char *file, char *why,
		  size_t why_len);
void pm_image_fini(struct pm_image *image);

struct pm_thread *pm_image_thread(struct pm_image *image, int32_t tid);

/* Read up to LEN bytes at ADDR: the count read (stopping at the first
   byte the image does not have), or -pse_fault for none.  */
long pm_image_read(struct pm_image *image, uint64_t addr, void *buf,
		   size_t len);

#endif
