/* exact_diff: the differential oracle for one program run.  It runs the
   program (a function from its entry to its return, or a whole run from
   exec to exit) single-stepped, then through the trace emulator in PT
   and BTS with each shortcut configuration asked for, and compares the
   instruction sequences.  Every PT trace is also checked by libipt's
   packet decoder and, for IP compression, by its query decoder (every
   IP it reconstructs must be mapped in the stopped process).

     exact_diff [-f FUNC] [-i STDIN] [-o STDOUT]
                [-c none,ret,jcc,both,cache] [-F pt,bts] [-s RING_MB]
                [-n MAX_INSNS] [-V] [-q] PROG [ARGS...]

   -c picks the runs: the ptrace engine with none, one or both of its
   shortcuts, and the code-cache engine.  -V hides the vDSO from a whole
   run (xc_hide_vdso), so that runs reading the clock go the same way.

   Prints one line per trace and a summary line
     exact: PROG truth=N compared=M diffs=D
   and on a difference the first diverging instruction of both sides,
   with disassembly.  Exit: 0 all equal, 1 a difference (or a malformed
   trace), 2 the program could not be run, 3 it ran longer than
   MAX_INSNS single-stepped, 77 ptrace does not work.  */
#define _GNU_SOURCE
#include "testsuite/emu/emu_driver.h"
#include "testsuite/exact/exact_check.h"
#include "common/ps_error.h"

#include <Zydis/Zydis.h>
#include <intel-pt.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct xd_config {
	const char *name;
	struct emu_config config;
};

static const struct xd_config xd_configs[] = {
	{ "none", { 0 } },
	{ "ret", { .ret_shortcut = true } },
	{ "jcc", { .jcc_shortcut = true } },
	{ "both", { .ret_shortcut = true, .jcc_shortcut = true } },
	{ "cache", { .engine = emu_engine_cache } },
};

/* IP as "module+offset: disassembly", from the stopped process.  */
static void xd_describe(struct drv_proc *proc, uint64_t ip, char *out,
			size_t len)
{
	char where[256];
	uint8_t buf[16];
	ZydisDisassembledInstruction zi;
	long n;

	xc_where(proc->pid, ip, where, sizeof(where));
	n = nat_mem_read(&proc->mem, ip, buf, sizeof(buf));
	if (n > 0)
		int3_shadow(&proc->sites, ip, buf, (size_t) n);
	if (n <= 0 || !ZYAN_SUCCESS(ZydisDisassembleATT(
			    ZYDIS_MACHINE_MODE_LONG_64, ip, buf, (size_t) n,
			    &zi)))
		snprintf(out, len, "%#llx %s: (unreadable)",
			 (unsigned long long) ip, where);
	else
		snprintf(out, len, "%#llx %s: %s", (unsigned long long) ip,
			 where, zi.text);
}

static void xd_report(struct drv_proc *proc, const char *what,
		      const struct drv_ips *truth, const struct drv_ips *got,
		      long at)
{
	char line[512];

	printf("  first difference at instruction %ld of %zu (%s has %zu)\n",
	       at, truth->count, what, got->count);
	for (long i = at > 4 ? at - 4 : 0; i <= at + 2; i++) {
		if (i < (long) truth->count) {
			xd_describe(proc, truth->ips[i], line, sizeof(line));
			printf("  %c[%ld] step %s\n", i == at ? '>' : ' ', i,
			       line);
		}
		if (i >= at && i < (long) got->count) {
			xd_describe(proc, got->ips[i], line, sizeof(line));
			printf("  %c[%ld] %-4s %s\n", i == at ? '>' : ' ', i,
			       what, line);
		}
	}
}

struct xd_run {
	char **argv;
	const char *in, *out, *func;
	size_t size, max_insns;
	bool quiet, no_vdso;
	long compared, diffs;
};

static int xd_start(struct xd_run *run, struct drv_proc *proc)
{
	int err = drv_start_argv(proc, run->argv, run->in, run->out,
				 run->func);

	if (err < 0) {
		printf("exact: %s: cannot start: %s\n", run->argv[0],
		       ps_errstr(err));
		drv_finish(proc);
		return err;
	}
	if (run->no_vdso && (err = xc_hide_vdso(proc)) < 0) {
		printf("exact: %s: cannot hide the vDSO: %s\n", run->argv[0],
		       ps_errstr(err));
		drv_finish(proc);
		return err;
	}
	proc->max_insns = run->max_insns;
	return 0;
}

/* One emulated run in FORMAT with CONFIG, compared with TRUTH.  */
static bool xd_trace(struct xd_run *run, const struct xd_config *cfg,
		     enum trace_format format, const struct drv_ips *truth)
{
	const char *fmt = format == trace_format_pt ? "pt" : "bts";
	struct drv_proc proc;
	struct drv_trace trace;
	struct drv_ips got;
	struct xc_ip_check ipc = { 0 };
	unsigned long npackets = 0;
	unsigned gaps = 0;
	bool ok = true;
	long at;
	int err;

	if (xd_start(run, &proc) < 0)
		return false;
	drv_ips_init(&got);
	drv_trace_init(&trace);
	err = drv_emulate(&proc, &cfg->config, format, run->size, &trace);
	if (err < 0) {
		printf("exact: %s cfg=%s fmt=%s: emulated run failed: %s\n",
		       run->argv[0], cfg->name, fmt, ps_errstr(err));
		ok = false;
		goto out;
	}
	if (format == trace_format_pt) {
		err = drv_check_packets(&trace.pt, &npackets);
		if (err < 0) {
			printf("exact: %s cfg=%s fmt=pt: packet decoder: %s\n",
			       run->argv[0], cfg->name, pt_errstr(
				       pt_errcode(err)));
			ok = false;
		}
		xc_check_ips(&proc, &trace.pt, &ipc);
		if (ipc.unmapped || ipc.error) {
			printf("exact: %s cfg=%s fmt=pt: query decoder: %lu "
			       "of %lu IPs unmapped (first %#llx)%s%s\n",
			       run->argv[0], cfg->name, ipc.unmapped, ipc.ips,
			       (unsigned long long) ipc.first_unmapped,
			       ipc.error ? ", error: " : "",
			       ipc.error ? pt_errstr(pt_errcode(ipc.error))
			       : "");
			ok = false;
		}
		drv_decode_pt(&proc, &trace.pt, &got, &gaps);
	} else {
		drv_expand_bts(&proc, trace.blocks, trace.nblocks, &got);
		drv_fold_rep(&proc, &got);
	}
	at = drv_first_diff(truth, &got);
	run->compared += (long) (got.count < truth->count ? got.count
				 : truth->count);
	if (at >= 0 || gaps || trace.status.gaps) {
		printf("exact: %s cfg=%s fmt=%s DIFF insns=%zu got=%zu "
		       "gaps=%u emu_gaps=%llu\n", run->argv[0], cfg->name, fmt,
		       truth->count, got.count, gaps,
		       (unsigned long long) trace.status.gaps);
		if (at >= 0)
			xd_report(&proc, fmt, truth, &got, at);
		ok = false;
	} else if (!run->quiet) {
		printf("exact: %s cfg=%s fmt=%s ok insns=%zu packets=%lu "
		       "ips=%lu stops=%llu\n", run->argv[0], cfg->name, fmt,
		       got.count, npackets, ipc.ips,
		       (unsigned long long) trace.status.stops);
	}
out:
	if (!ok)
		run->diffs++;
	drv_finish(&proc);
	drv_trace_fini(&trace);
	drv_ips_fini(&got);
	return ok;
}

static int xd_usage(void)
{
	fprintf(stderr, "usage: exact_diff [-f FUNC] [-i STDIN] [-o STDOUT] "
		"[-c none,ret,jcc,both,cache] [-F pt,bts] [-s RING_MB] "
		"[-n MAX_INSNS] [-V] [-q] "
		"PROG [ARGS...]\n");
	return 2;
}

int main(int argc, char *argv[])
{
	struct xd_run run = { .size = 64u << 20 };
	const char *configs = "none,both", *formats = "pt,bts";
	struct drv_proc proc;
	struct drv_ips truth;
	char why[256];
	long n;
	int opt;

	while ((opt = getopt(argc, argv, "+f:i:o:c:F:s:n:Vq")) != -1) {
		switch (opt) {
		case 'f': run.func = optarg; break;
		case 'i': run.in = optarg; break;
		case 'o': run.out = optarg; break;
		case 'c': configs = optarg; break;
		case 'F': formats = optarg; break;
		case 's': run.size = strtoul(optarg, NULL, 0) << 20; break;
		case 'n': run.max_insns = strtoul(optarg, NULL, 0); break;
		case 'q': run.quiet = true; break;
		case 'V': run.no_vdso = true; break;
		default: return xd_usage();
		}
	}
	if (optind >= argc || !run.size)
		return xd_usage();
	run.argv = &argv[optind];
	if (!xc_ptrace_works(why, sizeof(why))) {
		printf("SKIP: ptrace does not work here: %s\n", why);
		return 77;
	}

	drv_ips_init(&truth);
	if (xd_start(&run, &proc) < 0)
		return 2;
	n = drv_truth(&proc, &truth);
	drv_finish(&proc);
	if (n == -pse_range || n <= 0) {
		/* The sanitized build's leak check would turn either exit
		   into 1, a difference.  */
		drv_ips_fini(&truth);
		if (n == -pse_range) {
			printf("exact: %s: longer than %zu instructions: not "
			       "compared\n", run.argv[0], run.max_insns);
			return 3;
		}
		printf("exact: %s: single-step run failed: %s\n", run.argv[0],
		       ps_errstr((int) n));
		return 2;
	}
	for (size_t c = 0; c < sizeof(xd_configs) / sizeof(*xd_configs);
	     c++) {
		if (!xc_listed(configs, xd_configs[c].name))
			continue;
		if (xc_listed(formats, "pt"))
			xd_trace(&run, &xd_configs[c], trace_format_pt, &truth);
		if (xc_listed(formats, "bts"))
			xd_trace(&run, &xd_configs[c], trace_format_bts, &truth);
	}
	printf("exact: %s truth=%zu compared=%ld diffs=%ld\n", run.argv[0],
	       truth.count, run.compared, run.diffs);
	drv_ips_fini(&truth);
	return run.diffs ? 1 : 0;
}
