/* nat/tsc_clock.h: what turns the emulated trace's TSC values into
   time.  The emulator stamps its PT with the TSC (nat/emu/emu_pt.h); a
   bundle carries perf's conversion of it to nanoseconds (time_zero,
   time_mult, time_shift, as a perf_event_mmap_page gives them), so that
   perf and ptbtrace read the trace's time.  The kernel gives that page
   only where the TSC is its clock; elsewhere (a VM on kvm-clock) the
   conversion is measured: the TSC against CLOCK_MONOTONIC from the
   target's start to the bundle, the whole recorded run.  */
#ifndef NAT_TSC_CLOCK_H
#define NAT_TSC_CLOCK_H

#include <stdint.h>

struct nat_tsc_clock {
	uint64_t tsc0, ns0;   /* the first reading */
};

/* perf's conversion: ns = zero + (tsc >> shift) * mult
   + (((tsc & ((1 << shift) - 1)) * mult) >> shift).  */
struct nat_tsc_conv {
	uint64_t zero;
	uint32_t mult;
	uint16_t shift;
};

/* Read the clocks now: the calibration's start.  */
void nat_tsc_clock_init(struct nat_tsc_clock *clock);

/* The conversion measured from CLOCK's start to now, so that it gives
   CLOCK_MONOTONIC's nanoseconds.  -pse_again if under a millisecond
   has passed (-pse_range: too short to measure to 0.1%).  */
int nat_tsc_clock_conv(const struct nat_tsc_clock *clock,
		       struct nat_tsc_conv *conv);

/* The conversion from two readings (TSC0, NS0) and (TSC1, NS1).  */
int nat_tsc_conv_from(uint64_t tsc0, uint64_t ns0, uint64_t tsc1,
		      uint64_t ns1, struct nat_tsc_conv *conv);

/* TSC in CONV's nanoseconds, as perf computes it.  */
uint64_t nat_tsc_conv_ns(const struct nat_tsc_conv *conv, uint64_t tsc);

#endif
