/* What the code-cache engine's tests share: the engine's configuration,
   running a traced process until the engine reports a stop, counting
   the lines of its map that name the cache's mappings, and recording
   every thread of a threaded run.  */
#ifndef CC_FIXTURE_H
#define CC_FIXTURE_H

#include "nat/emu/cc_inject.h"
#include "testsuite/emu/emu_driver.h"

#include "nat/int3_table.h"
#include "common/ps_buf.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

static const struct emu_config cache_engine = { .engine = emu_engine_cache };

/* Run the process until the engine reports a stop; its status.  */
static inline int cc_fx_run_to_report(struct emu *emu, pid_t pid, int sig)
{
	enum emu_resume how;
	enum emu_verdict verdict;
	int status;

	cr_assert_eq(emu_prepare(emu, pid, sig, false, &how), 0);
	for (;;) {
		ptrace(emu_ptrace_request(how), pid, 0, 0);
		cr_assert_eq(waitpid(pid, &status, __WALL), pid);
		cr_assert_eq(emu_on_stop(emu, pid, status, &verdict, &how), 0);
		if (verdict == emu_report)
			return status;
	}
}

/* How many of PID's mappings are the engine's memfd named WHAT
   (CC_MAP_NAME(...); CC_MAP_NAME("") for any of them).  The mapping's
   path is compared from its start: the program's own paths (the
   folder the project sits in) may contain the same words.  */
static inline int cc_fx_maps_count(pid_t pid, const char *what)
{
	char path[64], line[4096], prefix[256];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) pid);
	snprintf(prefix, sizeof(prefix), "/memfd:%s", what);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *name = strchr(line, '/');

		n += name && strncmp(name, prefix, strlen(prefix)) == 0;
	}
	fclose(f);
	return n;
}

/* Every thread of a run of a corpus program's function (PROG run with
   ARG to the entry of run(), then to its return): the threads it
   creates are traced from their first instruction, each into its own
   ring; the traces are read at the end, the process still there.  */
enum { cc_fx_max_threads = 40 };

struct cc_fx_run {
	struct drv_proc proc;
	struct emu *emu;
	pid_t tids[cc_fx_max_threads];   /* in creation order, main first */
	size_t ntids;
	struct ps_buf pt[cc_fx_max_threads];
	struct emu_status st[cc_fx_max_threads];
	uint64_t text_lo, text_hi;      /* the program's own code */
};

static inline bool cc_fx_known(const pid_t *tids, size_t n, pid_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

/* The program's executable mapping.  */
static inline void cc_fx_text(struct cc_fx_run *run, const char *prog)
{
	char path[64], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) run->proc.pid);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
		    perms[2] == 'x' && strstr(line, prog)) {
			run->text_lo = lo;
			run->text_hi = hi;
		}
	}
	fclose(f);
	cr_assert_neq(run->text_hi, 0);
}

/* Each new thread is enabled at its clone event, as nat/ does for a
   traced parent.  TO_EXIT: the run goes to the main thread's exit event
   (its memory still there), every thread's exit event seen.  */
static inline void cc_fx_record_to(struct cc_fx_run *run, const char *prog,
				   const char *arg,
				   const struct emu_config *config,
				   bool to_exit)
{
	pid_t held[cc_fx_max_threads];
	size_t nheld = 0, live = 0;
	bool main_exiting = false;
	enum emu_resume how;
	int status;

	memset(run, 0, sizeof(*run));
	cr_assert_eq(drv_start(&run->proc, prog, arg, "run"), 0);
	cc_fx_text(run, prog);
	if (to_exit)
		cr_assert_eq(ptrace(PTRACE_SETOPTIONS, run->proc.pid, 0,
				    PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
				    PTRACE_O_TRACEVFORK | PTRACE_O_EXITKILL |
				    PTRACE_O_TRACESYSGOOD |
				    PTRACE_O_TRACEEXIT), 0);
	cr_assert_eq(emu_alloc(&run->emu, run->proc.pid, &run->proc.sites,
			       &run->proc.mem, config), 0);
	cr_assert_eq(emu_enable(run->emu, run->proc.pid, trace_format_pt,
				4u << 20), 0);
	run->tids[run->ntids++] = run->proc.pid;
	cr_assert_eq(int3_insert(&run->proc.sites, &run->proc.mem,
				 run->proc.ret, int3_owner_gdb), 0);
	cr_assert_eq(emu_prepare(run->emu, run->proc.pid, 0, false, &how), 0);
	ptrace(emu_ptrace_request(how), run->proc.pid, 0, 0);
	for (;;) {
		struct user_regs_struct regs;
		enum emu_verdict verdict;
		pid_t tid = waitpid(-1, &status, __WALL);
		int sig = 0;

		cr_assert_gt(tid, 0, "the process went away");
		if (!cc_fx_known(run->tids, run->ntids, tid)) {
			/* A new thread's first stop before its clone event:
			   held until then.  */
			cr_assert(WIFSTOPPED(status));
			held[nheld++] = tid;
			continue;
		}
		cr_assert_eq(emu_on_stop(run->emu, tid, status, &verdict,
					 &how), 0);
		if (verdict == emu_consumed) {
			ptrace(emu_ptrace_request(how), tid, 0, 0);
			continue;
		}
		if (status >> 16 == PTRACE_EVENT_EXIT && tid == run->proc.pid) {
			/* The others' ends may still be queued: each is
			   seen (main stays stopped, its memory there).  */
			main_exiting = true;
			if (!live)
				break;
			continue;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			cr_assert_neq(tid, run->proc.pid, "main ended");
			if (!--live && main_exiting)
				break;
			continue;
		}
		if (status >> 16 == PTRACE_EVENT_CLONE) {
			unsigned long msg = 0;
			pid_t child;
			int st;

			ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg);
			child = (pid_t) msg;
			cr_assert_lt(run->ntids, cc_fx_max_threads);
			if (!cc_fx_known(held, nheld, child))
				cr_assert_eq(waitpid(child, &st, __WALL), child);
			cr_assert_eq(emu_on_clone(run->emu, child), 0);
			cr_assert_eq(emu_enable(run->emu, child,
						trace_format_pt, 4u << 20), 0);
			run->tids[run->ntids++] = child;
			live++;
			cr_assert_eq(emu_prepare(run->emu, child, 0, false,
						 &how), 0);
			ptrace(emu_ptrace_request(how), child, 0, 0);
		} else if (WIFSTOPPED(status) && !(status >> 16)) {
			sig = WSTOPSIG(status);
			if (sig == SIGTRAP) {
				ptrace(PTRACE_GETREGS, tid, 0, &regs);
				if (int3_lookup(&run->proc.sites,
						regs.rip - 1)) {
					regs.rip -= 1;
					ptrace(PTRACE_SETREGS, tid, 0, &regs);
					if (tid == run->proc.pid &&
					    regs.rsp == run->proc.ret_sp)
						break;
					sig = 0;
				}
			}
			if (sig == SIGSTOP)
				sig = 0;
		}
		cr_assert_eq(emu_prepare(run->emu, tid, sig, false, &how), 0);
		ptrace(emu_ptrace_request(how), tid, 0, sig);
	}
	for (size_t i = 0; i < run->ntids; i++) {
		ps_buf_init(&run->pt[i]);
		cr_assert_eq(emu_status(run->emu, run->tids[i], &run->st[i]), 0);
		cr_assert_eq(emu_read_pt(run->emu, run->tids[i], false,
					 &run->pt[i]), 0);
	}
}

static inline void cc_fx_record(struct cc_fx_run *run, const char *prog,
				const char *arg,
				const struct emu_config *config)
{
	cc_fx_record_to(run, prog, arg, config, false);
}

/* Thread I's instructions in the program's own code, decoded (with a 0
   at each gap).  */
static inline void cc_fx_own_ips(struct cc_fx_run *run, size_t i,
				 struct drv_ips *out, unsigned *gaps)
{
	struct drv_ips all;

	drv_ips_init(&all);
	drv_decode_pt_marked(&run->proc, &run->pt[i], &all, gaps);
	for (size_t k = 0; k < all.count; k++)
		if (!all.ips[k] || (all.ips[k] >= run->text_lo &&
				    all.ips[k] < run->text_hi))
			drv_ips_push(out, all.ips[k]);
	drv_ips_fini(&all);
}

/* Whether every piece of GOT between gaps is found whole in WANT, in
   order (a trace with honest gaps, nothing wrong in it); *COVERED gets
   the instructions matched.  */
static inline bool cc_fx_pieces_in(const struct drv_ips *want,
				   const struct drv_ips *got,
				   size_t *covered)
{
	size_t from = 0, k = 0;

	*covered = 0;
	while (k < got->count) {
		size_t len = 0, at;

		while (k + len < got->count && got->ips[k + len])
			len++;
		for (at = from; at + len <= want->count; at++)
			if (!memcmp(&want->ips[at], &got->ips[k],
				    len * sizeof(uint64_t)))
				break;
		if (at + len > want->count)
			return false;
		from = at + len;
		*covered += len;
		k += len + 1;
	}
	return true;
}

static inline void cc_fx_finish(struct cc_fx_run *run)
{
	for (size_t i = 0; i < run->ntids; i++)
		ps_buf_fini(&run->pt[i]);
	emu_free(run->emu);
	drv_finish(&run->proc);
}

#endif
