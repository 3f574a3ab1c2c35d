/* The recorder's event loop: trace every thread, let the program run as
   it would alone, and write a snapshot when a trigger fires.  */
#include "rec/recorder.h"
#include "nat/btrace.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "nat/procinfo.h"
#include "btrace/ptbundle.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

/* --full drains the rings this often (the emulator fills 4 MiB in no
   less than a few seconds).  */
#define REC_DRAIN_SIGNAL (SIGRTMIN + 1)
#define REC_DRAIN_MS 200

static int rec_drain_timer(struct recorder *rec)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = REC_DRAIN_SIGNAL };
	struct itimerspec its = {
		.it_interval = { 0, REC_DRAIN_MS * 1000000L },
		.it_value = { 0, REC_DRAIN_MS * 1000000L },
	};

	if (timer_create(CLOCK_MONOTONIC, &sev, &rec->timer) < 0)
		return -pse_io;
	rec->has_timer = 1;
	return timer_settime(rec->timer, 0, &its, NULL) < 0 ? -pse_io : 0;
}

static void rec_new_thread(void *ctx, struct nat_thread *thread)
{
	/* A thread that cannot be traced is reported by rec_trace_thread
	   and runs on untraced.  */
	(void) rec_trace_thread(ctx, thread);
}

int rec_init(struct recorder *rec, struct nat_target *target,
	     const struct rec_options *opts)
{
	sigset_t mask;

	memset(rec, 0, sizeof(*rec));
	rec->target = target;
	rec->opts = *opts;
	rec->sigfd = -1;
	target->btrace_policy = opts->policy;
	target->btrace_engine = opts->engine;
	target->report_exec = 1;
	target->report_fork = opts->inherit;
	target->report_vfork = opts->inherit;
	target->report_exit = opts->at_exit || opts->full || opts->stats;
	target->on_new_thread = rec_new_thread;
	target->on_new_thread_ctx = rec;
	target->on_map_change = rec_map_change;
	target->on_thread_exit = rec_thread_exit;

	/* SIGUSR2 asks for a snapshot; SIGINT and SIGTERM end an attached
	   recording.  They come through a signalfd so that the wait for the
	   program can poll it; the program's own mask is reset at exec.  */
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, REC_DRAIN_SIGNAL);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -pse_io;
	rec->sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (rec->sigfd < 0)
		return -pse_io;
	return opts->full ? rec_drain_timer(rec) : 0;
}

void rec_fini(struct recorder *rec)
{
	if (rec->has_timer)
		timer_delete(rec->timer);
	if (rec->sigfd >= 0)
		close(rec->sigfd);
	for (size_t i = 0; i < rec->nspaces; i++)
		rec_space_free(rec->spaces[i]);
	free(rec->spaces);
	rec->spaces = NULL;
	rec->nspaces = rec->spaces_cap = 0;
	rec_full_fini(rec);
	rec_ended_fini(rec);
}

int rec_trace_thread(struct recorder *rec, struct nat_thread *thread)
{
	char reason[256] = "";
	int err;

	if (thread->btrace)
		return 0;
	err = nat_btrace_enable(rec->target, thread, rec->opts.format,
				rec->opts.size, reason, sizeof(reason));
	if (err < 0)
		fprintf(rec->opts.log, "ptstub: cannot trace thread %d: %s\n",
			(int) thread->tid, reason[0] ? reason : ps_errstr(err));
	return err;
}

static int rec_trace_process(struct recorder *rec, struct nat_process *proc)
{
	int err = 0;

	for (struct nat_thread *t = proc->threads; t; t = t->next)
		if (rec_trace_thread(rec, t) < 0)
			err = -pse_unsupported;
	return err;
}

int rec_start(struct recorder *rec, char *const argv[])
{
	struct nat_process *proc;
	struct rec_space *sp;
	char why[1024], *file;
	int status, err;

	/* PROG itself, found here as execvp would: the first exec the
	   recording sees is the program's, and a program that cannot run
	   is named with the reason.  */
	err = rec_find_program(argv[0], getenv("PATH"), &file, why,
			       sizeof(why));
	if (err < 0) {
		fprintf(rec->opts.log, "ptstub: cannot run %s\n", why);
		/* As a shell would: 127 not found, 126 found but not
		   runnable.  */
		rec->start_status = err == -ENOENT ? 127 : 126;
		return -pse_noproc;
	}
	rec->target->start.exec_path = file;
	err = nat_create_inferior(rec->target, argv, &rec->pid, &status);
	rec->target->start.exec_path = NULL;
	if (err < 0) {
		int e = errno;

		if (e)
			rec_exec_error(file, e, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "%s: it exited at once",
				 file);
		fprintf(rec->opts.log, "ptstub: cannot run %s\n", why);
		rec->start_status = !e ? status : e == ENOENT ? 127 : 126;
		free(file);
		return err;
	}
	free(file);
	proc = nat_find_process(rec->target, rec->pid);
	err = rec_trace_process(rec, proc);
	sp = rec_space_new(rec, rec->pid, NULL);
	if (!err && !sp)
		err = -pse_nomem;
	if (!err)
		err = rec_sideband_add(sp, bts_exec, rec->pid, NULL);
	return err;
}

int rec_attach(struct recorder *rec, pid_t pid)
{
	int err = nat_attach(rec->target, pid);

	if (err < 0) {
		fprintf(rec->opts.log, "ptstub: cannot attach to process %d: "
			"%s\n", (int) pid, ps_errstr(err));
		return err;
	}
	rec->pid = pid;
	if (!rec_space_new(rec, pid, NULL))
		return -pse_nomem;
	return rec_trace_process(rec, nat_find_process(rec->target, pid));
}

/* The hook nat_wait polls: a signal for ptstub stops the wait.  */
static int rec_signal_readable(void *ctx)
{
	struct recorder *rec = ctx;
	struct signalfd_siginfo si;
	int stop = 0;

	while (read(rec->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if ((int) si.ssi_signo == REC_DRAIN_SIGNAL)
			rec->want_drain = 1;
		else if (si.ssi_signo == SIGUSR2)
			rec->want_snapshot++;
		else if (rec->target->procs && rec->target->procs->attached)
			rec->want_detach = 1;
		else {
			/* A terminal's SIGINT reached the program too; one
			   sent to ptstub alone is passed on, as to a
			   wrapper.  */
			if (si.ssi_code == SI_USER || si.ssi_code == SI_QUEUE)
				kill(rec->pid, (int) si.ssi_signo);
			continue;
		}
		stop = 1;
	}
	return stop ? -pse_interrupted : 0;
}

/* Whether SIG kills the program: a fatal signal it neither catches nor
   ignores (a fault's signal kills even when ignored).  */
static int rec_is_fatal(struct nat_thread *thread, int sig)
{
	char path[64], line[256];
	unsigned long long caught = 0, ignored = 0;
	uint8_t info[128];
	int32_t code = 0;
	FILE *f;

	if (sig != SIGSEGV && sig != SIGBUS && sig != SIGILL &&
	    sig != SIGFPE && sig != SIGABRT)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/status",
		 (int) thread->proc->pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "SigCgt: %llx", &caught);
		sscanf(line, "SigIgn: %llx", &ignored);
	}
	fclose(f);
	if (caught & (1ull << (sig - 1)))
		return 0;
	if (!(ignored & (1ull << (sig - 1))))
		return 1;
	if (nat_thread_siginfo(thread, info, sizeof(info)) == 0)
		memcpy(&code, info + 8, 4);
	return code > 0;   /* sent by the kernel: a fault */
}

static void rec_resume_all(struct recorder *rec, pid_t tid, int sig)
{
	struct nat_resume actions[2] = {
		{ -1, tid, nat_resume_cont, sig },
		{ -1, -1, nat_resume_cont, 0 },
	};

	if (tid)
		nat_resume(rec->target, actions, 2);
	else
		nat_resume(rec->target, &actions[1], 1);
}

static void rec_take(struct recorder *rec, struct nat_process *proc,
		     uint32_t kind, pid_t tid, int sig, int core)
{
	struct rec_trigger t = { kind, tid, sig, 0, NULL };
	struct rec_space *sp = rec_space_of(rec, proc->pid);

	if (kind == btt_function && sp) {
		t.address = sp->trigger_addr;
		t.name = rec->opts.trigger;
	}
	rec_full_drain(rec);
	/* --full writes one bundle, at the end (exit, crash, detach, or
	   the --trigger function).  */
	if (rec->opts.full && kind == btt_request)
		return;
	/* A --full bundle is the whole story: with the core, GDB can look
	   at it through --postmortem too.  */
	rec_snapshot(rec, proc, &t, core || rec->opts.full);
	/* The process's last bundle: no other at its exit.  */
	if (sp && (rec->opts.full || kind == btt_signal || kind == btt_exit))
		sp->final_taken = 1;
}

/* The program is about to die of SIG in THREAD: its last snapshot, with
   the core, and the traps out of its memory before the kernel dumps it. */
static void rec_crash(struct recorder *rec, struct nat_thread *thread, int sig)
{
	struct nat_process *proc = thread->proc;

	rec_take(rec, proc, btt_signal, thread->tid, sig, 1);
	for (struct nat_thread *t = proc->threads; t; t = t->next)
		if (t->btrace)
			nat_btrace_disable(rec->target, t);
}

/* Entry to the --trigger function in THREAD: each process counts its
   own entries (a fork child from the fork) and snapshots at its Nth.  */
static int rec_function_hit(struct recorder *rec, struct rec_space *sp,
			    struct nat_thread *thread)
{
	struct nat_process *proc = thread->proc;

	if (++sp->trigger_hits == rec->opts.trigger_count) {
		rec_take(rec, proc, btt_function, thread->tid, 0, 0);
		nat_remove_breakpoint(proc, sp->trigger_addr);
		sp->trigger_addr = 0;
		return 0;
	}
	return nat_step_over_breakpoint(rec->target, thread);
}

int rec_arm_trigger(struct recorder *rec, struct rec_space *sp)
{
	struct nat_process *proc = sp ? nat_find_process(rec->target, sp->pid)
		: NULL;
	int err;

	if (!rec->opts.trigger || !proc)
		return 0;
	err = rec_symbol_lookup(sp->pid, rec->opts.trigger,
				&sp->trigger_addr);
	if (err < 0) {
		struct ps_buf exe;

		sp->trigger_addr = 0;
		fprintf(rec->opts.log, "ptstub: --trigger=%s: %s\n",
			rec->opts.trigger, err == -pse_notfound ?
			"no such function in the program's symbols" :
			ps_errstr(err));
		ps_buf_init(&exe);
		if (procinfo_exe_path(sp->pid, &exe) == 0 && exe.len)
			fprintf(rec->opts.log, "ptstub: (the program is %s)\n",
				exe.data);
		ps_buf_fini(&exe);
		return -pse_notfound;
	}
	return nat_insert_breakpoint(proc, sp->trigger_addr);
}

/* Where the exec of EV came in its thread's trace: what the ring had
   recorded (the old program's last branches are in by now: the thread
   stopped in the exec) and, with --full, what its stream holds.  */
static void rec_exec_place(struct recorder *rec, struct rec_space *sp,
			   const struct nat_event *ev)
{
	struct nat_thread *t = nat_find_thread(rec->target, ev->pid, ev->tid);
	struct rec_exec_at at = { 0, 0, 0 };
	struct nat_btrace_status st;

	if (!t || !t->btrace)
		return;
	/* Drain first: the drain flushes bits the status would miss.  */
	rec_full_drain(rec);
	if (nat_btrace_status(t, &st) < 0)
		return;
	at.known = 1;
	at.ring = st.recorded;
	for (size_t i = 0; i < rec->nstreams; i++)
		if (rec->streams[i].tid == ev->tid)
			at.stream = rec->streams[i].len /
				(rec->streams[i].bts ? 16 : 1);
	rec_sideband_exec_at(sp, &at);
}

/* --stats: what each thread of PROC recorded and how, as `monitor
   btrace status` words it, when the process ends.  */
static void rec_stats(struct recorder *rec, struct nat_process *proc)
{
	struct ps_buf out;

	ps_buf_init(&out);
	for (struct nat_thread *t = nat_process_first_thread(proc); t;
	     t = nat_thread_next(t)) {
		struct nat_btrace_status st;

		if (nat_btrace_status(t, &st) < 0 || !st.emulated)
			continue;
		ps_buf_puts(&out, "ptstub record: ");
		nat_btrace_engine_line(&out, (int) nat_process_pid(proc),
				       (int) nat_thread_tid(t), &st);
	}
	if (out.len)
		fputs(out.data, rec->opts.log);
	ps_buf_fini(&out);
}

/* One event from the program: 1 when the main process is gone.  */
static int rec_event(struct recorder *rec, const struct nat_event *ev,
		     int *status)
{
	struct rec_space *sp = rec_space_of(rec, ev->pid);
	struct nat_thread *thread;
	struct nat_process *proc;

	switch (ev->kind) {
	case nat_ev_exited:
	case nat_ev_signalled:
		if (ev->pid != rec->pid) {
			rec_ended_forget(rec, ev->pid);
			break;
		}
		*status = ev->kind == nat_ev_exited ? (ev->status & 0xff) << 8
			: ev->sig;
		return 1;
	case nat_ev_forked:
	case nat_ev_vforked:
		proc = nat_find_process(rec->target, ev->child);
		if (!proc)
			break;
		rec_trace_process(rec, proc);
		/* Its own side-band and trigger: the child counts its own
		   entries, even where its parent's trigger already fired.  */
		sp = rec_space_new(rec, proc->pid, sp);
		if (sp && rec->opts.trigger)
			rec_arm_trigger(rec, sp);
		break;
	case nat_ev_execd:
		if (!sp)
			break;
		rec_sideband_add(sp, bts_exec, ev->tid, ev->path);
		rec_exec_place(rec, sp, ev);
		/* The old program's ended threads ran code that is gone.  */
		rec_ended_forget(rec, ev->pid);
		sp->ended_dropped = 0;
		sp->ended_dropped_bytes = 0;
		/* A new program: its function is elsewhere, if anywhere.  */
		if (sp->trigger_addr)
			rec_arm_trigger(rec, sp);
		break;
	case nat_ev_stopped:
		thread = nat_find_thread(rec->target, ev->pid, ev->tid);
		if (!thread)
			break;
		if (ev->exiting) {
			if (rec->opts.stats && ev->tid == ev->pid)
				rec_stats(rec, thread->proc);
			if ((rec->opts.at_exit || rec->opts.full) && sp &&
			    !sp->final_taken)
				rec_take(rec, thread->proc, rec->opts.full ?
					 btt_full : btt_exit, ev->tid, 0, 0);
			break;
		}
		if (ev->sig == SIGTRAP && ev->reason == nat_stop_swbreak &&
		    sp && sp->trigger_addr) {
			rec_function_hit(rec, sp, thread);
			/* --full with the program's trigger: the recording
			   ends there, the program goes on alone.  */
			if (ev->pid == rec->pid && sp->final_taken) {
				rec->want_detach = 1;
				return 1;
			}
			rec_resume_all(rec, 0, 0);
			return 0;
		}
		if (rec_is_fatal(thread, ev->sig))
			rec_crash(rec, thread, ev->sig);
		rec_resume_all(rec, ev->tid, ev->sig == SIGTRAP ? 0 : ev->sig);
		return 0;
	default:
		break;
	}
	rec_resume_all(rec, 0, 0);
	return 0;
}

int rec_run(struct recorder *rec, int *status)
{
	struct nat_wait_hook hook = {
		.fd = rec->sigfd, .readable = rec_signal_readable, .ctx = rec,
	};
	struct nat_event ev;
	int err;

	*status = 0;
	if (rec_arm_trigger(rec, rec_space_of(rec, rec->pid)) < 0)
		return -pse_notfound;
	rec_resume_all(rec, 0, 0);
	for (;;) {
		err = nat_wait(rec->target, &ev, &hook);
		if (err == -pse_interrupted) {
			struct nat_process *proc;

			nat_stop(rec->target);
			/* Each traced process its own file: the program's
			   first, then its children's.  */
			for (; rec->want_snapshot; rec->want_snapshot--)
				for (size_t i = 0; i < rec->nspaces; i++) {
					proc = nat_find_process(rec->target,
						rec->spaces[i]->pid);
					if (proc)
						rec_take(rec, proc, btt_request,
							 0, 0, 0);
				}
			if (rec->want_drain)
				rec_full_drain(rec);
			rec->want_snapshot = 0;
			rec->want_drain = 0;
			if (rec->want_detach)
				break;
			rec_resume_all(rec, 0, 0);
			continue;
		}
		if (err < 0)
			return err;
		if (ev.kind == nat_ev_no_resumed)
			break;
		if (rec_event(rec, &ev, status)) {
			if (rec->want_detach)
				break;
			return 0;
		}
	}
	/* Attached and told to stop, or nothing left to run.  */
	for (size_t i = 0; (rec->opts.full || rec->opts.at_exit) &&
	     i < rec->nspaces; i++) {
		struct nat_process *proc = nat_find_process(rec->target,
							    rec->spaces[i]->pid);

		if (proc && !rec->spaces[i]->final_taken)
			rec_take(rec, proc, rec->opts.full ? btt_full
				 : btt_exit, 0, 0, 0);
	}
	/* --attach ends here, its program running on: the lines its
	   exit would have given.  */
	for (struct nat_process *p = rec->target->procs;
	     rec->opts.stats && p; p = p->next)
		rec_stats(rec, p);
	while (rec->target->procs)
		nat_detach(rec->target, rec->target->procs->pid);
	return 0;
}
