/* The TSC's conversion to nanoseconds: measured across a sleep, it
   gives the sleep's length; built from two readings, it maps them back
   onto their nanoseconds as perf computes it; too short a span is
   refused.  */
#include "nat/tsc_clock.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <time.h>
#include <x86intrin.h>

Test(tsc_clock, conversion_of_two_readings)
{
	struct nat_tsc_conv conv;
	/* 2.6 GHz, the TSC ahead of the clock (zero wraps).  */
	uint64_t tsc0 = 9000000000000ull, ns0 = 1000000000ull;
	uint64_t tsc1 = tsc0 + 2600000000ull, ns1 = ns0 + 1000000000ull;

	cr_assert_eq(nat_tsc_conv_from(tsc0, ns0, tsc1, ns1, &conv), 0);
	cr_expect_leq(conv.shift, 32);
	cr_expect_leq(nat_tsc_conv_ns(&conv, tsc0) - ns0 + 1, 2);
	cr_expect_leq(nat_tsc_conv_ns(&conv, tsc1) - ns1 + 2, 4);
	/* A slow TSC (100 MHz: 10 ns a tick) still fits.  */
	cr_assert_eq(nat_tsc_conv_from(0, 0, 100000000, 1000000000, &conv), 0);
	cr_expect_eq(nat_tsc_conv_ns(&conv, 5), 50);
	cr_expect_eq(nat_tsc_conv_from(tsc0, ns0, tsc0 + 1000, ns0 + 500,
				       &conv), -pse_range);
	cr_expect_eq(nat_tsc_conv_from(tsc1, ns0, tsc0, ns1, &conv),
		     -pse_range);
}

Test(tsc_clock, a_sleep_measures_its_length)
{
	struct nat_tsc_clock clock;
	struct nat_tsc_conv conv;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	uint64_t t0, t1, ns;

	nat_tsc_clock_init(&clock);
	nanosleep(&ts, NULL);
	cr_assert_eq(nat_tsc_clock_conv(&clock, &conv), 0);
	t0 = __rdtsc();
	nanosleep(&ts, NULL);
	t1 = __rdtsc();
	ns = nat_tsc_conv_ns(&conv, t1) - nat_tsc_conv_ns(&conv, t0);
	cr_expect_geq(ns, 50000000, "%llu ns", (unsigned long long) ns);
	cr_expect_lt(ns, 1000000000, "%llu ns", (unsigned long long) ns);
}
