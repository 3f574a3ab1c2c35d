/* Version 2 bundles: several threads, the trigger, the core and the
   side-band survive a round trip; the selected thread is the trigger's;
   damage is rejected, never a crash (run under ASan).  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_bundle_format.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t pt1[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x23 };
static const uint8_t pt2[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02,
			       0x82, 0x02, 0x23, 0, 0 };
static const uint8_t regs1[] = { 1, 2, 3, 4, 5 };
static const uint8_t regs2[] = { 9, 8, 7 };
static const uint8_t stack[] = { 0xaa, 0xbb, 0xcc, 0xdd };
static const uint8_t auxv[] = { 6, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0,
				0, 0 };
static const uint8_t build_id[] = { 0xde, 0xad };

struct sample {
	struct bt_bundle b;
	struct bt_thread threads[2];
	struct bt_core_thread core[2];
	struct bt_pages mem;
	struct bt_sideband sb[2];
	struct bt_mapping map;
};

static void sample(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	s->threads[0] = (struct bt_thread) { 200, 1, 0x401000, pt1,
					     sizeof(pt1), 0 };
	s->threads[1] = (struct bt_thread) { 201, 1, 0x401234, pt2,
					     sizeof(pt2), 77 };
	s->core[0] = (struct bt_core_thread) { 200, 0, regs1, sizeof(regs1) };
	s->core[1] = (struct bt_core_thread) { 201, 11, regs2, sizeof(regs2) };
	s->mem = (struct bt_pages) { 0x7ffffffde000, sizeof(stack), 3,
				     "[stack]", stack };
	s->sb[0] = (struct bt_sideband) { bts_exec, 200, 0, 0, 0, 0,
					  "/usr/bin/prog", NULL, 0 };
	s->sb[1] = (struct bt_sideband) { bts_map, 201, 0x7f0000000000,
					  0x1000, 0, 5, "/lib/libx.so",
					  build_id, sizeof(build_id) };
	s->map = (struct bt_mapping) { 0x400000, 0x1000, 0, 5,
				       "/usr/bin/prog", NULL, 0 };
	s->b.format = btf_pt;
	s->b.buffer_size = 4096;
	s->b.pid = 200;
	s->b.threads = s->threads;
	s->b.nthreads = 2;
	s->b.trigger = (struct bt_trigger) { btt_signal, 201, 11, 3, 0, "" };
	s->b.exe = "/usr/bin/prog";
	s->b.core_threads = s->core;
	s->b.ncore_threads = 2;
	s->b.core_pages = &s->mem;
	s->b.ncore_pages = 1;
	s->b.auxv = auxv;
	s->b.auxv_size = sizeof(auxv);
	s->b.sideband = s->sb;
	s->b.nsideband = 2;
	s->b.mappings = &s->map;
	s->b.nmappings = 1;
}

Test(bt_bundle_v2, round_trip_keeps_threads_trigger_core_sideband)
{
	struct sample s;
	struct bt_bundle r;
	struct bt_diag diag;
	uint8_t *data;
	size_t size;

	sample(&s);
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), 0);
	cr_assert_eq(data[8], BT_BUNDLE_VERSION);
	bt_diag_init(&diag);
	cr_assert_eq(bt_bundle_parse(&r, data, size, &diag), 0, "%s",
		     diag.text);
	cr_assert_eq(r.nthreads, 2);
	cr_assert_eq(r.threads[1].lost, 77);
	cr_assert_eq(r.threads[0].trace_size, sizeof(pt1));
	cr_assert_arr_eq(r.threads[1].trace, pt2, sizeof(pt2));
	/* The trigger's thread is the selected one.  */
	cr_assert_eq(r.tid, 201);
	cr_assert_eq(r.pc, 0x401234);
	cr_assert_eq(r.trace_size, sizeof(pt2));
	cr_assert_eq(r.trigger.kind, btt_signal);
	cr_assert_eq(r.trigger.signal, 11);
	cr_assert_eq(r.trigger.sequence, 3);
	cr_assert_str_eq(bt_trigger_name(r.trigger.kind), "signal");
	cr_assert_str_eq(r.exe, "/usr/bin/prog");
	cr_assert_eq(r.ncore_threads, 2);
	cr_assert_eq(r.core_threads[1].signal, 11);
	cr_assert_arr_eq(r.core_threads[0].regs, regs1, sizeof(regs1));
	cr_assert_eq(r.ncore_pages, 1);
	cr_assert_str_eq(r.core_pages[0].name, "[stack]");
	cr_assert_arr_eq(r.core_pages[0].bytes, stack, sizeof(stack));
	cr_assert_eq(r.auxv_size, sizeof(auxv));
	cr_assert_eq(r.nsideband, 2);
	cr_assert_eq(r.sideband[0].kind, bts_exec);
	cr_assert_str_eq(r.sideband[1].path, "/lib/libx.so");
	cr_assert_eq(r.sideband[1].build_id_size, 2);

	cr_assert_eq(bt_bundle_select_thread(&r, 200), 0);
	cr_assert_eq(r.tid, 200);
	cr_assert_eq(r.trace_size, sizeof(pt1));
	cr_assert_eq(bt_bundle_select_thread(&r, 999), -bte_notfound);
	cr_assert_eq(r.tid, 200);
	bt_bundle_fini(&r);
	free(data);
}

Test(bt_bundle_v2, a_single_thread_bundle_reads_as_one_thread)
{
	struct bt_bundle b = { 0 }, r;
	struct bt_diag diag;
	uint8_t *data;
	size_t size;

	b.format = btf_pt;
	b.pid = 5;
	b.tid = 6;
	b.trace = pt1;
	b.trace_size = sizeof(pt1);
	cr_assert_eq(bt_bundle_encode(&b, &data, &size), 0);
	cr_assert_eq(bt_bundle_parse(&r, data, size, &diag), 0, "%s",
		     diag.text);
	cr_assert_eq(r.nthreads, 1);
	cr_assert_eq(r.tid, 6);
	cr_assert_eq(r.trigger.kind, btt_none);
	cr_assert_null(r.exe);
	bt_bundle_fini(&r);
	free(data);
}

static void fix_crc(uint8_t *data, size_t size)
{
	uint32_t crc = bt_bundle_crc32(0, data, BT_BUNDLE_CRC_OFFSET);

	crc = bt_bundle_crc32(crc, data + 32, size - 32);
	for (int i = 0; i < 4; ++i)
		data[BT_BUNDLE_CRC_OFFSET + i] = (uint8_t) (crc >> (8 * i));
}

Test(bt_bundle_v2, damage_behind_a_valid_checksum_never_crashes)
{
	struct sample s;
	struct bt_bundle r;
	struct bt_diag diag;
	uint8_t *data, *copy;
	size_t size;
	int rejected = 0;

	sample(&s);
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), 0);
	copy = malloc(size);
	for (size_t i = 32; i < size; ++i) {
		memcpy(copy, data, size);
		copy[i] ^= 0xff;
		fix_crc(copy, size);
		if (bt_bundle_parse(&r, copy, size, &diag) < 0) {
			rejected++;
			cr_assert_gt(strlen(diag.text), 0);
		} else {
			bt_bundle_fini(&r);
		}
	}
	cr_assert_gt(rejected, 50, "only %d rejected", rejected);
	free(copy);
	free(data);
}

Test(bt_bundle_v2, bad_arguments_are_refused_by_the_writer)
{
	struct sample s;
	uint8_t *data;
	size_t size;

	sample(&s);
	s.threads[1].tid = 0;
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), -bte_invalid);
	sample(&s);
	s.b.trigger.kind = 99;
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), -bte_invalid);
	sample(&s);
	s.sb[0].kind = 0;
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), -bte_invalid);
}

Test(bt_bundle_v2, ended_threads_and_their_budget_survive_a_round_trip)
{
	struct sample s;
	struct bt_bundle r;
	struct bt_diag diag;
	uint8_t *data;
	size_t size;

	sample(&s);
	s.threads[1].ended = 1;
	s.b.ended = (struct bt_ended) { 1u << 20, 3, 12345 };
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), 0);
	bt_diag_init(&diag);
	cr_assert_eq(bt_bundle_parse(&r, data, size, &diag), 0, "%s",
		     diag.text);
	cr_assert_eq(r.threads[0].ended, 0);
	cr_assert_eq(r.threads[1].ended, 1);
	cr_assert_eq(r.ended.budget, 1u << 20);
	cr_assert_eq(r.ended.dropped, 3);
	cr_assert_eq(r.ended.dropped_bytes, 12345);
	bt_bundle_fini(&r);
	free(data);

	/* Without a budget the bundle says nothing of ended threads.  */
	sample(&s);
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), 0);
	cr_assert_eq(bt_bundle_parse(&r, data, size, &diag), 0, "%s",
		     diag.text);
	cr_assert_eq(r.ended.budget, 0);
	bt_bundle_fini(&r);
	free(data);

	/* Drops without a budget, or bytes without a thread: refused.  */
	sample(&s);
	s.b.ended = (struct bt_ended) { 0, 1, 10 };
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), -bte_invalid);
	s.b.ended = (struct bt_ended) { 100, 0, 10 };
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), -bte_invalid);
}

/* Version 3's time: perf's conversion survives a round trip and gives
   perf's nanoseconds; a version 2 bundle cannot hold it (its readers
   did not know the record), and an old bundle still reads, timeless.  */
Test(bt_bundle_v2, time_survives_a_round_trip_and_needs_version_3)
{
	struct sample s;
	struct bt_bundle r;
	struct bt_diag diag;
	uint8_t *data;
	size_t size;

	sample(&s);
	/* 2.5 GHz: 0.4 ns a tick, mult 0.4 << 31.  */
	s.b.time = (struct bt_time) { 1000, 858993459, 31 };
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), 0);
	cr_assert_eq(data[8], 3);
	bt_diag_init(&diag);
	cr_assert_eq(bt_bundle_parse(&r, data, size, &diag), 0, "%s",
		     diag.text);
	cr_assert_eq(r.time.zero, 1000);
	cr_assert_eq(r.time.mult, 858993459);
	cr_assert_eq(r.time.shift, 31);
	/* 2.5e9 ticks: a second, to a nanosecond.  */
	cr_expect_leq(bt_time_ns(&r.time, 2500000000ull) - 1000 - 1000000000
		      + 1, 2);
	bt_bundle_fini(&r);

	/* The same bytes called version 2: the time record is unknown.  */
	data[8] = 2;
	fix_crc(data, size);
	cr_assert_eq(bt_bundle_parse(&r, data, size, &diag), -bte_bad_record);
	cr_expect_not_null(strstr(diag.text, "unknown record type 13"), "%s",
			   diag.text);
	free(data);

	/* Without the time a bundle reads with none.  */
	sample(&s);
	cr_assert_eq(bt_bundle_encode(&s.b, &data, &size), 0);
	data[8] = 2;
	fix_crc(data, size);
	cr_assert_eq(bt_bundle_parse(&r, data, size, &diag), 0, "%s",
		     diag.text);
	cr_assert_eq(r.time.mult, 0);
	bt_bundle_fini(&r);
	free(data);
}
