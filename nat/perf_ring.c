#include "nat/perf_ring.h"
#include "common/ps_error.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}

int perf_ring_data(struct perf_ring *ring, const void *map, size_t map_len,
		   size_t page_size)
{
	const struct perf_event_mmap_page *pg = map;
	uint64_t offset, size;

	if (!map || !is_pow2(page_size) || map_len < page_size)
		return -pse_invalid;

	/* The kernel's pg->size stops short of these fields, so it cannot
	   say whether they exist; kernels without them leave them zero, and
	   a zero offset would point into the header itself.  */
	offset = pg->data_offset;
	size = pg->data_size;
	if (!offset) {
		offset = page_size;
		size = map_len - page_size;
	}

	if (offset < sizeof(*pg) || offset > map_len
	    || size > map_len - offset)
		return -pse_range;
	if (size && !is_pow2((size_t) size))
		return -pse_invalid;

	ring->base = (const uint8_t *) map + offset;
	ring->size = (size_t) size;
	return 0;
}

uint64_t perf_ring_data_head(const struct perf_event_mmap_page *pg)
{
	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

uint64_t perf_ring_aux_head(const struct perf_event_mmap_page *pg)
{
	return __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);
}

int perf_ring_copy(const struct perf_ring *ring, uint64_t head, void *out,
		   size_t len)
{
	size_t end, start, first;

	if (len > ring->size)
		return -pse_range;
	if (!len)
		return 0;

	end = (size_t) (head % ring->size);
	start = (end + ring->size - len) % ring->size;
	if (start < end) {
		memcpy(out, ring->base + start, len);
		return 0;
	}

	/* Wrapped (or exactly one full lap): the older part is at the end
	   of the ring, the newer part at its beginning.  */
	first = ring->size - start;
	memcpy(out, ring->base + start, first);
	memcpy((uint8_t *) out + first, ring->base, end);
	return 0;
}

size_t perf_ring_fill(const struct perf_ring *ring, uint64_t head)
{
	return head < ring->size ? (size_t) head : ring->size;
}

size_t perf_ring_fill_overwrite(const struct perf_ring *ring, uint64_t head)
{
	size_t pos;

	if (!ring->size)
		return 0;
	pos = (size_t) (head % ring->size);
	for (size_t i = pos; i < ring->size; i++)
		if (ring->base[i])
			return ring->size;
	return pos;
}

size_t perf_ring_pages(size_t bytes, size_t page_size)
{
	size_t pages, pow;

	if (!is_pow2(page_size))
		return 0;
	pages = bytes / page_size + (bytes % page_size != 0);
	if (!pages)
		pages = 1;
	for (pow = 1; pow < pages; pow <<= 1)
		if (pow > SIZE_MAX / 2 / page_size)
			return 0;
	return pow;
}

int perf_ring_next_record(const struct perf_ring *ring, uint64_t *pos,
			  uint64_t head, void *out, size_t max)
{
	struct perf_event_header hdr;
	uint64_t avail;
	int err;

	if (*pos > head)
		return -pse_invalid;
	avail = head - *pos;
	if (avail > ring->size)
		return -pse_range;
	if (!avail)
		return 0;
	if (avail < sizeof(hdr))
		return -pse_invalid;

	err = perf_ring_copy(ring, *pos + sizeof(hdr), &hdr, sizeof(hdr));
	if (err < 0)
		return err;
	if (hdr.size < sizeof(hdr) || hdr.size > avail)
		return -pse_invalid;

	if (max > hdr.size)
		max = hdr.size;
	/* Copy the record's first MAX bytes: they end MAX past its start.  */
	err = perf_ring_copy(ring, *pos + max, out, max);
	if (err < 0)
		return err;
	*pos += hdr.size;
	return hdr.size;
}

int perf_event_open_thread(struct perf_event_attr *attr, pid_t tid)
{
	long fd = syscall(SYS_perf_event_open, attr, tid, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -pse_io : (int) fd;
}

static const char paranoid_file[] = "/proc/sys/kernel/perf_event_paranoid";

int perf_event_paranoid_level(void)
{
	FILE *file = fopen(paranoid_file, "re");
	int level, found;

	if (!file)
		return -pse_io;
	found = fscanf(file, "%d", &level);
	fclose(file);
	if (found != 1) {
		errno = EINVAL;
		return -pse_io;
	}
	return level;
}

int perf_event_explain(int errnum, int short_form, char *reason,
		       size_t len)
{
	int denied = errnum == EPERM || errnum == EACCES;
	int level = denied ? perf_event_paranoid_level() : 0;
	int file_errno = errno;

	if (short_form) {
		if (denied && level != -pse_io)
			snprintf(reason, len,
				 "perf_event_open: %s (perf_event_paranoid=%d)",
				 strerror(errnum), level);
		else
			snprintf(reason, len, "perf_event_open: %s",
				 strerror(errnum));
	} else if (denied && level == -pse_io) {
		snprintf(reason, len, "Failed to open %s (%s).  Your system "
			 "does not support process recording.", paranoid_file,
			 strerror(file_errno));
	} else if (denied && level > 2) {
		snprintf(reason, len, "You do not have permission to record "
			 "the process.  Try setting %s to 2 or less.",
			 paranoid_file);
	} else {
		snprintf(reason, len, "Failed to start recording: %s",
			 strerror(errnum));
	}

	if (denied)
		return -pse_perm;
	if (errnum == ENOENT || errnum == ENODEV || errnum == EOPNOTSUPP)
		return -pse_unsupported;
	if (errnum == ENOMEM)
		return -pse_nomem;
	return -pse_io;
}
