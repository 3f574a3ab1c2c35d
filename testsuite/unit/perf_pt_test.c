/* PT through perf: format files, detection, and reading a synthetic
   overwrite-mode AUX area.  */
#include "nat/perf_pt.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096

Test(perf_pt, format_files_parse)
{
	struct perf_format_field f;

	cr_assert_eq(perf_format_parse("config:10\n", &f), 0);
	cr_assert_eq(f.lo, 10);
	cr_assert_eq(f.hi, 10);
	cr_assert_eq(perf_format_parse("config:14-17\n", &f), 0);
	cr_assert_eq(f.lo, 14);
	cr_assert_eq(f.hi, 17);
	cr_assert_eq(perf_format_parse("config:0-63", &f), 0);
	cr_assert_eq(f.hi, 63);

	const char *bad[] = { "config1:3", "config:", "config:5-3",
			      "config:64", "config:3-", "config:2x",
			      "config:-4", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(perf_format_parse(bad[i], &f), -pse_invalid,
			     "\"%s\"", bad[i]);
}

Test(perf_pt, format_set_places_the_value)
{
	struct perf_format_field psb = { 24, 27 }, bit = { 10, 10 },
		all = { 0, 63 };
	uint64_t config = ~0ull;

	cr_assert_eq(perf_format_set(&psb, 0x5, &config), 0);
	cr_assert_eq((config >> 24) & 0xf, 0x5);
	/* The bits outside the field are left alone.  */
	cr_assert_eq(config | (0xfull << 24), ~0ull);
	cr_assert_eq(perf_format_set(&psb, 0x10, &config), -pse_range);

	config = 0;
	cr_assert_eq(perf_format_set(&bit, 1, &config), 0);
	cr_assert_eq(config, 1ull << 10);
	cr_assert_eq(perf_format_set(&all, 0x123456789abcdef0ull, &config), 0);
	cr_assert_eq(config, 0x123456789abcdef0ull);
}

/* A fake PMU directory under /tmp; REMOVE takes it away again.  */
static void make_pmu(char *dir, size_t len, const char *type)
{
	char path[512];
	FILE *file;

	snprintf(dir, len, "/tmp/perf_pt_test.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/format", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/format/psb_period", dir);
	file = fopen(path, "w");
	cr_assert_not_null(file);
	fputs("config:24-27\n", file);
	fclose(file);
	if (type) {
		snprintf(path, sizeof(path), "%s/type", dir);
		file = fopen(path, "w");
		cr_assert_not_null(file);
		fputs(type, file);
		fclose(file);
	}
}

static void remove_pmu(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/format/psb_period", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/format", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/type", dir);
	unlink(path);
	rmdir(dir);
}

Test(perf_pt, format_read_from_a_pmu_directory)
{
	struct perf_format_field f;
	char dir[64];

	make_pmu(dir, sizeof(dir), NULL);
	cr_assert_eq(perf_format_read(dir, "psb_period", &f), 0);
	cr_assert_eq(f.lo, 24);
	cr_assert_eq(f.hi, 27);
	cr_assert_eq(perf_format_read(dir, "no_such_field", &f),
		     -pse_notfound);
	remove_pmu(dir);
}

Test(perf_pt, probe_explains_a_missing_pmu)
{
	char reason[256], dir[64];

	snprintf(dir, sizeof(dir), "/tmp/perf_pt_test.absent.%d", getpid());
	cr_assert_eq(perf_pt_probe_at(dir, reason, sizeof(reason)),
		     -pse_unsupported);
	cr_assert(strstr(reason, "no intel_pt PMU"), "%s", reason);
	cr_assert(strstr(reason, dir), "%s", reason);
	cr_assert(strstr(reason, "missing"), "%s", reason);
}

Test(perf_pt, probe_explains_a_bad_type_file)
{
	char reason[256], dir[64];

	make_pmu(dir, sizeof(dir), NULL);
	cr_assert_lt(perf_pt_probe_at(dir, reason, sizeof(reason)), 0);
	cr_assert(strstr(reason, "/type"), "%s", reason);
	remove_pmu(dir);

	make_pmu(dir, sizeof(dir), "garbage\n");
	cr_assert_eq(perf_pt_probe_at(dir, reason, sizeof(reason)),
		     -pse_invalid);
	cr_assert(strstr(reason, "Failed to read the PT event type"), "%s",
		  reason);
	remove_pmu(dir);
}

Test(perf_pt, probe_explains_a_refused_open)
{
	char reason[256], dir[64];

	/* A type no PMU has: the kernel refuses the event.  */
	make_pmu(dir, sizeof(dir), "2147483000\n");
	cr_assert_lt(perf_pt_probe_at(dir, reason, sizeof(reason)), 0);
	cr_assert_eq(strncmp(reason, "perf_event_open: ", 17), 0, "%s",
		     reason);
	remove_pmu(dir);
}

Test(perf_pt, this_machine)
{
	char reason[256], expect[512];
	struct perf_pt pt;
	struct stat st;
	int err;

	err = perf_pt_probe(reason, sizeof(reason));
	if (stat(PERF_PT_PMU_DIR, &st) == 0) {
		/* Hardware: the probe either works or says why not.  */
		if (err < 0)
			cr_assert(strstr(reason, "perf_event_open"), "%s",
				  reason);
		fprintf(stderr, "SKIP: intel_pt present; its absence paths "
			"are not tested here\n");
		cr_skip_test("intel_pt present");
	}

	cr_assert_eq(err, -pse_unsupported);
	cr_assert(strstr(reason, PERF_PT_PMU_DIR " missing"), "%s", reason);

	/* And open says what gdbserver says.  */
	perf_pt_init(&pt);
	cr_assert_eq(perf_pt_open(&pt, getpid(), 16384), -pse_unsupported);
	snprintf(expect, sizeof(expect), "Failed to open %s/type (%s).  Your "
		 "system does not support Intel PT.", PERF_PT_PMU_DIR,
		 strerror(ENOENT));
	cr_assert_str_eq(pt.reason, expect);
	cr_assert_eq(perf_pt_size(&pt), 0);
	perf_pt_close(&pt);
}

/* A synthetic user page and AUX area, as the kernel would have them.  */
struct fake {
	struct perf_event_mmap_page *page;
	uint8_t *aux;
	size_t size;
	struct perf_pt pt;
};

static uint8_t trace_byte(uint64_t pos)
{
	uint64_t x = (pos + 1) * 0xd6e8feb86659fd93ull;

	/* Mostly non-zero, with a PAD (zero) now and then, like PT.  */
	return (uint8_t) (x >> 56);
}

static void fake_init(struct fake *f, size_t size)
{
	f->page = aligned_alloc(PAGE, PAGE);
	f->aux = aligned_alloc(PAGE, size);
	cr_assert(f->page && f->aux);
	memset(f->page, 0, PAGE);
	memset(f->aux, 0, size);
	f->size = size;
	f->page->data_offset = PAGE;
	f->page->aux_offset = PAGE;
	f->page->aux_size = size;
	cr_assert_eq(perf_pt_attach(&f->pt, f->page, f->aux, size), 0);
}

static void fake_fini(struct fake *f)
{
	perf_pt_close(&f->pt);
	free(f->page);
	free(f->aux);
}

/* The hardware writes [from, to) of the trace stream; in overwrite mode
   the kernel keeps aux_head inside the buffer.  */
static void fake_write(struct fake *f, uint64_t from, uint64_t to)
{
	for (uint64_t pos = from; pos < to; pos++)
		f->aux[pos % f->size] = trace_byte(pos);
	__atomic_store_n(&f->page->aux_head, to % f->size, __ATOMIC_RELEASE);
}

static void check_trace(const struct ps_buf *out, size_t at, uint64_t end,
			size_t len)
{
	cr_assert_eq(out->len, at + len);
	for (size_t i = 0; i < len; i++)
		cr_assert_eq((uint8_t) out->data[at + i],
			     trace_byte(end - len + i), "byte %zu", i);
}

Test(perf_pt, read_empty)
{
	struct ps_buf out;
	struct perf_ring_status st;
	struct fake f;

	fake_init(&f, 4 * PAGE);
	ps_buf_init(&out);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 0), 0);
	cr_assert_eq(out.len, 0);
	perf_pt_status(&f.pt, &st);
	cr_assert_eq(st.size, 4 * PAGE);
	cr_assert_eq(st.held, 0);
	cr_assert_eq(st.wrapped, 0);
	cr_assert_eq(perf_pt_size(&f.pt), 4 * PAGE);
	ps_buf_fini(&out);
	fake_fini(&f);
}

Test(perf_pt, read_partial_then_only_new)
{
	struct ps_buf out;
	struct perf_ring_status st;
	struct fake f;

	fake_init(&f, 4 * PAGE);
	ps_buf_init(&out);
	fake_write(&f, 0, 5000);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 0), 0);
	check_trace(&out, 0, 5000, 5000);
	perf_pt_status(&f.pt, &st);
	cr_assert_eq(st.held, 5000);
	cr_assert_eq(st.wrapped, 0);

	/* Nothing moved: "new" gives nothing, "all" gives it again.  */
	ps_buf_reset(&out);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 1), 0);
	cr_assert_eq(out.len, 0);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 0), 0);
	check_trace(&out, 0, 5000, 5000);

	/* Moved: "new" gives the whole trace, appended after what OUT has. */
	fake_write(&f, 5000, 6000);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 1), 0);
	check_trace(&out, 5000, 6000, 6000);
	ps_buf_fini(&out);
	fake_fini(&f);
}

Test(perf_pt, read_wrapped_gives_the_newest_ring_full)
{
	struct ps_buf out;
	struct perf_ring_status st;
	struct fake f;
	const size_t size = 2 * PAGE;
	uint64_t end = 3 * size + 777;

	fake_init(&f, size);
	ps_buf_init(&out);
	fake_write(&f, 0, end);
	cr_assert_lt(f.page->aux_head, size);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 0), 0);
	check_trace(&out, 0, end, size);
	perf_pt_status(&f.pt, &st);
	cr_assert_eq(st.held, size);
	cr_assert(st.wrapped);

	/* A free-running aux_head (non-overwrite semantics) reads alike.  */
	ps_buf_reset(&out);
	f.page->aux_head = end;
	cr_assert_eq(perf_pt_read(&f.pt, &out, 0), 0);
	check_trace(&out, 0, end, size);
	ps_buf_fini(&out);
	fake_fini(&f);
}

Test(perf_pt, read_wrapped_exactly_at_the_end)
{
	struct ps_buf out;
	struct fake f;
	const size_t size = PAGE;

	fake_init(&f, size);
	ps_buf_init(&out);
	fake_write(&f, 0, 2 * size);
	cr_assert_eq(f.page->aux_head, 0);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 1), 0);
	/* aux_head is back at 0 as it started: "new" cannot see it moved,
	   but "all" finds the full ring.  */
	cr_assert_eq(out.len, 0);
	cr_assert_eq(perf_pt_read(&f.pt, &out, 0), 0);
	check_trace(&out, 0, 2 * size, size);
	ps_buf_fini(&out);
	fake_fini(&f);
}

Test(perf_pt, closed_and_bad_arguments)
{
	struct perf_pt pt;
	struct ps_buf out;
	struct perf_ring_status st;
	uint8_t aux[PAGE];
	struct perf_event_mmap_page page;

	perf_pt_init(&pt);
	ps_buf_init(&out);
	cr_assert_eq(perf_pt_read(&pt, &out, 0), -pse_notfound);
	perf_pt_status(&pt, &st);
	cr_assert_eq(st.size, 0);
	perf_pt_close(&pt);
	perf_pt_close(&pt);
	cr_assert_eq(pt.fd, -1);

	cr_assert_eq(perf_pt_attach(&pt, &page, aux, 3000), -pse_invalid);
	cr_assert_eq(perf_pt_attach(&pt, NULL, aux, PAGE), -pse_invalid);
	ps_buf_fini(&out);
}
