/* perf ring arithmetic on synthetic perf_event_mmap_page + data areas.  */
#include "nat/perf_ring.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

/* The byte a synthetic producer writes at stream position POS: never
   zero, so fills can be told from the kernel's zeroed pages.  */
static uint8_t stream_byte(uint64_t pos)
{
	uint64_t x = pos * 0x9e3779b97f4a7c15ull;

	return (uint8_t) ((x >> 56) % 255 + 1);
}

/* Write stream bytes [from, to) into RING the way the kernel does.  */
static void produce(uint8_t *ring, size_t size, uint64_t from, uint64_t to)
{
	for (uint64_t pos = from; pos < to; pos++)
		ring[pos % size] = stream_byte(pos);
}

static void *alloc_map(size_t len)
{
	/* aligned_alloc wants a multiple of the alignment.  */
	void *map = aligned_alloc(PAGE, (len + PAGE - 1) / PAGE * PAGE);

	cr_assert_not_null(map);
	memset(map, 0, len);
	return map;
}

static void check_newest(const struct perf_ring *ring, uint64_t head,
			 size_t len)
{
	uint8_t *out = malloc(len ? len : 1);

	cr_assert_not_null(out);
	cr_assert_eq(perf_ring_copy(ring, head, out, len), 0);
	for (size_t i = 0; i < len; i++)
		cr_assert_eq(out[i], stream_byte(head - len + i),
			     "byte %zu of %zu ending at %llu", i, len,
			     (unsigned long long) head);
	free(out);
}

Test(perf_ring, data_area_from_header)
{
	uint8_t *map = alloc_map(3 * PAGE);
	struct perf_event_mmap_page *pg = (void *) map;
	struct perf_ring ring;

	pg->data_offset = PAGE;
	pg->data_size = 2 * PAGE;
	cr_assert_eq(perf_ring_data(&ring, map, 3 * PAGE, PAGE), 0);
	cr_assert_eq(ring.base, map + PAGE);
	cr_assert_eq(ring.size, 2 * PAGE);
	free(map);
}

Test(perf_ring, data_offset_not_one_page)
{
	uint8_t *map = alloc_map(4 * PAGE);
	struct perf_event_mmap_page *pg = (void *) map;
	struct perf_ring ring;

	pg->data_offset = 2 * PAGE;
	pg->data_size = 2 * PAGE;
	cr_assert_eq(perf_ring_data(&ring, map, 4 * PAGE, PAGE), 0);
	cr_assert_eq(ring.base, map + 2 * PAGE);
	cr_assert_eq(ring.size, 2 * PAGE);

	/* A copy reads from the offset, not from the page after the header. */
	produce(map + 2 * PAGE, ring.size, 0, 5000);
	check_newest(&ring, 5000, 5000);
	free(map);
}

Test(perf_ring, old_kernel_without_data_offset)
{
	uint8_t *map = alloc_map(5 * PAGE);
	struct perf_ring ring;

	cr_assert_eq(perf_ring_data(&ring, map, 5 * PAGE, PAGE), 0);
	cr_assert_eq(ring.base, map + PAGE);
	cr_assert_eq(ring.size, 4 * PAGE);
	free(map);
}

Test(perf_ring, bad_headers_are_refused)
{
	uint8_t *map = alloc_map(3 * PAGE);
	struct perf_event_mmap_page *pg = (void *) map;
	struct perf_ring ring;

	pg->data_offset = PAGE;
	pg->data_size = 3 * PAGE;      /* past the mapping */
	cr_assert_eq(perf_ring_data(&ring, map, 3 * PAGE, PAGE), -pse_range);
	pg->data_size = PAGE + 8;      /* not a power of two */
	cr_assert_eq(perf_ring_data(&ring, map, 3 * PAGE, PAGE),
		     -pse_invalid);
	pg->data_offset = 64;          /* inside the header */
	pg->data_size = 64;
	cr_assert_eq(perf_ring_data(&ring, map, 3 * PAGE, PAGE), -pse_range);
	cr_assert_eq(perf_ring_data(&ring, NULL, 3 * PAGE, PAGE),
		     -pse_invalid);
	free(map);
}

Test(perf_ring, heads_are_read_from_the_page)
{
	struct perf_event_mmap_page *pg = alloc_map(PAGE);

	pg->data_head = 123456789;
	pg->aux_head = 987654;
	cr_assert_eq(perf_ring_data_head(pg), 123456789);
	cr_assert_eq(perf_ring_aux_head(pg), 987654);
	free(pg);
}

Test(perf_ring, copy_partial_empty_wrapped_and_far)
{
	const size_t size = 2 * PAGE;
	uint8_t *buf = alloc_map(size);
	struct perf_ring ring = { buf, size };
	uint8_t byte;

	/* Empty: nothing to copy, and asking for nothing is fine.  */
	cr_assert_eq(perf_ring_fill(&ring, 0), 0);
	check_newest(&ring, 0, 0);

	/* Partial: the ring holds exactly what was written.  */
	produce(buf, size, 0, 1000);
	cr_assert_eq(perf_ring_fill(&ring, 1000), 1000);
	check_newest(&ring, 1000, 1000);
	check_newest(&ring, 1000, 10);

	/* Exactly full, then wrapped by part of a lap.  */
	produce(buf, size, 1000, size);
	cr_assert_eq(perf_ring_fill(&ring, size), size);
	check_newest(&ring, size, size);
	produce(buf, size, size, size + 700);
	cr_assert_eq(perf_ring_fill(&ring, size + 700), size);
	check_newest(&ring, size + 700, size);
	check_newest(&ring, size + 700, 700);
	check_newest(&ring, size + 700, 701);

	/* A head many laps on.  */
	uint64_t far = 37 * (uint64_t) size + 5;

	produce(buf, size, far - size, far);
	cr_assert_eq(perf_ring_fill(&ring, far), size);
	check_newest(&ring, far, size);
	check_newest(&ring, far, 3);

	/* Never more than the ring: it is refused before anything is copied. */
	cr_assert_eq(perf_ring_copy(&ring, far, &byte, size + 1), -pse_range);
	free(buf);
}

Test(perf_ring, overwrite_fill_tells_a_lap_from_zeroes)
{
	const size_t size = PAGE;
	uint8_t *buf = alloc_map(size);
	struct perf_ring ring = { buf, size };

	cr_assert_eq(perf_ring_fill_overwrite(&ring, 0), 0);

	produce(buf, size, 0, 300);
	cr_assert_eq(perf_ring_fill_overwrite(&ring, 300), 300);

	/* Wrapped: the head is inside the ring again, the rest is older.  */
	produce(buf, size, 300, size + 100);
	cr_assert_eq(perf_ring_fill_overwrite(&ring, 100), size);
	check_newest(&ring, size + 100, size);
	/* A free-running head gives the same answer.  */
	cr_assert_eq(perf_ring_fill_overwrite(&ring, size + 100), size);

	/* A lap that ended exactly at the ring's end.  */
	produce(buf, size, size + 100, 2 * size);
	cr_assert_eq(perf_ring_fill_overwrite(&ring, 0), size);
	free(buf);
}

Test(perf_ring, pages_round_up_to_a_power_of_two)
{
	struct { size_t bytes, pages; } cases[] = {
		{ 0, 1 }, { 1, 1 }, { PAGE, 1 }, { PAGE + 1, 2 },
		{ 3 * PAGE, 4 }, { 5 * PAGE - 1, 8 }, { 64 * PAGE, 64 },
		{ 64 * PAGE + 1, 128 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t pages = perf_ring_pages(cases[i].bytes, PAGE);

		cr_assert_eq(pages, cases[i].pages, "%zu bytes", cases[i].bytes);
		/* Enough and a power of two, whatever the table says.  */
		cr_assert_geq(pages * PAGE, cases[i].bytes);
		cr_assert_eq(pages & (pages - 1), 0);
	}
	cr_assert_eq(perf_ring_pages(100, 3000), 0);
	cr_assert_eq(perf_ring_pages(SIZE_MAX, PAGE), 0);
}

/* Append a record of TYPE and SIZE bytes (payload: stream bytes) at
   *HEAD, wrapping, and return where it started.  */
static uint64_t put_record(uint8_t *ring, size_t rsize, uint64_t *head,
			   uint32_t type, uint16_t size)
{
	struct perf_event_header hdr = { .type = type, .misc = 0,
					 .size = size };
	uint64_t start = *head;
	const uint8_t *h = (const void *) &hdr;

	for (size_t i = 0; i < size; i++) {
		uint8_t b = i < sizeof(hdr) ? h[i] : stream_byte(start + i);

		ring[(start + i) % rsize] = b;
	}
	*head += size;
	return start;
}

Test(perf_ring, records_parse_across_the_wrap)
{
	const size_t size = 256;
	uint8_t *buf = alloc_map(size);
	struct perf_ring ring = { buf, size };
	uint16_t sizes[] = { 24, 40, 16, 64, 24, 32, 24 };
	size_t n = sizeof(sizes) / sizeof(sizes[0]);
	uint64_t head = 0, starts[16], pos;
	uint8_t out[64];
	int straddled = 0;

	/* Skip ahead so the records cross the ring's end.  */
	head = 3 * size + 100;
	for (size_t i = 0; i < n; i++) {
		starts[i] = put_record(buf, size, &head, PERF_RECORD_SAMPLE + i,
				       sizes[i]);
		if (starts[i] / size != (starts[i] + sizes[i] - 1) / size)
			straddled = 1;
	}
	cr_assert(straddled, "the test must put a record across the wrap");
	cr_assert_leq(head - starts[0], size);

	pos = starts[0];
	for (size_t i = 0; i < n; i++) {
		struct perf_event_header hdr;
		int got = perf_ring_next_record(&ring, &pos, head, out,
						sizeof(out));

		cr_assert_eq(got, sizes[i]);
		memcpy(&hdr, out, sizeof(hdr));
		cr_assert_eq(hdr.type, PERF_RECORD_SAMPLE + i);
		for (size_t b = sizeof(hdr); b < sizes[i]; b++)
			cr_assert_eq(out[b], stream_byte(starts[i] + b));
	}
	cr_assert_eq(perf_ring_next_record(&ring, &pos, head, out,
					   sizeof(out)), 0);

	/* A cut copy still advances by the whole record.  */
	pos = starts[1];
	cr_assert_eq(perf_ring_next_record(&ring, &pos, head, out, 8),
		     sizes[1]);
	cr_assert_eq(pos, starts[2]);

	/* Overwritten: older than one ring behind the head.  */
	pos = head - size - 8;
	cr_assert_eq(perf_ring_next_record(&ring, &pos, head, out,
					   sizeof(out)), -pse_range);
	free(buf);
}

Test(perf_ring, malformed_records_are_refused)
{
	const size_t size = 128;
	uint8_t *buf = alloc_map(size);
	struct perf_ring ring = { buf, size };
	uint64_t head = 0, pos = 0;
	uint8_t out[32];

	put_record(buf, size, &head, PERF_RECORD_SAMPLE, 24);
	/* The record claims more than was written.  */
	cr_assert_eq(perf_ring_next_record(&ring, &pos, 20, out, sizeof(out)),
		     -pse_invalid);
	/* A size smaller than the header itself.  */
	((struct perf_event_header *) buf)->size = 4;
	cr_assert_eq(perf_ring_next_record(&ring, &pos, head, out,
					   sizeof(out)), -pse_invalid);
	cr_assert_eq(pos, 0);
	free(buf);
}

Test(perf_ring, explain_gives_the_reason)
{
	char reason[256], expect[256];
	int level = perf_event_paranoid_level();

	cr_assert_eq(perf_event_explain(ENOENT, 1, reason, sizeof(reason)),
		     -pse_unsupported);
	snprintf(expect, sizeof(expect), "perf_event_open: %s",
		 strerror(ENOENT));
	cr_assert_str_eq(reason, expect);

	cr_assert_eq(perf_event_explain(ENOENT, 0, reason, sizeof(reason)),
		     -pse_unsupported);
	snprintf(expect, sizeof(expect), "Failed to start recording: %s",
		 strerror(ENOENT));
	cr_assert_str_eq(reason, expect);

	cr_assert_eq(perf_event_explain(EACCES, 1, reason, sizeof(reason)),
		     -pse_perm);
	if (level >= 0) {
		snprintf(expect, sizeof(expect), "perf_event_open: %s "
			 "(perf_event_paranoid=%d)", strerror(EACCES), level);
		cr_assert_str_eq(reason, expect);

		perf_event_explain(EPERM, 0, reason, sizeof(reason));
		if (level > 2)
			cr_assert(strstr(reason, "Try setting "
					 "/proc/sys/kernel/perf_event_paranoid"
					 " to 2 or less."));
		else
			cr_assert(strstr(reason, "Failed to start recording"));
	} else {
		cr_assert(strstr(reason, "perf_event_open: "));
	}
}

Test(perf_ring, open_of_a_bogus_event_fails_with_errno)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = 0x7ffffff0;   /* no PMU has this type */
	attr.disabled = 1;
	errno = 0;
	cr_assert_eq(perf_event_open_thread(&attr, 0), -pse_io);
	cr_assert_neq(errno, 0);
}

/* The running kernel's ring: a software event (page faults) that every
   kernel has, mapped writable so the records can be walked forward.  */
Test(perf_ring, real_kernel_records_walk_forward)
{
	struct perf_event_attr attr;
	struct perf_ring ring;
	uint64_t head, pos = 0;
	size_t len = 3 * PAGE, touched = 300;
	volatile uint8_t *mem;
	uint8_t *map, out[64];
	int fd, got, records = 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	attr.exclude_kernel = 1;
	attr.disabled = 1;
	fd = perf_event_open_thread(&attr, 0);
	if (fd < 0) {
		fprintf(stderr, "SKIP: no page-fault sampling here: %s\n",
			strerror(errno));
		cr_skip_test("no page-fault sampling: %s", strerror(errno));
	}
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	cr_assert_neq(map, MAP_FAILED);
	cr_assert_eq(perf_ring_data(&ring, map, len, PAGE), 0);
	cr_assert_eq(ring.size, 2 * PAGE);

	mem = mmap(NULL, touched * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq((void *) mem, MAP_FAILED);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/* Fewer samples than the ring holds, so nothing is lost.  */
	for (size_t i = 0; i < touched; i++)
		mem[i * PAGE] = 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = perf_ring_data_head((const void *) map);
	cr_assert_geq(head, touched * 24);
	cr_assert_leq(head, ring.size);
	while ((got = perf_ring_next_record(&ring, &pos, head, out,
					    sizeof(out))) > 0) {
		struct perf_event_header hdr;

		memcpy(&hdr, out, sizeof(hdr));
		cr_assert_eq(hdr.type, PERF_RECORD_SAMPLE);
		cr_assert_eq(got, 24);
		records++;
	}
	cr_assert_eq(got, 0);
	cr_assert_eq(pos, head);
	cr_assert_eq((uint64_t) records * 24, head);
	munmap((void *) mem, touched * PAGE);
	munmap(map, len);
	close(fd);
}
