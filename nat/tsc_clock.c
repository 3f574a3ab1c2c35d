/* nat/tsc_clock.c: the TSC's conversion to nanoseconds, measured.  */
#include "nat/tsc_clock.h"
#include "common/ps_error.h"

#include <time.h>
#include <x86intrin.h>

static uint64_t nat_tsc_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Both clocks at one moment: the TSC read on either side of the clock,
   averaged, so that a preemption between them costs little.  */
static void nat_tsc_clock_read(uint64_t *tsc, uint64_t *ns)
{
	uint64_t a = __rdtsc();

	*ns = nat_tsc_clock_ns();
	*tsc = a + (__rdtsc() - a) / 2;
}

void nat_tsc_clock_init(struct nat_tsc_clock *clock)
{
	nat_tsc_clock_read(&clock->tsc0, &clock->ns0);
}

uint64_t nat_tsc_conv_ns(const struct nat_tsc_conv *conv, uint64_t tsc)
{
	uint64_t quot = tsc >> conv->shift;
	uint64_t rem = tsc & ((1ull << conv->shift) - 1);

	return conv->zero + quot * conv->mult +
		((rem * conv->mult) >> conv->shift);
}

int nat_tsc_conv_from(uint64_t tsc0, uint64_t ns0, uint64_t tsc1,
		      uint64_t ns1, struct nat_tsc_conv *conv)
{
	unsigned __int128 mult = 0;
	uint16_t shift = 32;

	if (tsc1 <= tsc0 || ns1 <= ns0 || ns1 - ns0 < 1000000)
		return -pse_range;
	/* The finest shift whose multiplier fits 32 bits.  */
	for (;; shift--) {
		mult = ((unsigned __int128) (ns1 - ns0) << shift) /
			(tsc1 - tsc0);
		if (mult <= UINT32_MAX || !shift)
			break;
	}
	if (!mult || mult > UINT32_MAX)
		return -pse_range;
	conv->mult = (uint32_t) mult;
	conv->shift = shift;
	conv->zero = 0;
	/* Modulo 2^64, as perf adds it: the TSC may count from before the
	   monotonic clock's zero.  */
	conv->zero = ns0 - nat_tsc_conv_ns(conv, tsc0);
	return 0;
}

int nat_tsc_clock_conv(const struct nat_tsc_clock *clock,
		       struct nat_tsc_conv *conv)
{
	uint64_t tsc, ns;

	nat_tsc_clock_read(&tsc, &ns);
	return nat_tsc_conv_from(clock->tsc0, clock->ns0, tsc, ns, conv);
}
