#include "nat/perf_pt.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int perf_format_parse(const char *text, struct perf_format_field *field)
{
	unsigned long lo, hi;
	char *end;

	if (strncmp(text, "config:", 7) != 0)
		return -pse_invalid;
	text += 7;
	if (*text < '0' || *text > '9')
		return -pse_invalid;
	lo = strtoul(text, &end, 10);
	hi = lo;
	if (*end == '-') {
		text = end + 1;
		if (*text < '0' || *text > '9')
			return -pse_invalid;
		hi = strtoul(text, &end, 10);
	}
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end || lo > hi || hi > 63)
		return -pse_invalid;

	field->lo = (unsigned int) lo;
	field->hi = (unsigned int) hi;
	return 0;
}

int perf_format_set(const struct perf_format_field *field, uint64_t value,
		    uint64_t *config)
{
	unsigned int width = field->hi - field->lo + 1;
	uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;

	if (value & ~mask)
		return -pse_range;
	*config &= ~(mask << field->lo);
	*config |= value << field->lo;
	return 0;
}

/* Read the first line of PATH into BUF; -pse_io with errno set.  */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *file = fopen(path, "re");
	int ok;

	if (!file)
		return -pse_io;
	ok = fgets(buf, (int) len, file) != NULL;
	fclose(file);
	if (!ok) {
		errno = EINVAL;
		return -pse_io;
	}
	return 0;
}

int perf_format_read(const char *pmu_dir, const char *name,
		     struct perf_format_field *field)
{
	char path[PATH_MAX], text[64];

	if ((size_t) snprintf(path, sizeof(path), "%s/format/%s", pmu_dir,
			      name) >= sizeof(path))
		return -pse_toolong;
	if (read_line(path, text, sizeof(text)) < 0)
		return errno == ENOENT ? -pse_notfound : -pse_io;
	return perf_format_parse(text, field);
}

/* The PMU's event type from PMU_DIR/type.  On failure REASON gets
   gdbserver's text (SHORT_FORM 0) or a one-liner.  */
static int read_type(const char *pmu_dir, int short_form, char *reason,
		     size_t len)
{
	char path[PATH_MAX], text[32], *end = text;
	long type;
	int err;

	snprintf(path, sizeof(path), "%s/type", pmu_dir);
	err = read_line(path, text, sizeof(text));
	if (err < 0 && errno != EINVAL) {
		int errnum = errno;
		int denied = errnum == EACCES || errnum == EPERM
			|| errnum == EFAULT;
		int missing = errnum == ENOENT || errnum == ENOTDIR;

		if (short_form)
			snprintf(reason, len, "cannot read %s: %s", path,
				 strerror(errnum));
		else if (denied)
			snprintf(reason, len, "Failed to open %s (%s).  You do "
				 "not have permission to use Intel PT.", path,
				 strerror(errnum));
		else if (missing)
			snprintf(reason, len, "Failed to open %s (%s).  Your "
				 "system does not support Intel PT.", path,
				 strerror(errnum));
		else
			snprintf(reason, len, "Failed to open %s: %s.", path,
				 strerror(errnum));
		return denied ? -pse_perm
			: missing ? -pse_unsupported : -pse_io;
	}

	type = err < 0 ? -1 : strtol(text, &end, 10);
	if (type < 0 || type > INT_MAX || end == text) {
		snprintf(reason, len, "Failed to read the PT event type from "
			 "%s.", path);
		return -pse_invalid;
	}
	return (int) type;
}

/* The attributes GDB 13.1 uses: no config bits at all, so the kernel's
   legacy defaults apply (BranchEn forced on, TSC/MTC/CYC off, return
   compression on).  */
static void pt_attr(struct perf_event_attr *attr, int type)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = (uint32_t) type;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->exclude_idle = 1;
}

int perf_pt_probe_at(const char *pmu_dir, char *reason, size_t len)
{
	struct perf_event_attr attr;
	struct stat st;
	int type, fd;

	if (stat(pmu_dir, &st) < 0) {
		snprintf(reason, len, "no intel_pt PMU (%s missing)", pmu_dir);
		return -pse_unsupported;
	}
	type = read_type(pmu_dir, 1, reason, len);
	if (type < 0)
		return type;

	/* Open a disabled event on ourselves: it checks the type and the
	   permissions without tracing anything.  */
	pt_attr(&attr, type);
	attr.disabled = 1;
	fd = perf_event_open_thread(&attr, 0);
	if (fd < 0)
		return perf_event_explain(errno, 1, reason, len);
	close(fd);
	if (len)
		reason[0] = '\0';
	return 0;
}

int perf_pt_probe(char *reason, size_t len)
{
	return perf_pt_probe_at(PERF_PT_PMU_DIR, reason, len);
}

static void release(struct perf_pt *pt);

void perf_pt_init(struct perf_pt *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->fd = -1;
}

int perf_pt_attach(struct perf_pt *pt, struct perf_event_mmap_page *header,
		   const void *aux, size_t aux_size)
{
	if (!header || !aux || !aux_size || (aux_size & (aux_size - 1)))
		return -pse_invalid;
	perf_pt_init(pt);
	pt->header = header;
	pt->aux.base = aux;
	pt->aux.size = aux_size;
	return 0;
}

/* Map the AUX area: PAGES pages, halved until the kernel agrees, as GDB
   does (the locked-memory limit is the usual refusal).  */
static int map_aux(struct perf_pt *pt, size_t pages)
{
	int errnum = ENOMEM;

	for (; pages > 0; pages >>= 1) {
		uint64_t size = (uint64_t) pages * pt->page_size;
		void *aux;

		/* btrace-conf reports the size as 32 bits.  */
		if (size > UINT_MAX)
			continue;
		pt->header->aux_size = size;
		aux = mmap(NULL, (size_t) size, PROT_READ, MAP_SHARED, pt->fd,
			   (off_t) pt->header->aux_offset);
		if (aux != MAP_FAILED) {
			pt->aux.base = aux;
			pt->aux.size = (size_t) size;
			return 0;
		}
		errnum = errno;
	}
	snprintf(pt->reason, sizeof(pt->reason),
		 "Failed to map trace buffer: %s.", strerror(errnum));
	return errnum == ENOMEM ? -pse_nomem : -pse_io;
}

int perf_pt_open(struct perf_pt *pt, pid_t tid, size_t size)
{
	struct perf_event_attr attr;
	size_t pages;
	void *map;
	int type, err;

	perf_pt_init(pt);
	pt->page_size = (size_t) sysconf(_SC_PAGESIZE);

	type = read_type(PERF_PT_PMU_DIR, 0, pt->reason, sizeof(pt->reason));
	if (type < 0)
		return type;

	pt_attr(&attr, type);
	pt->fd = perf_event_open_thread(&attr, tid);
	if (pt->fd < 0) {
		err = perf_event_explain(errno, 0, pt->reason,
					 sizeof(pt->reason));
		pt->fd = -1;
		return err;
	}
	pt->owned = 1;

	/* Only the user page: PT's side-band records are not needed, and
	   a zero-page data area is what GDB uses too.  It must be writable
	   to set aux_offset and aux_size.  */
	map = mmap(NULL, pt->page_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   pt->fd, 0);
	if (map == MAP_FAILED) {
		snprintf(pt->reason, sizeof(pt->reason),
			 "Failed to map trace user page: %s.", strerror(errno));
		err = errno == ENOMEM ? -pse_nomem : -pse_io;
		release(pt);
		return err;
	}
	pt->header = map;
	pt->header_len = pt->page_size;
	pt->header->aux_offset = pt->header->data_offset
		+ pt->header->data_size;

	pages = perf_ring_pages(size, pt->page_size);
	err = pages ? map_aux(pt, pages) : -pse_range;
	if (err < 0) {
		if (!pages)
			snprintf(pt->reason, sizeof(pt->reason),
				 "Failed to map trace buffer: %s.",
				 strerror(ENOMEM));
		release(pt);
		return err;
	}
	return 0;
}

int perf_pt_read(struct perf_pt *pt, struct ps_buf *out, int only_new)
{
	uint64_t head;
	size_t held;
	int err;

	if (!pt->header)
		return -pse_notfound;
	head = perf_ring_aux_head(pt->header);
	if (only_new && head == pt->last_head)
		return 0;

	held = perf_ring_fill_overwrite(&pt->aux, head);
	err = ps_buf_reserve(out, held);
	if (err < 0)
		return err;
	err = perf_ring_copy(&pt->aux, head, out->data + out->len, held);
	if (err < 0)
		return err;
	out->len += held;
	out->data[out->len] = '\0';
	pt->last_head = head;
	return 0;
}

void perf_pt_status(const struct perf_pt *pt, struct perf_ring_status *st)
{
	memset(st, 0, sizeof(*st));
	if (!pt->header)
		return;
	st->size = pt->aux.size;
	st->held = perf_ring_fill_overwrite(&pt->aux,
					    perf_ring_aux_head(pt->header));
	st->wrapped = st->size && st->held == st->size;
}

size_t perf_pt_size(const struct perf_pt *pt)
{
	return pt->header ? pt->aux.size : 0;
}

/* Undo what open did, keeping pt->reason for the caller.  */
static void release(struct perf_pt *pt)
{
	if (pt->owned) {
		if (pt->aux.base)
			munmap((void *) pt->aux.base, pt->aux.size);
		if (pt->header)
			munmap(pt->header, pt->header_len);
		if (pt->fd >= 0)
			close(pt->fd);
	}
	pt->fd = -1;
	pt->header = NULL;
	pt->header_len = 0;
	pt->aux.base = NULL;
	pt->aux.size = 0;
	pt->last_head = 0;
	pt->owned = 0;
}

void perf_pt_close(struct perf_pt *pt)
{
	release(pt);
	pt->reason[0] = '\0';
}
