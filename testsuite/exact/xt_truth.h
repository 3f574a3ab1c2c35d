/* The single-step side of exact_threads' per-thread comparison: the
   program run with every thread single-stepped, each thread's
   instruction addresses kept by creation order, and the process held
   at the main thread's exit (its memory is the image the recorded
   traces are decoded against: same binary, ASLR off).  */
#ifndef TESTSUITE_EXACT_XT_TRUTH_H
#define TESTSUITE_EXACT_XT_TRUTH_H

#include "testsuite/emu/emu_driver.h"

enum { xt_truth_max = 256 };

struct xt_truth {
	struct drv_proc proc;     /* held at the main thread's exit */
	struct drv_ips ips[xt_truth_max];
	size_t count;             /* threads, in creation order */
	size_t total;             /* instructions, all threads */
};

/* Run ARGV single-stepped; -pse_range past MAX_INSNS in all (0: no
   limit), -pse_noproc if it did not start.  */
int xt_truth_run(struct xt_truth *truth, char *const argv[],
		 size_t max_insns);

/* Kill the held process and free the addresses.  */
void xt_truth_fini(struct xt_truth *truth);

#endif
