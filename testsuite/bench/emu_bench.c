/* Trace emulator benchmark: instructions traced per second on standard
   workloads, side by side in one run with a naive PTRACE_SINGLESTEP
   tracer on the same workload, with each shortcut switched on and off.
   Tracer and tracee are pinned to one CPU (drv_start does it).  */
#define _GNU_SOURCE
#include "testsuite/emu/emu_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#ifndef EMU_PROGDIR
#error "EMU_PROGDIR must name the built corpus"
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct variant {
	const char *name;
	struct emu_config config;
};

static const struct variant variants[] = {
	{ "emu (one stop per branch)", { 0 } },
	{ "emu + ret shortcut", { .ret_shortcut = true } },
	{ "emu + jcc shortcut", { .jcc_shortcut = true } },
	{ "emu + both shortcuts", { .ret_shortcut = true,
				    .jcc_shortcut = true } },
	{ "code-cache engine", { .engine = emu_engine_cache } },
};

/* The function run natively: continued to a breakpoint on its return
   (two ptrace stops included).  */
static double native_run(struct drv_proc *proc)
{
	struct user_regs_struct regs;
	double t0;
	int status;

	if (int3_insert(&proc->sites, &proc->mem, proc->ret,
			int3_owner_gdb) < 0)
		return -1;
	t0 = now();
	for (;;) {
		ptrace(PTRACE_CONT, proc->pid, 0, 0);
		if (waitpid(proc->pid, &status, __WALL) != proc->pid ||
		    !WIFSTOPPED(status))
			return -1;
		ptrace(PTRACE_GETREGS, proc->pid, 0, &regs);
		if (regs.rip - 1 == proc->ret && regs.rsp == proc->ret_sp)
			return now() - t0;
	}
}

/* The naive tracer: PTRACE_SINGLESTEP, waitpid, PTRACE_GETREGS for the
   IP, until the function returns; nothing else per instruction.  */
static long naive_step(struct drv_proc *proc)
{
	struct user_regs_struct regs;
	long n = 0;
	int status;

	for (;;) {
		ptrace(PTRACE_SINGLESTEP, proc->pid, 0, 0);
		if (waitpid(proc->pid, &status, __WALL) != proc->pid ||
		    !WIFSTOPPED(status))
			return -1;
		ptrace(PTRACE_GETREGS, proc->pid, 0, &regs);
		n++;
		if (regs.rip == proc->ret && regs.rsp == proc->ret_sp)
			return n;
	}
}

static int bench(const char *work, const char *size)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_ips ips;
	double t0, step_rate, native;
	long n;
	snprintf(prog, sizeof(prog), "%s/bench_work", EMU_PROGDIR);
	(void) size;

	drv_ips_init(&ips);
	if (drv_start(&proc, prog, work, "run") < 0)
		return -1;
	t0 = now();
	n = naive_step(&proc);
	step_rate = n / (now() - t0);
	drv_finish(&proc);
	/* The oracle's loop, for the instruction count the traces must
	   decode to (rep iterations folded).  */
	if (drv_start(&proc, prog, work, "run") < 0)
		return -1;
	n = drv_truth(&proc, &ips);
	drv_finish(&proc);
	printf("%-8s %-28s %9ld insns %9.0f insns/s   1.00x\n", work,
	       "single-step tracer", n, step_rate);
	native = -1;
	for (int rep = 0; rep < 3; rep++) {
		double t;

		if (drv_start(&proc, prog, work, "run") < 0)
			return -1;
		t = native_run(&proc);
		drv_finish(&proc);
		if (t > 0 && (native < 0 || t < native))
			native = t;
	}
	printf("%-8s %-28s %9ld insns %9.0f insns/s %6.0fx  (%.0f us)\n",
	       work, "native (cont to return)", n, n / native,
	       n / native / step_rate, native * 1e6);

	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		struct drv_trace trace;
		struct drv_ips pt;
		unsigned gaps = 0;
		double secs = 0;
		long m = 0;

		/* Best of three: the machine is shared, so runs are noisy. */
		for (int rep = 0; rep < 3; rep++) {
			double t;

			if (rep)
				drv_trace_fini(&trace);
			drv_trace_init(&trace);
			drv_ips_init(&pt);
			if (drv_start(&proc, prog, work, "run") < 0)
				return -1;
			t0 = now();
			if (drv_emulate(&proc, &variants[v].config,
					trace_format_pt, 64u << 20, &trace) < 0)
				return -1;
			t = now() - t0;
			if (!rep || t < secs)
				secs = t;
			m = drv_decode_pt(&proc, &trace.pt, &pt, &gaps);
			drv_finish(&proc);
			if (rep < 2)
				drv_ips_fini(&pt);
		}
		printf("%-8s %-28s %9ld insns %9.0f insns/s %6.2fx  "
		       "(%lu stops, %lu followed, %.1f insns/stop%s)\n", work,
		       variants[v].name, m, m / secs, m / secs / step_rate,
		       (unsigned long) trace.status.stops,
		       (unsigned long) trace.status.followed,
		       trace.status.stops ? (double) m / trace.status.stops : 0,
		       m == n && !gaps ? "" : ", MISMATCH");
		if (variants[v].config.engine == emu_engine_cache)
			printf("%-8s %-28s %.1fx native; %.0f traps/Minsn, "
			       "%lu blocks %lu bytes translated in %.2f ms, "
			       "%.3f trace bytes/insn%s%s\n", work, "",
			       secs / native,
			       m ? trace.status.cc.traps * 1e6 / m : 0,
			       (unsigned long) trace.status.cc.blocks,
			       (unsigned long) trace.status.cc.bytes,
			       trace.status.cc.xlate_ns / 1e6,
			       m ? (double) trace.pt.len / m : 0,
			       trace.status.cc.fallback ? "; fell back: " : "",
			       trace.status.cc.fallback ?
			       trace.status.cc.fallback : "");
		drv_trace_fini(&trace);
		drv_ips_fini(&pt);
	}
	drv_ips_fini(&ips);
	return 0;
}

/* Larger runs, native against the code cache only (the ptrace engine
   would take minutes): the ratio the cache is after, its setup
   (mappings, first translations) spread over more work.  */
static int bench_large(const char *work)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_trace trace;
	struct drv_ips pt;
	double native = -1, secs = -1;
	unsigned gaps = 0;
	long m;

	snprintf(prog, sizeof(prog), "%s/bench_work", EMU_PROGDIR);
	for (int rep = 0; rep < 3; rep++) {
		double t;

		if (drv_start(&proc, prog, work, "run") < 0)
			return -1;
		t = native_run(&proc);
		drv_finish(&proc);
		if (t > 0 && (native < 0 || t < native))
			native = t;
	}
	for (int rep = 0; rep < 2; rep++) {
		double t0, t;

		drv_trace_init(&trace);
		if (drv_start(&proc, prog, work, "run") < 0)
			return -1;
		t0 = now();
		if (drv_emulate(&proc, &(struct emu_config) {
				.engine = emu_engine_cache }, trace_format_pt,
				256u << 20, &trace) < 0)
			return -1;
		t = now() - t0;
		if (secs < 0 || t < secs)
			secs = t;
		if (rep == 1) {
			drv_ips_init(&pt);
			m = drv_decode_pt(&proc, &trace.pt, &pt, &gaps);
			printf("%-10s native %8.2f ms, code cache %8.2f ms: "
			       "%5.1fx native; %ld insns, %.0f traps/Minsn, "
			       "%lu log fills, %.2f ms translating, %.2f ms "
			       "draining logs, %.3f "
			       "trace bytes/insn%s%s%s\n", work, native * 1e3,
			       secs * 1e3, secs / native, m,
			       m > 0 ? trace.status.cc.traps * 1e6 / m : 0,
			       (unsigned long) trace.status.cc.fills,
			       trace.status.cc.xlate_ns / 1e6,
			       trace.status.cc.drain_ns / 1e6,
			       m > 0 ? (double) trace.pt.len / m : 0,
			       gaps ? ", DECODE GAPS" : "",
			       trace.status.cc.fallback ? "; fell back: " : "",
			       trace.status.cc.fallback ?
			       trace.status.cc.fallback : "");
			drv_ips_fini(&pt);
		}
		drv_finish(&proc);
		drv_trace_fini(&trace);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int err = 0;

	/* emu_bench WORK[:SIZE]: that larger run alone.  */
	if (argc > 1)
		return bench_large(argv[1]) ? 1 : 0;

	err |= bench("fib", NULL);
	err |= bench("qsort", NULL);
	err |= bench("string", NULL);
	err |= bench_large("fib:27");
	err |= bench_large("qsort:20000");
	err |= bench_large("string:5000");
	return err ? 1 : 0;
}
