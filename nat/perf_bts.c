#include "nat/perf_bts.h"
#include "nat/cpu_info.h"
#include "common/ps_error.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int perf_bts_is_kernel(uint64_t addr, uint64_t kernel_start)
{
	if (kernel_start)
		return addr >= kernel_start;
	return (addr >> 63) != 0;
}

uint64_t perf_bts_kernel_start(const char *kallsyms)
{
	FILE *file = fopen(kallsyms, "re");
	char line[512], symbol[8];
	uint64_t addr, start = 0;

	if (!file)
		return 0;
	while (fgets(line, sizeof(line), file)) {
		if (sscanf(line, "%" SCNx64 " %*[tT] %7s", &addr, symbol) != 2)
			continue;
		if (strcmp(symbol, "_text") == 0) {
			start = addr;
			break;
		}
	}
	fclose(file);
	return start;
}

static void reverse(struct trace_block *block, size_t n)
{
	for (size_t i = 0; i < n / 2; i++) {
		struct trace_block tmp = block[i];

		block[i] = block[n - 1 - i];
		block[n - 1 - i] = tmp;
	}
}

int perf_bts_blocks_from_ring(const struct perf_ring *ring, uint64_t head,
			      size_t len, uint64_t pc, uint64_t kernel_start,
			      int keep_oldest, struct trace_blocks *out,
			      int *incomplete)
{
	const size_t rec = sizeof(struct perf_bts_sample);
	size_t first = out->len, count;
	uint64_t end = pc;
	int err;

	*incomplete = 0;
	if (len > ring->size || len > head)
		return -pse_range;

	/* Whole samples only, walking back from the newest: the oldest
	   bytes may be the tail of a sample that was overwritten.  */
	count = len / rec;
	err = trace_blocks_reserve(out, count + 1);
	if (err < 0)
		return err;

	for (size_t i = 0; i < count; i++) {
		struct perf_bts_sample sample;

		err = perf_ring_copy(ring, head - i * rec, &sample, rec);
		if (err < 0)
			return err;
		if (sample.header.type != PERF_RECORD_SAMPLE
		    || sample.header.size != rec) {
			*incomplete = 1;
			break;
		}
		/* The hardware reports branches from the kernel back to user
		   space; those into the kernel are suppressed.  Drop both.  */
		if (perf_bts_is_kernel(sample.from, kernel_start))
			continue;
		trace_blocks_push(out, sample.to, end);
		end = sample.from;
	}
	if (keep_oldest)
		trace_blocks_push(out, 0, end);

	reverse(out->block + first, out->len - first);
	return 0;
}

void perf_bts_init(struct perf_bts *bts)
{
	memset(bts, 0, sizeof(*bts));
	bts->fd = -1;
}

int perf_bts_attach(struct perf_bts *bts, void *map, size_t map_len,
		    size_t page_size)
{
	struct perf_ring ring;
	int err;

	err = perf_ring_data(&ring, map, map_len, page_size);
	if (err < 0)
		return err;
	if (!ring.size)
		return -pse_invalid;
	perf_bts_init(bts);
	bts->map = map;
	bts->map_len = map_len;
	bts->header = map;
	bts->data = ring;
	return 0;
}

static void bts_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	attr->config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->exclude_idle = 1;
}

int perf_bts_probe(char *reason, size_t len)
{
	struct perf_event_attr attr;
	struct trace_cpu cpu;
	int fd, err, errnum;

	if (cpu_info_read(&cpu) == 0) {
		err = cpu_info_bts_allowed(&cpu, reason, len);
		if (err < 0)
			return err;
	}

	bts_attr(&attr);
	attr.disabled = 1;
	fd = perf_event_open_thread(&attr, 0);
	if (fd >= 0) {
		close(fd);
		if (len)
			reason[0] = '\0';
		return 0;
	}

	errnum = errno;
	err = perf_event_explain(errnum, 1, reason, len);
	if (errnum == ENOENT || errnum == ENODEV || errnum == EOPNOTSUPP) {
		snprintf(reason, len, "no branch-instructions hardware event "
			 "(perf_event_open: %s)", strerror(errnum));
		return -pse_unsupported;
	}
	return err;
}

/* Map the user page plus PAGES data pages, halving PAGES until the kernel
   agrees, as GDB does.  */
static int map_data(struct perf_bts *bts, size_t pages, size_t page_size)
{
	int errnum = ENOMEM;

	for (; pages > 0; pages >>= 1) {
		uint64_t size = (uint64_t) pages * page_size;
		void *map;

		if (size > UINT_MAX)
			continue;
		map = mmap(NULL, (size_t) size + page_size, PROT_READ,
			   MAP_SHARED, bts->fd, 0);
		if (map != MAP_FAILED) {
			bts->map = map;
			bts->map_len = (size_t) size + page_size;
			return 0;
		}
		errnum = errno;
	}
	snprintf(bts->reason, sizeof(bts->reason),
		 "Failed to map trace buffer: %s.", strerror(errnum));
	return errnum == ENOMEM ? -pse_nomem : -pse_io;
}

/* Undo what open did, keeping bts->reason for the caller.  */
static void release(struct perf_bts *bts)
{
	if (bts->owned) {
		if (bts->map)
			munmap(bts->map, bts->map_len);
		if (bts->fd >= 0)
			close(bts->fd);
	}
	bts->fd = -1;
	bts->map = NULL;
	bts->map_len = 0;
	bts->header = NULL;
	bts->data.base = NULL;
	bts->data.size = 0;
	bts->last_head = 0;
	bts->owned = 0;
}

int perf_bts_open(struct perf_bts *bts, pid_t tid, size_t size)
{
	struct perf_event_attr attr;
	struct trace_cpu cpu;
	size_t page_size = (size_t) sysconf(_SC_PAGESIZE), pages;
	char why[128];
	int err;

	perf_bts_init(bts);
	if (cpu_info_read(&cpu) == 0
	    && cpu_info_bts_allowed(&cpu, why, sizeof(why)) < 0) {
		snprintf(bts->reason, sizeof(bts->reason),
			 "BTS support has been disabled for the target cpu.");
		return -pse_unsupported;
	}

	bts_attr(&attr);
	bts->fd = perf_event_open_thread(&attr, tid);
	if (bts->fd < 0) {
		err = perf_event_explain(errno, 0, bts->reason,
					 sizeof(bts->reason));
		bts->fd = -1;
		return err;
	}
	bts->owned = 1;

	pages = perf_ring_pages(size, page_size);
	err = pages ? map_data(bts, pages, page_size) : -pse_range;
	if (err == 0) {
		bts->header = bts->map;
		err = perf_ring_data(&bts->data, bts->map, bts->map_len,
				     page_size);
		if (err == 0 && !bts->data.size)
			err = -pse_invalid;
		if (err < 0)
			snprintf(bts->reason, sizeof(bts->reason),
				 "Failed to determine trace buffer size.");
	} else if (!pages) {
		snprintf(bts->reason, sizeof(bts->reason),
			 "Failed to map trace buffer: %s.", strerror(ENOMEM));
	}
	if (err < 0) {
		release(bts);
		return err;
	}

	bts->kernel_start = perf_bts_kernel_start("/proc/kallsyms");
	return 0;
}

int perf_bts_read(struct perf_bts *bts, struct trace_blocks *out,
		  enum perf_bts_read_type type, uint64_t pc)
{
	size_t first = out->len, len;
	uint64_t head = 0;
	int err = 0;

	if (!bts->header)
		return -pse_notfound;
	if (type == perf_bts_read_new
	    && perf_ring_data_head(bts->header) == bts->last_head)
		return 0;

	/* The thread has stopped, but on another cpu the kernel may still
	   be writing its last samples: read again if the head moved.  */
	for (int tries = 0; tries < 5; tries++) {
		head = perf_ring_data_head(bts->header);
		out->len = first;

		if (type == perf_bts_read_delta) {
			if (head < bts->last_head
			    || head - bts->last_head > bts->data.size) {
				snprintf(bts->reason, sizeof(bts->reason),
					 "Overflow.");
				return -pse_nospace;
			}
			len = (size_t) (head - bts->last_head);
		} else {
			len = perf_ring_fill(&bts->data, head);
		}

		err = perf_bts_blocks_from_ring(&bts->data, head, len, pc,
						bts->kernel_start,
						type == perf_bts_read_delta,
						out, &bts->incomplete);
		if (err < 0)
			return err;
		if (head == perf_ring_data_head(bts->header))
			break;
	}
	bts->last_head = head;
	return 0;
}

void perf_bts_status(const struct perf_bts *bts, struct perf_ring_status *st)
{
	uint64_t head;

	memset(st, 0, sizeof(*st));
	if (!bts->header)
		return;
	head = perf_ring_data_head(bts->header);
	st->size = bts->data.size;
	st->held = perf_ring_fill(&bts->data, head);
	st->wrapped = head > bts->data.size;
}

size_t perf_bts_size(const struct perf_bts *bts)
{
	return bts->header ? bts->data.size : 0;
}

void perf_bts_close(struct perf_bts *bts)
{
	release(bts);
	bts->reason[0] = '\0';
}
