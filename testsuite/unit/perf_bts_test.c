/* BTS through perf: samples in a synthetic data area turned into blocks
   the way GDB's reader does, and detection on this machine.  */
#include "nat/perf_bts.h"
#include "nat/cpu_info.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096
#define REC sizeof(struct perf_bts_sample)

/* The addresses of branch number I of a synthetic program.  */
static uint64_t branch_from(uint64_t i)
{
	return 0x400000 + i * 0x40 + 0x3c;
}

static uint64_t branch_to(uint64_t i)
{
	return 0x400000 + (i + 1) * 0x40 + ((i * 7) % 16);
}

/* A user page followed by the data area, at DATA_OFFSET.  */
struct fake {
	uint8_t *map;
	size_t len;
	struct perf_event_mmap_page *page;
	uint8_t *data;
	size_t size;
	uint64_t head;
	struct perf_bts bts;
};

static void fake_init(struct fake *f, size_t data_offset, size_t size)
{
	f->len = data_offset + size;
	f->map = aligned_alloc(PAGE, f->len);
	cr_assert_not_null(f->map);
	memset(f->map, 0, f->len);
	f->page = (void *) f->map;
	f->page->data_offset = data_offset;
	f->page->data_size = size;
	f->data = f->map + data_offset;
	f->size = size;
	f->head = 0;
	cr_assert_eq(perf_bts_attach(&f->bts, f->map, f->len, PAGE), 0);
}

static void fake_fini(struct fake *f)
{
	perf_bts_close(&f->bts);
	free(f->map);
}

/* Write one record the way the kernel does, wrapping; return whether it
   straddled the end of the ring.  */
static int fake_record(struct fake *f, uint32_t type, uint64_t from,
		       uint64_t to)
{
	struct perf_bts_sample s = {
		.header = { .type = type, .misc = PERF_RECORD_MISC_USER,
			    .size = REC },
		.from = from, .to = to,
	};
	const uint8_t *bytes = (const void *) &s;
	int straddle = (f->head % f->size) + REC > f->size;

	for (size_t i = 0; i < REC; i++)
		f->data[(f->head + i) % f->size] = bytes[i];
	f->head += REC;
	__atomic_store_n(&f->page->data_head, f->head, __ATOMIC_RELEASE);
	return straddle;
}

/* Branches [first, last] of the synthetic program; counts straddles.  */
static int fake_branches(struct fake *f, uint64_t first, uint64_t last)
{
	int straddles = 0;

	for (uint64_t i = first; i <= last; i++)
		straddles += fake_record(f, PERF_RECORD_SAMPLE, branch_from(i),
					 branch_to(i));
	return straddles;
}

/* Blocks for branches [first, last] in execution order, closed by PC:
   [to(i), from(i+1)] ..., [to(last), pc].  */
static void check_blocks(const struct trace_blocks *b, size_t at,
			 uint64_t first, uint64_t last, uint64_t pc)
{
	cr_assert_eq(b->len - at, last - first + 1);
	for (uint64_t i = first; i <= last; i++) {
		const struct trace_block *blk = &b->block[at + i - first];

		cr_assert_eq(blk->begin, branch_to(i), "block %llu",
			     (unsigned long long) i);
		cr_assert_eq(blk->end, i == last ? pc : branch_from(i + 1),
			     "block %llu", (unsigned long long) i);
		if (i < last)
			cr_assert_leq(blk->begin, blk->end);
	}
}

static const uint64_t pc = 0x401234;

Test(perf_bts, blocks_array_grows)
{
	struct trace_blocks b;

	trace_blocks_init(&b);
	for (uint64_t i = 0; i < 1000; i++)
		cr_assert_eq(trace_blocks_push(&b, i, 2 * i), 0);
	cr_assert_eq(b.len, 1000);
	cr_assert_eq(b.block[999].end, 1998);
	trace_blocks_reset(&b);
	cr_assert_eq(b.len, 0);
	trace_blocks_fini(&b);
	cr_assert_null(b.block);
}

Test(perf_bts, kernel_addresses)
{
	cr_assert(perf_bts_is_kernel(0xffffffff81000000ull, 0));
	cr_assert(!perf_bts_is_kernel(0x7fffffffe000ull, 0));
	cr_assert(perf_bts_is_kernel(0xffffffff81000000ull,
				     0xffffffff81000000ull));
	cr_assert(!perf_bts_is_kernel(0xffffffff80ffffffull,
				      0xffffffff81000000ull));
}

Test(perf_bts, kernel_start_from_kallsyms)
{
	char path[] = "/tmp/perf_bts_test.XXXXXX";
	int fd = mkstemp(path);
	FILE *file;

	cr_assert_geq(fd, 0);
	file = fdopen(fd, "w");
	fputs("0000000000000000 A fixed_percpu_data\n"
	      "ffffffff81000000 T _stext\n"
	      "ffffffff80ff0000 t _text\n"
	      "ffffffff81000010 T _text_end\n", file);
	fclose(file);
	cr_assert_eq(perf_bts_kernel_start(path), 0xffffffff80ff0000ull);

	file = fopen(path, "w");
	fputs("0000000000000000 T _text\n", file);
	fclose(file);
	cr_assert_eq(perf_bts_kernel_start(path), 0);
	unlink(path);
	cr_assert_eq(perf_bts_kernel_start(path), 0);
}

Test(perf_bts, read_empty)
{
	struct trace_blocks b;
	struct fake f;

	fake_init(&f, PAGE, PAGE);
	trace_blocks_init(&b);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);
	cr_assert_eq(b.len, 0);
	/* A delta always has the partial block holding the PC.  */
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_delta, pc), 0);
	cr_assert_eq(b.len, 1);
	cr_assert_eq(b.block[0].begin, 0);
	cr_assert_eq(b.block[0].end, pc);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, read_partial)
{
	struct trace_blocks b;
	struct perf_ring_status st;
	struct fake f;

	fake_init(&f, PAGE, 2 * PAGE);
	trace_blocks_init(&b);
	fake_branches(&f, 1, 10);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);
	/* The oldest block, before branch 1, has no known start: dropped. */
	check_blocks(&b, 0, 1, 10, pc);
	cr_assert_eq(f.bts.incomplete, 0);

	perf_bts_status(&f.bts, &st);
	cr_assert_eq(st.size, 2 * PAGE);
	cr_assert_eq(st.held, 10 * REC);
	cr_assert_eq(st.wrapped, 0);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, read_wrapped_with_a_straddling_sample)
{
	struct trace_blocks b;
	struct perf_ring_status st;
	struct fake f;
	const size_t size = PAGE;
	const uint64_t n = 400, kept = size / REC;

	fake_init(&f, PAGE, size);
	trace_blocks_init(&b);
	cr_assert_gt(fake_branches(&f, 1, n), 0, "no sample straddled");
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);
	/* The ring holds the newest KEPT whole samples.  */
	check_blocks(&b, 0, n - kept + 1, n, pc);
	perf_bts_status(&f.bts, &st);
	cr_assert_eq(st.held, size);
	cr_assert(st.wrapped);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, read_many_laps_on_and_data_offset_not_one_page)
{
	struct trace_blocks b;
	struct fake f;
	const size_t size = 2 * PAGE;
	const uint64_t n = 5000, kept = size / REC;

	fake_init(&f, 2 * PAGE, size);
	trace_blocks_init(&b);
	fake_branches(&f, 1, n);
	cr_assert_gt(f.head, 10 * size);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);
	check_blocks(&b, 0, n - kept + 1, n, pc);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, read_delta_and_new)
{
	struct trace_blocks b;
	struct fake f;
	uint64_t pc2 = 0x402000;

	fake_init(&f, PAGE, PAGE);
	trace_blocks_init(&b);
	fake_branches(&f, 1, 20);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);

	/* Nothing new: "new" appends nothing.  */
	trace_blocks_reset(&b);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_new, pc), 0);
	cr_assert_eq(b.len, 0);

	/* Five more branches: the delta starts with the block GDB stitches
	   to the end of its trace (begin unknown, 0).  */
	fake_branches(&f, 21, 25);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_delta, pc2), 0);
	cr_assert_eq(b.len, 6);
	cr_assert_eq(b.block[0].begin, 0);
	cr_assert_eq(b.block[0].end, branch_from(21));
	check_blocks(&b, 1, 21, 25, pc2);

	/* "new" after more trace gives everything the ring holds.  */
	fake_branches(&f, 26, 27);
	trace_blocks_reset(&b);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_new, pc), 0);
	check_blocks(&b, 0, 1, 27, pc);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, delta_overflow)
{
	struct trace_blocks b;
	struct fake f;

	fake_init(&f, PAGE, PAGE);
	trace_blocks_init(&b);
	fake_branches(&f, 1, 3);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);
	fake_branches(&f, 4, 4 + PAGE / REC + 1);
	trace_blocks_reset(&b);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_delta, pc),
		     -pse_nospace);
	cr_assert_str_eq(f.bts.reason, "Overflow.");
	cr_assert_eq(b.len, 0);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, kernel_branches_are_skipped)
{
	struct trace_blocks b;
	struct fake f;

	fake_init(&f, PAGE, PAGE);
	f.bts.kernel_start = 0xffffffff81000000ull;
	trace_blocks_init(&b);
	fake_branches(&f, 1, 2);
	/* A return from the kernel to user space, as BTS reports it.  */
	fake_record(&f, PERF_RECORD_SAMPLE, 0xffffffff81234567ull, 0x400777);
	fake_branches(&f, 3, 3);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);
	cr_assert_eq(b.len, 3);
	cr_assert_eq(b.block[1].begin, branch_to(2));
	cr_assert_eq(b.block[1].end, branch_from(3));
	cr_assert_eq(b.block[2].begin, branch_to(3));
	cr_assert_eq(b.block[2].end, pc);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, a_foreign_record_ends_the_walk)
{
	struct trace_blocks b;
	struct fake f;

	fake_init(&f, PAGE, PAGE);
	trace_blocks_init(&b);
	fake_branches(&f, 1, 5);
	fake_record(&f, PERF_RECORD_THROTTLE, 0, 0);
	fake_branches(&f, 6, 9);
	cr_assert_eq(perf_bts_read(&f.bts, &b, perf_bts_read_all, pc), 0);
	cr_assert(f.bts.incomplete);
	/* Only what is newer than the foreign record.  */
	check_blocks(&b, 0, 6, 9, pc);
	trace_blocks_fini(&b);
	fake_fini(&f);
}

Test(perf_bts, closed_and_bad_arguments)
{
	struct perf_bts bts;
	struct trace_blocks b;
	uint8_t *map = aligned_alloc(PAGE, PAGE);

	perf_bts_init(&bts);
	trace_blocks_init(&b);
	cr_assert_eq(perf_bts_read(&bts, &b, perf_bts_read_all, pc),
		     -pse_notfound);
	cr_assert_eq(perf_bts_size(&bts), 0);
	perf_bts_close(&bts);
	perf_bts_close(&bts);

	/* A mapping with no data area at all.  */
	memset(map, 0, PAGE);
	cr_assert_lt(perf_bts_attach(&bts, map, PAGE, PAGE), 0);
	free(map);
}

Test(perf_bts, this_machine)
{
	char reason[256], expect[512];
	struct trace_cpu cpu;
	struct perf_bts bts;
	struct stat st;
	int err;

	err = perf_bts_probe(reason, sizeof(reason));
	if (err == 0) {
		fprintf(stderr, "SKIP: BTS available; its absence paths are "
			"not tested here\n");
		cr_skip_test("BTS available");
	}
	cr_assert_neq(reason[0], '\0');

	cr_assert_eq(cpu_info_read(&cpu), 0);
	if (cpu_info_is_amd(&cpu)) {
		cr_assert(strstr(reason, "AMD"), "%s", reason);
		return;
	}

	/* No core PMU at all (as in these VMs): no such hardware event, and
	   perf_bts_open says what gdbserver says.  */
	if (stat("/sys/bus/event_source/devices/cpu", &st) != 0
	    && stat("/sys/bus/event_source/devices/cpu_core", &st) != 0) {
		cr_assert_eq(err, -pse_unsupported);
		cr_assert(strstr(reason, "no branch-instructions hardware "
				 "event"), "%s", reason);

		perf_bts_init(&bts);
		cr_assert_lt(perf_bts_open(&bts, getpid(), 65536), 0);
		snprintf(expect, sizeof(expect),
			 "Failed to start recording: %s", strerror(ENOENT));
		cr_assert_str_eq(bts.reason, expect);
		perf_bts_close(&bts);
	} else {
		cr_assert(strstr(reason, "perf_event_open") ||
			  strstr(reason, "BTS"), "%s", reason);
	}
}

/* The kernel's own ring, filled by a software event whose samples have
   exactly BTS's layout (IP, ADDR): page faults, IP the faulting
   instruction, ADDR the page touched.  This checks the user page, the
   free-running data_head, overwrite mode and real straddling records
   against the running kernel, where no branch PMU exists.  */
struct kernel_ring {
	int fd;
	uint8_t *map;
	size_t len;
};

static int kernel_ring_open(struct kernel_ring *k, size_t data_pages)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	k->fd = perf_event_open_thread(&attr, 0);
	if (k->fd < 0)
		return -errno;
	k->len = (data_pages + 1) * PAGE;
	/* Read-only: overwrite mode, as BTS maps it.  */
	k->map = mmap(NULL, k->len, PROT_READ, MAP_SHARED, k->fd, 0);
	if (k->map == MAP_FAILED) {
		int err = -errno;

		close(k->fd);
		return err;
	}
	return 0;
}

static void kernel_ring_close(struct kernel_ring *k)
{
	munmap(k->map, k->len);
	close(k->fd);
}

/* Touch N fresh pages with the event enabled; their addresses go to
   PAGES.  */
static void touch_pages(struct kernel_ring *k, uint64_t *pages, size_t n)
{
	volatile uint8_t *mem = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	cr_assert_neq((void *) mem, MAP_FAILED);
	/* Warm up the code, stack and PAGES this loop uses, then record.  */
	memset(pages, 0, (n - 1) * sizeof(*pages));
	mem[0] = 1;
	ioctl(k->fd, PERF_EVENT_IOC_ENABLE, 0);
	for (size_t i = 1; i <= n - 1; i++) {
		mem[i * PAGE] = 1;
		pages[i - 1] = (uint64_t) (uintptr_t) (mem + i * PAGE);
	}
	ioctl(k->fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap((void *) mem, n * PAGE);
}

/* Whether the begins of B[from..] are, in order, the touched pages
   PAGES[0..n) (the kernel may add faults of its own in between).  */
static size_t matched_in_order(const struct trace_blocks *b,
			       size_t from, const uint64_t *pages, size_t n)
{
	size_t m = 0;

	for (size_t i = from; i < b->len && m < n; i++)
		if (b->block[i].begin == pages[m])
			m++;
	return m;
}

static void skip_without_sw_events(int err)
{
	if (err < 0) {
		fprintf(stderr, "SKIP: no page-fault sampling here: %s\n",
			strerror(-err));
		cr_skip_test("no page-fault sampling: %s", strerror(-err));
	}
}

Test(perf_bts, real_kernel_ring_partial)
{
	struct kernel_ring k;
	struct perf_bts bts;
	struct trace_blocks b;
	uint64_t pages[64];
	const size_t n = 40;

	skip_without_sw_events(kernel_ring_open(&k, 4));
	cr_assert_eq(perf_bts_attach(&bts, k.map, k.len, PAGE), 0);
	cr_assert_eq(bts.data.size, 4 * PAGE, "the kernel's data_size");
	cr_assert_eq(bts.data.base, k.map + PAGE, "the kernel's data_offset");

	touch_pages(&k, pages, n + 1);
	trace_blocks_init(&b);
	cr_assert_eq(perf_bts_read(&bts, &b, perf_bts_read_all, pc), 0);
	cr_assert_eq(bts.incomplete, 0);
	cr_assert_geq(b.len, n);
	cr_assert_eq(matched_in_order(&b, 0, pages, n), n);
	cr_assert_eq(b.block[b.len - 1].end, pc);
	trace_blocks_fini(&b);
	perf_bts_close(&bts);
	kernel_ring_close(&k);
}

Test(perf_bts, real_kernel_ring_wrapped)
{
	struct kernel_ring k;
	struct perf_bts bts;
	struct trace_blocks b;
	struct perf_ring_status st;
	static uint64_t pages[2000];
	const size_t n = 1500, kept = PAGE / REC;

	skip_without_sw_events(kernel_ring_open(&k, 1));
	cr_assert_eq(perf_bts_attach(&bts, k.map, k.len, PAGE), 0);
	touch_pages(&k, pages, n + 1);

	perf_bts_status(&bts, &st);
	cr_assert(st.wrapped);
	cr_assert_geq(perf_ring_data_head(bts.header), n * REC);

	trace_blocks_init(&b);
	cr_assert_eq(perf_bts_read(&bts, &b, perf_bts_read_all, pc), 0);
	cr_assert_eq(bts.incomplete, 0);
	cr_assert_eq(b.len, kept);
	/* The ring kept the newest samples: the samples for our pages in it
	   are exactly the last pages touched, in order (the kernel, or a
	   sanitizer's shadow memory, may add faults of its own).  */
	size_t ours = 0, at = 0;

	for (size_t i = 0; i < b.len; i++)
		ours += b.block[i].begin >= pages[0]
			&& b.block[i].begin <= pages[n - 1];
	for (size_t i = 0; i < b.len; i++)
		if (b.block[i].begin >= pages[0]
		    && b.block[i].begin <= pages[n - 1])
			cr_assert_eq(b.block[i].begin, pages[n - ours + at++],
				     "sample %zu", i);
	cr_assert_geq(ours, kept / 2);
	cr_assert_eq(b.block[b.len - 1].begin, pages[n - 1]);
	trace_blocks_fini(&b);
	perf_bts_close(&bts);
	kernel_ring_close(&k);
}
