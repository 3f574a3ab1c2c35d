/* exact_threads: every thread of a program recorded through the trace
   emulator, with all-stop rounds as GDB makes them (SIGSTOP to every
   running thread, wait until all are stopped, resume all through
   emu_prepare), until the program ends.  The run must end as it does
   without recording: exit status 0, no signal the program did not ask
   for (a thread resumed at the wrong IP dies of SIGILL or SIGSEGV), and
   every thread's PT trace must decode without errors.

     exact_threads [-c] [-e ptrace|cache] [-F pt|bts] [-n STOPS]
                   [-r SEED] PROG [ARGS...]

   -n: on average one all-stop round per STOPS engine stops (random,
   from SEED; 0: none).  -c: the program's threads other than the main
   one run paths that do not depend on timing: each one's recorded
   trace must also equal its own single-step run (threads matched by
   creation order; the main thread's joins depend on timing).  -e: the
   emulator's engine (default: ptrace; cache: every thread runs in the
   code cache where it can).  Prints
   one summary line; exit 0 on a correct end, 1 otherwise, 77 if
   ptrace does not work.  */
#define _GNU_SOURCE
#include "testsuite/emu/emu_driver.h"
#include "testsuite/exact/exact_check.h"
#include "testsuite/exact/xt_truth.h"
#include "common/ps_error.h"

#include <getopt.h>
#include <intel-pt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

enum { xt_max = 1024 };

struct xt_thread {
	pid_t tid;
	bool running;
	bool stop_sent;       /* our SIGSTOP is on its way */
	bool held;            /* stopped by an all-stop round */
	int sig;              /* a signal to deliver at its next resume */
	/* The last events, printed when it dies of a bad signal.  */
	char log[16][96];
	unsigned nlog;
};

static void xt_log(struct xt_thread *t, const char *what, int status,
		   int how)
{
	struct user_regs_struct r = { 0 };

	ptrace(PTRACE_GETREGS, t->tid, 0, &r);
	snprintf(t->log[t->nlog++ % 16], sizeof(t->log[0]),
		 "%-8s status %#06x how %d rip %#llx rax %lld orig %lld", what,
		 status, how, r.rip, (long long) r.rax,
		 (long long) r.orig_rax);
}

struct xt_run {
	pid_t pid;
	struct emu *emu;
	struct xt_thread threads[xt_max];
	size_t count;
	enum trace_format format;
	unsigned long stops, rounds, bad_signals, traces, trace_errors;
	unsigned long packets;
	pid_t seen[xt_max * 4];   /* every thread ever traced */
	size_t nseen;
	int bad_sig;
	bool stopping;
};

/* For the watchdog: where a run that hangs stands.  */
static struct xt_run *xt_current;

static void xt_watchdog(int sig)
{
	struct xt_run *run = xt_current;

	(void) sig;
	printf("exact_threads: HANG stops=%lu rounds=%lu stopping=%d\n",
	       run->stops, run->rounds, run->stopping);
	for (size_t i = 0; i < run->count; i++) {
		struct xt_thread *t = &run->threads[i];
		struct user_regs_struct regs = { 0 };
		char where[256] = "";

		if (!t->running)
			ptrace(PTRACE_GETREGS, t->tid, 0, &regs);
		if (!t->running)
			xc_where(run->pid, regs.rip, where, sizeof(where));
		printf("  %d running=%d stop_sent=%d held=%d rip=%#llx %s "
		       "rax=%lld orig=%lld\n", (int) t->tid, t->running,
		       t->stop_sent, t->held, regs.rip, where,
		       (long long) regs.rax, (long long) regs.orig_rax);
	}
	fflush(stdout);
	_exit(3);
}

static struct xt_thread *xt_find(struct xt_run *run, pid_t tid)
{
	for (size_t i = 0; i < run->count; i++)
		if (run->threads[i].tid == tid)
			return &run->threads[i];
	return NULL;
}

static struct xt_thread *xt_add(struct xt_run *run, pid_t tid)
{
	struct xt_thread *t = xt_find(run, tid);

	if (t || run->count == xt_max)
		return t;
	t = &run->threads[run->count++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	if (run->nseen < sizeof(run->seen) / sizeof(*run->seen))
		run->seen[run->nseen++] = tid;
	emu_on_clone(run->emu, tid);
	emu_enable(run->emu, tid, run->format, 1u << 20);
	return t;
}

static void xt_drop(struct xt_run *run, pid_t tid)
{
	struct xt_thread *t = xt_find(run, tid);

	if (t)
		*t = run->threads[--run->count];
}

/* Resume T as the native layer does: the engine says how.  */
static void xt_resume(struct xt_run *run, struct xt_thread *t)
{
	enum emu_resume how = emu_resume_cont;
	int sig = t->sig;

	t->sig = 0;
	xt_log(t, "prepare<", sig, -1);
	if (emu_prepare(run->emu, t->tid, sig, false, &how) < 0)
		how = emu_resume_cont;
	xt_log(t, "prepare>", sig, how);
	ptrace(emu_ptrace_request(how), t->tid, 0, sig);
	t->running = true;
	t->held = false;
}

/* Every thread's trace so far decodes (packets), as GDB reads it at
   each stop.  */
static void xt_read_traces(struct xt_run *run)
{
	for (size_t i = 0; i < run->count && run->format == trace_format_pt;
	     i++) {
		struct ps_buf buf;
		unsigned long n = 0;

		ps_buf_init(&buf);
		if (emu_read_pt(run->emu, run->threads[i].tid, false,
				&buf) == 0 && buf.len) {
			run->traces++;
			if (drv_check_packets(&buf, &n) < 0)
				run->trace_errors++;
			run->packets += n;
		}
		ps_buf_fini(&buf);
	}
}

static void xt_stop_all(struct xt_run *run)
{
	run->stopping = true;
	for (size_t i = 0; i < run->count; i++) {
		struct xt_thread *t = &run->threads[i];

		if (t->running && !t->stop_sent) {
			syscall(SYS_tgkill, run->pid, t->tid, SIGSTOP);
			t->stop_sent = true;
		}
	}
}

/* All stopped: the round is over, everyone runs again.  */
static void xt_maybe_resume_all(struct xt_run *run)
{
	for (size_t i = 0; i < run->count; i++)
		if (run->threads[i].running)
			return;
	run->rounds++;
	run->stopping = false;
	xt_read_traces(run);
	for (size_t i = 0; i < run->count; i++)
		xt_resume(run, &run->threads[i]);
}

static int xt_loop(struct xt_run *run, unsigned long every)
{
	int status;

	for (;;) {
		enum emu_verdict verdict;
		enum emu_resume how;
		struct xt_thread *t;
		pid_t tid = waitpid(-1, &status, __WALL);
		int sig, event;

		if (tid < 0)
			return -1;
		t = xt_find(run, tid);
		if (!t && WIFSTOPPED(status)) {
			/* A new thread's first stop may come before the
			   clone event.  */
			t = xt_add(run, tid);
			if (!t)
				return -1;
			t->running = true;
		}
		if (WIFSTOPPED(status))
			xt_log(t, "stop", status, -1);
		emu_on_stop(run->emu, tid, status, &verdict, &how);
		run->stops++;
		if (WIFSTOPPED(status))
			xt_log(t, verdict == emu_consumed ? "consumed" :
			       "report", status, how);
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == run->pid)
				return status;
			xt_drop(run, tid);
			if (run->stopping)
				xt_maybe_resume_all(run);
			continue;
		}
		if (verdict == emu_consumed) {
			ptrace(emu_ptrace_request(how), tid, 0, 0);
			if (every && !run->stopping &&
			    (unsigned long) random() % every == 0)
				xt_stop_all(run);
			continue;
		}
		t->running = false;
		sig = WSTOPSIG(status);
		event = status >> 16;
		if (event == PTRACE_EVENT_CLONE) {
			unsigned long msg = 0;
			struct xt_thread *child;

			ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg);
			child = xt_add(run, (pid_t) msg);
			if (child && !child->running && !child->held)
				child->running = true;  /* its stop is coming */
			sig = 0;
		} else if (event) {
			sig = 0;
		} else if (sig == SIGSTOP) {
			/* Ours (it may come after another stop of the round
			   and a resume), or a new thread's first stop.  */
			t->stop_sent = false;
			sig = 0;
		} else if (sig == SIGILL || sig == SIGSEGV || sig == SIGBUS ||
			   sig == SIGTRAP) {
			if (!run->bad_signals++) {
				struct user_regs_struct regs;
				char where[256];

				run->bad_sig = sig;
				ptrace(PTRACE_GETREGS, tid, 0, &regs);
				xc_where(run->pid, regs.rip, where,
					 sizeof(where));
				printf("exact_threads: thread %d signal %d at "
				       "%#llx %s\n", (int) tid, sig, regs.rip,
				       where);
				for (unsigned k = t->nlog > 16 ? t->nlog - 16
				     : 0; k < t->nlog; k++)
					printf("  %s\n", t->log[k % 16]);
			}
		}
		t->sig = sig;
		if (run->stopping) {
			t->held = true;
			xt_maybe_resume_all(run);
			continue;
		}
		xt_resume(run, t);
	}
}

struct xt_compare {
	unsigned long threads, insns, diffs, gaps, wrapped;
};

/* A syscall interrupted by an all-stop round's SIGSTOP is run again
   (the kernel moves the IP back to it): the trace rightly holds it
   twice in a row where the single-step run, never stopped, has it
   once.  Fold such repeats.  */
static void xt_fold_restarts(struct xt_truth *truth, struct drv_ips *ips)
{
	size_t out = 0;

	for (size_t i = 0; i < ips->count; i++) {
		uint8_t op[2];

		if (out && ips->ips[i] == ips->ips[out - 1] &&
		    nat_mem_read(&truth->proc.mem, ips->ips[i], op, 2) == 2 &&
		    op[0] == 0x0f && op[1] == 0x05)
			continue;
		ips->ips[out++] = ips->ips[i];
	}
	ips->count = out;
}

/* Thread I's trace (TID) as instruction addresses, decoded against the
   single-step run's held image.  */
static long xt_decode(struct xt_run *run, struct xt_truth *truth, pid_t tid,
		      struct drv_ips *got, unsigned *gaps)
{
	long n;

	*gaps = 0;
	if (run->format == trace_format_pt) {
		struct ps_buf buf;

		ps_buf_init(&buf);
		n = emu_read_pt(run->emu, tid, false, &buf);
		if (n >= 0)
			n = drv_decode_pt(&truth->proc, &buf, got, gaps);
		ps_buf_fini(&buf);
	} else {
		struct trace_blocks blocks;

		trace_blocks_init(&blocks);
		n = emu_read_bts(run->emu, tid, emu_bts_read_all, false,
				 &blocks);
		if (n >= 0)
			n = drv_expand_bts(&truth->proc, blocks.block,
					   (long) blocks.len, got);
		trace_blocks_fini(&blocks);
	}
	if (n >= 0) {
		drv_fold_rep(&truth->proc, got);
		xt_fold_restarts(truth, got);
	}
	return n;
}

/* Every thread but the main one against its own single-step run.  */
static void xt_compare(struct xt_run *run, struct xt_truth *truth,
		       struct xt_compare *cmp)
{
	if (truth->count != run->nseen) {
		printf("exact_threads: %zu threads single-stepped, %zu "
		       "recorded\n", truth->count, run->nseen);
		cmp->diffs++;
		return;
	}
	for (size_t i = 1; i < run->nseen; i++) {
		struct drv_ips got;
		struct emu_status st;
		unsigned gaps;
		long d;

		if (emu_status(run->emu, run->seen[i], &st) == 0 && st.wraps) {
			cmp->wrapped++;   /* the ring lost its beginning */
			continue;
		}
		drv_ips_init(&got);
		drv_fold_rep(&truth->proc, &truth->ips[i]);
		cmp->threads++;
		if (xt_decode(run, truth, run->seen[i], &got, &gaps) < 0) {
			printf("exact_threads: thread %zu: trace does not "
			       "decode\n", i);
			cmp->diffs++;
			drv_ips_fini(&got);
			continue;
		}
		cmp->gaps += gaps;
		d = drv_first_diff(&truth->ips[i], &got);
		cmp->insns += got.count < truth->ips[i].count ? got.count
			: truth->ips[i].count;
		if (d >= 0) {
			char a[256] = "", b[256] = "";
			uint64_t ta = (size_t) d < truth->ips[i].count ?
				truth->ips[i].ips[d] : 0;
			uint64_t tb = (size_t) d < got.count ? got.ips[d] : 0;

			xc_where(truth->proc.pid, ta, a, sizeof(a));
			xc_where(truth->proc.pid, tb, b, sizeof(b));
			printf("exact_threads: thread %zu differs at "
			       "instruction %ld of %zu (recorded %zu): "
			       "single-step %#llx %s, trace %#llx %s\n", i,
			       d, truth->ips[i].count, got.count,
			       (unsigned long long) ta, a,
			       (unsigned long long) tb, b);
			cmp->diffs++;
		}
		drv_ips_fini(&got);
	}
}

int main(int argc, char *argv[])
{
	struct xt_truth truth;
	struct xt_compare cmp = { 0 };
	bool compare = false;
	struct xt_run run = { .format = trace_format_pt };
	struct nat_mem mem;
	struct int3_table sites;
	unsigned long every = 200, seed = 1, timeout = 60, gaps = 0;
	char why[256];
	static const struct emu_config cache = { .engine = emu_engine_cache };
	const struct emu_config *config = NULL;
	int opt, status;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+ce:F:n:r:t:")) != -1) {
		switch (opt) {
		case 'c': compare = true; break;
		case 'e':
			config = !strcmp(optarg, "cache") ? &cache : NULL;
			break;
		case 'F':
			run.format = !strcmp(optarg, "bts") ? trace_format_bts
				: trace_format_pt;
			break;
		case 'n': every = strtoul(optarg, NULL, 0); break;
		case 'r': seed = strtoul(optarg, NULL, 0); break;
		case 't': timeout = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: exact_threads [-c] "
				"[-e ptrace|cache] [-F pt|bts] [-n STOPS] "
				"[-r SEED] PROG [ARGS...]\n");
			return 2;
		}
	}
	if (optind >= argc)
		return 2;
	if (!xc_ptrace_works(why, sizeof(why))) {
		printf("SKIP: ptrace does not work here: %s\n", why);
		return 77;
	}
	srandom((unsigned) seed);
	xt_current = &run;
	signal(SIGALRM, xt_watchdog);
	alarm(timeout);
	if (compare && xt_truth_run(&truth, &argv[optind], 20000000) < 0) {
		printf("exact_threads: %s: the single-step run failed\n",
		       argv[optind]);
		return 2;
	}
	pid = fork();
	if (!pid) {
		personality(ADDR_NO_RANDOMIZE);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execv(argv[optind], &argv[optind]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return 2;
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE |
	       PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD);
	emu_pin_cpu(pid);
	nat_mem_init(&mem, pid);
	int3_table_init(&sites);
	if (emu_alloc(&run.emu, pid, &sites, &mem, config) < 0)
		return 2;
	run.pid = pid;
	xt_current = &run;
	xt_add(&run, pid);
	xt_resume(&run, &run.threads[0]);
	status = xt_loop(&run, every);
	if (compare) {
		xt_compare(&run, &truth, &cmp);
		xt_truth_fini(&truth);
	}
	/* Gaps are honest (an OVF, a dropped BTS stretch) but each one is
	   trace lost: count them.  */
	for (size_t i = 0; i < run.nseen; i++) {
		struct emu_status st;

		if (emu_status(run.emu, run.seen[i], &st) == 0)
			gaps += st.gaps;
	}
	emu_free(run.emu);
	int3_table_fini(&sites);
	nat_mem_fini(&mem);

	bool ok = status >= 0 && WIFEXITED(status) && !WEXITSTATUS(status) &&
		!run.bad_signals && !run.trace_errors && !cmp.diffs;
	printf("exact_threads: %s %s seed=%lu stops=%lu rounds=%lu "
	       "traces=%lu packets=%lu end=%s%d bad_signals=%lu (first %d) "
	       "trace_errors=%lu gaps=%lu\n", ok ? "ok" : "FAIL",
	       argv[optind], seed,
	       run.stops, run.rounds, run.traces, run.packets,
	       status >= 0 && WIFEXITED(status) ? "exit " : "signal ",
	       status < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status)
	       : WTERMSIG(status), run.bad_signals, run.bad_sig,
	       run.trace_errors, gaps);
	if (compare)
		printf("exact_threads: compared threads=%lu insns=%lu "
		       "diffs=%lu decoded_gaps=%lu wrapped=%lu\n",
		       cmp.threads, cmp.insns, cmp.diffs, cmp.gaps,
		       cmp.wrapped);
	return ok ? 0 : 1;
}
