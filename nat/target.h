/* The Linux native target: the processes and threads ptstub controls
   through ptrace, with gdbserver's all-stop semantics, or its non-stop
   ones (each thread stops and runs on its own).  The server layer above
   speaks only to this interface.

   The structs below stay visible because nat/ and rec/ use their
   fields, but server/ must not touch them: it reads and sets them only
   through the functions of this header (the accessors at its end,
   nat/target_access.c), so nat/ can change its bookkeeping alone.  */
#ifndef NAT_TARGET_H
#define NAT_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "nat/catch_syscall.h"
#include "nat/debugregs.h"
#include "nat/int3_table.h"
#include "nat/mem.h"
#include "nat/tsc_clock.h"

struct amd64_regs;
struct emu;
struct nat_btrace;

/* Why a thread stopped, as far as the client is told.  */
enum nat_stop_reason {
	nat_stop_none,
	nat_stop_swbreak,   /* one of GDB's int3s; PC is already backed up */
	nat_stop_hwbreak,   /* a debug-register breakpoint */
	nat_stop_watch,     /* a write watchpoint; data_addr says where */
	nat_stop_rwatch,
	nat_stop_awatch,
	nat_stop_step,      /* a single-step completed */
	nat_stop_syscall_entry,   /* a caught syscall; data_addr its number */
	nat_stop_syscall_return,
	nat_stop_thread_created,  /* a new thread's first stop (QThreadEvents) */
};

enum nat_event_kind {
	nat_ev_stopped,     /* sig says which signal (host numbering) */
	nat_ev_exited,      /* status is the exit code */
	nat_ev_signalled,   /* sig killed it */
	nat_ev_forked,      /* child is the new process, stopped */
	nat_ev_vforked,
	nat_ev_vfork_done,
	nat_ev_execd,       /* path is the new image */
	nat_ev_no_resumed,  /* nothing left running to wait for */
	nat_ev_thread_exited, /* tid exited (QThreadEvents); status its code */
	nat_ev_thread_created, /* tid is new, held at its first instruction
				  (QThreadEvents) */
};

struct nat_event {
	enum nat_event_kind kind;
	pid_t pid, tid;
	int sig;
	int status;
	pid_t child;
	enum nat_stop_reason reason;
	uint64_t data_addr;
	/* report_exit: a stopped leader that is exiting (sig 0), its
	   memory still there; status is its exit code.  */
	int exiting;
	/* Non-stop: the client had asked this thread to stop (vCont;t)
	   when this other event came first; a server that swallows the
	   event owes the client that stop instead.  */
	int stop_requested;
	char path[4096];
};

enum nat_resume_kind {
	nat_resume_cont,
	nat_resume_step,
	nat_resume_stop,
	/* Left as it is: a thread the client has yet to take the stop of
	   (non-stop, ahead of a wildcard action).  */
	nat_resume_none,
};

enum nat_thread_state {
	nat_thread_stopped,
	nat_thread_running,
};

struct nat_process;

struct nat_thread {
	pid_t tid;
	struct nat_process *proc;
	enum nat_thread_state state;

	/* A wait status taken from the kernel but not yet reported.  */
	int has_pending;
	int pending_status;
	enum nat_stop_reason pending_reason;
	uint64_t pending_data_addr;
	uint64_t pending_pc;   /* for a swbreak: the site's address */
	pid_t pending_child;   /* for a fork or vfork event */

	/* We sent it a SIGSTOP that it has not reported yet.  */
	int stop_expected;
	/* The client resumed it last time (vCont named it).  */
	int resumed;
	/* Non-stop: the client asked it to stop (vCont;t); its SIGSTOP is
	   reported, as signal 0.  */
	int stop_requested;
	/* The client was told it stopped (its own event, or all-stop
	   stopping everything), and with which host signal (0: along with
	   another thread): what '?' in non-stop reports.  */
	int stop_known;
	int last_sig;
	enum nat_resume_kind resume_kind;
	/* Its last resume was a single-step.  */
	int stepping;
	/* A signal to deliver when it next runs, without a report.  */
	int deliver_sig;
	/* Its debug registers lag behind the process's wanted state.  */
	int dr_stale;
	/* A leader that exited while other threads of its process live:
	   the kernel reports its end only with the last one's, so nobody
	   waits for it, the client does not see it, and it never runs.  */
	int zombie;

	/* Fetched on demand after a stop; written back before it runs.  */
	struct amd64_regs *regs;
	int regs_valid;

	/* Its branch trace, when the client enabled one.  */
	struct nat_btrace *btrace;

	struct nat_thread *next;
};

struct nat_process {
	pid_t pid;
	int attached;       /* attached to (detach on exit), not started */
	int exited;
	struct nat_thread *threads;
	struct nat_mem mem;
	struct int3_table int3s;
	struct nat_debugregs dr;
	pid_t vfork_parent; /* for a vfork child: whose memory it shares */
	/* A fork or vfork child whose parent's event the client has not
	   been told yet: no thread of it is listed (the client would take
	   it for a new inferior of its own) and no wildcard resumes it, as
	   in gdbserver.  */
	int fork_unreported;
	pid_t fork_parent;  /* for a fork or vfork child: its parent */
	/* The trace emulator, while any thread is traced through it (a
	   vfork child borrows its parent's: they share the memory).  */
	struct emu *emu;
	int emu_borrowed;
	/* QCatchSyscalls: its threads run under PTRACE_SYSCALL.  */
	struct nat_catch_syscall catch_syscalls;
	struct nat_process *next;
};

/* How ptstub starts programs.  */
struct nat_start_opts {
	int disable_randomization;
	int startup_with_shell;
	const char *shell;          /* NULL: $SHELL, else /bin/sh */
	const char *cwd;            /* NULL: ptstub's own */
	/* --wrapper: a command the program is run through ("env A=1"),
	   words the shell splits; NULL for none.  */
	const char *wrapper;
	char *const *envp;          /* NULL: ptstub's own environment */
	/* Without a shell or wrapper: the file to execve with argv as
	   given (the caller searched PATH); NULL: execvp's search of
	   argv[0].  */
	const char *exec_path;
	/* The client talks over our stdin/stdout: the program gets
	   /dev/null and our stderr instead.  */
	int keep_stdio_free;
};

/* Host signal tables' size: signals 1 to 64, by number.  */
#define NAT_SIGNALS 65

struct nat_target {
	struct nat_process *procs;
	struct nat_start_opts start;

	/* Non-stop: an event stops only its own thread (QNonStop:1).  */
	int non_stop;

	/* Which events the client asked to see (qSupported).  */
	int report_fork, report_vfork, report_exec;
	/* Stop each process's leader as it exits (PTRACE_O_TRACEEXIT), for
	   the recorder; set before the program starts.  */
	int report_exit;
	/* QThreadEvents:1: a thread's exit is an event (GDB stopping every
	   thread of a non-stop target must hear of those that are gone).  */
	int report_thread_exit;
	/* QThreadEvents:1 too: a new thread is an event of its own, held
	   stopped until reported, as gdbserver does.  */
	int report_thread_create;

	/* Host signals to deliver without a stop (QPassSignals).  */
	uint8_t pass_signals[NAT_SIGNALS];
	/* Host signals the program may have (QProgramSignals): a signal
	   the client was told of is delivered at detach if listed; without
	   the packet, all but SIGTRAP and SIGINT, as gdbserver.  */
	uint8_t program_signals[NAT_SIGNALS];
	int program_signals_set;

	int sigchld_fd;       /* signalfd for SIGCHLD */
	/* A SIGCHLD taken from it by a wait for one thread's stop, to be
	   raised again (wait_round.c).  */
	int sigchld_owed;
	/* Set (by a signal handler) when the session must end: a wait
	   that may last gives up (nat_target_set_quit); NULL for never.  */
	const volatile sig_atomic_t *quit;
	/* The TSC against the clock from the start: what turns the
	   emulated trace's time into nanoseconds.  */
	struct nat_tsc_clock tsc_clock;
	/* The thread whose event was reported last: the next pick starts
	   after it, so threads that keep hitting a breakpoint nobody sees
	   (a false condition) cannot starve the others' events.  */
	pid_t last_event_tid;
	int btrace_policy;    /* enum nat_btrace_policy */
	int btrace_engine;    /* enum nat_btrace_engine */

	/* Stops of threads not known yet: a new thread or fork child can
	   report before its parent's event names it.  */
	struct { pid_t tid; int status; } orphans[64];
	unsigned norphans;
	FILE *debug;          /* --debug log, or NULL */

	/* Called with each new thread of a process, stopped before its
	   first instruction (a process-wide LLDB trace, or the recorder,
	   traces it from there); NULL for none.  */
	void (*on_new_thread)(void *ctx, struct nat_thread *thread);
	void *on_new_thread_ctx;
	/* Called after an emulated thread changed its process's mappings
	   (mmap, munmap, ...), with on_new_thread_ctx; NULL for none.  */
	void (*on_map_change)(void *ctx, pid_t tid);
	/* Called with a traced thread (not a leader) that has exited, just
	   before it and its trace go, with on_new_thread_ctx: its trace is
	   still readable (the recorder keeps it); NULL for none.  */
	void (*on_thread_exit)(void *ctx, struct nat_thread *thread);
	/* Bytes between PSB+ in emulated PT traces enabled from now on
	   (0: the emulator's default).  */
	uint32_t btrace_psb_period;
	/* Emulated PT traces enabled from now on carry no TSC packets
	   (LLDB's traces without enableTsc, as its perf setup has none).  */
	bool btrace_untimed;
	/* The terminal's foreground group before ptstub gave it to the
	   first program it started (as gdbserver does), restored at
	   nat_target_fini; -1 when ptstub did not change it.  */
	pid_t tty_old_pgrp;
	/* The process last started or attached: a Ctrl-C is its, as
	   gdbserver's signal_pid (the first process when it is gone).  */
	pid_t interrupt_pid;
};


/* Resume requests, in the order vCont lists them: the first that
   matches a thread applies.  */
struct nat_resume {
	pid_t pid;          /* -1: every process */
	pid_t tid;          /* -1: every thread of pid */
	enum nat_resume_kind kind;
	int sig;            /* host signal to deliver, or 0 */
};

/* While nat_wait blocks, it polls FD too; when FD is readable it calls
   READABLE, which returns 1 to interrupt the inferior, 0 to go on, or
   a negative error to stop waiting (the client went away).  */
struct nat_wait_hook {
	int fd;
	int (*readable)(void *ctx);
	void *ctx;
	/* If set: called about every TICK_MS while the inferior runs (the
	   stub's progress lines); a negative return stops waiting.  */
	int (*tick)(void *ctx);
	int tick_ms;
};

int nat_target_init(struct nat_target *target);
void nat_target_fini(struct nat_target *target);

/* Start ARGV[0] with ARGV, stopped at its first instruction.  On a
   program that cannot be started, -pse_noproc and *STATUS its exit code
   (127 for not found, as a shell says), with errno the reason the
   child's own exec failed, or 0 when what it ran exited by itself.  */
int nat_create_inferior(struct nat_target *target, char *const argv[],
			pid_t *pid, int *status);

/* Attach to every thread of PID and stop them.  */
int nat_attach(struct nat_target *target, pid_t pid);

/* Let PID go: remove planted int3s and debug registers, detach every
   thread (delivering pending signals), forget it.  */
int nat_detach(struct nat_target *target, pid_t pid);

/* Kill PID and reap it.  */
int nat_kill(struct nat_target *target, pid_t pid);

/* All-stop: the threads no action names stay stopped, and nothing runs
   while one of the resumed threads has an event to report.  Non-stop:
   each named thread on its own; nat_resume_stop stops a running one
   (reported by nat_poll_event), other threads are left as they are.  */
int nat_resume(struct nat_target *target, const struct nat_resume *actions,
	       size_t count);

/* Move THREAD, stopped at one of GDB's breakpoints, past it by one
   instruction, alone, so it can be resumed without the client seeing
   the stop (a breakpoint condition was false).  Whatever else it
   reports meanwhile stays pending.  */
int nat_step_over_breakpoint(struct nat_target *target,
			     struct nat_thread *thread);

/* Wait for the next event to report; all threads are stopped when it
   returns (all-stop).  -pse_eof if the hook saw the client leave.  */
int nat_wait(struct nat_target *target, struct nat_event *event,
	     const struct nat_wait_hook *hook);

/* Stop every running thread quietly (the client left while it ran);
   what they report meanwhile stays pending.  */
void nat_stop(struct nat_target *target);

/* Stop every running thread of PROC quietly (non-stop detach); what
   they report meanwhile stays pending.  */
void nat_stop_process(struct nat_target *target, struct nat_process *proc);

/* Non-stop: let the client take the stopped threads of PID (-1: of
   every process) that it was not told stopped (ALL: every one) as
   running, as gdbserver has them after attaching: each stays stopped,
   and a vCont;t reports it (signal 0) at once.  */
void nat_hold_stopped(struct nat_target *target, pid_t pid, int all);

/* Non-stop mode on or off.  Going back to all-stop stops every running
   thread quietly, as all-stop expects between packets.  */
void nat_set_non_stop(struct nat_target *target, int on);

/* Non-stop: take what the kernel has without blocking and return 1
   with the next EVENT to report (only its thread stopped for the
   client; the others keep running), or 0 when there is none yet.  */
int nat_poll_event(struct nat_target *target, struct nat_event *event);

/* The fd that becomes readable when an inferior may have an event
   (for nat_poll_event's caller to poll).  */
int nat_event_fd(const struct nat_target *target);

/* Non-stop: resume THREAD as the client last asked, without a report
   (a breakpoint condition was false); one with an event pending (a
   signal that came while it stepped off the breakpoint) stays stopped
   for nat_poll_event to report.  */
int nat_continue_thread(struct nat_target *target, struct nat_thread *thread);

/* Stop the inferior as a Ctrl-C would: SIGINT to the first process.  */
int nat_interrupt(struct nat_target *target);

struct nat_process *nat_find_process(struct nat_target *target, pid_t pid);
struct nat_thread *nat_find_thread(struct nat_target *target, pid_t pid,
				   pid_t tid);
struct nat_process *nat_first_process(struct nat_target *target);

/* The thread's registers, fetched on first use after a stop.  */
int nat_thread_regs(struct nat_thread *thread, struct amd64_regs **regs);

/* Memory as the client sees it: planted int3s shadowed.  */
long nat_read_memory(struct nat_process *proc, uint64_t addr, void *buf,
		     size_t len);
int nat_write_memory(struct nat_process *proc, uint64_t addr,
		     const void *buf, size_t len);

int nat_insert_breakpoint(struct nat_process *proc, uint64_t addr);
int nat_remove_breakpoint(struct nat_process *proc, uint64_t addr);

/* Debug-register breakpoints and watchpoints, for every thread.  */
int nat_insert_hw_point(struct nat_process *proc, enum nat_dr_kind kind,
			uint64_t addr, size_t len);
int nat_remove_hw_point(struct nat_process *proc, enum nat_dr_kind kind,
			uint64_t addr, size_t len);

/* The XSAVE features the thread's registers have (XCR0), which decide
   the target description.  */
int nat_thread_xcr0(struct nat_thread *thread, uint64_t *xcr0);

/* A thread's last signal info (PTRACE_GETSIGINFO / SETSIGINFO), in the
   kernel's 128-byte layout.  */
int nat_thread_siginfo(struct nat_thread *thread, void *buf, size_t len);
int nat_thread_set_siginfo(struct nat_thread *thread, const void *buf,
			   size_t len);


/* Accessors: how the server walks and reads processes and threads, and
   sets what the client asked for, without the structs' fields.  */

/* Walking: processes in creation order (nat_first_process first), a
   process's threads in creation order; NULL after the last.  The
   threads are those the client may know: none of a fork child whose
   parent's event it has not heard yet, no zombie leader.  */
struct nat_process *nat_process_next(struct nat_process *proc);
struct nat_thread *nat_process_first_thread(struct nat_process *proc);
struct nat_thread *nat_thread_next(struct nat_thread *thread);

pid_t nat_process_pid(const struct nat_process *proc);
/* Attached to (detached at the end), not started by ptstub.  */
int nat_process_attached(const struct nat_process *proc);
/* One of the process's planted int3s at ADDR, or NULL.  */
const struct int3_site *nat_process_int3_at(struct nat_process *proc,
					    uint64_t addr);
/* QCatchSyscalls for PROC: nat_catch_syscall_set's rules.  */
int nat_process_catch_syscalls(struct nat_process *proc, int on,
			       const uint64_t *nrs, size_t count);

pid_t nat_thread_tid(const struct nat_thread *thread);
pid_t nat_thread_pid(const struct nat_thread *thread);
struct nat_process *nat_thread_process(struct nat_thread *thread);
/* Its last resume was a single-step.  */
int nat_thread_stepping(const struct nat_thread *thread);
/* The client enabled a branch trace on it (nat/btrace.h says which).  */
int nat_thread_traced(const struct nat_thread *thread);
/* The host signal the client was told it stopped with (0: along with
   another thread), what '?' reports; set when the server changes what
   the client was told.  */
int nat_thread_last_sig(const struct nat_thread *thread);
void nat_thread_set_last_sig(struct nat_thread *thread, int sig);
/* The client was told it stopped and has not resumed it since.  */
int nat_thread_stop_reported(const struct nat_thread *thread);
/* A plain signal stop it has pending (no ptrace event): taken from
   the pending ones as the client's stop, and its signal returned; 0
   when there is none.  */
int nat_thread_take_signal_stop(struct nat_thread *thread);

/* The events the client asked to see (qSupported, QThreadEvents).  */
void nat_target_set_fork_events(struct nat_target *target, int fork,
				int vfork, int exec);
void nat_target_set_thread_events(struct nat_target *target, int on);
/* A new client: none of those events, no QPassSignals, no
   QProgramSignals.  */
void nat_target_client_reset(struct nat_target *target);
/* QPassSignals and QProgramSignals: PASS is indexed by host signal,
   NAT_SIGNALS entries.  */
/* perf's conversion of the traces' TSC into nanoseconds
   (nat/tsc_clock.h), measured since the target started; -pse_range if
   it started too recently to tell.  */
int nat_target_tsc_conv(const struct nat_target *target,
			struct nat_tsc_conv *conv);

void nat_target_set_pass_signals(struct nat_target *target,
				 const uint8_t pass[NAT_SIGNALS]);
void nat_target_set_program_signals(struct nat_target *target,
				    const uint8_t pass[NAT_SIGNALS]);

/* QUIT, set by a signal handler, ends every wait that may last (a
   thread stepping a blocking system call, a stop that never comes): the
   session ends on SIGTERM, whatever the threads do.  */
void nat_target_set_quit(struct nat_target *target,
			 const volatile sig_atomic_t *quit);

/* How programs are started, for the server to fill in.  */
struct nat_start_opts *nat_target_start_opts(struct nat_target *target);

/* The --debug log, or NULL.  */
FILE *nat_target_debug(const struct nat_target *target);
void nat_target_set_debug(struct nat_target *target, FILE *log);

/* --btrace-source and --btrace-engine (enum nat_btrace_policy and
   enum nat_btrace_engine of nat/btrace.h).  */
void nat_target_set_btrace(struct nat_target *target, int policy,
			   int engine);
int nat_target_btrace_policy(const struct nat_target *target);
int nat_target_btrace_engine(const struct nat_target *target);
/* Bytes between PSB+ in emulated PT traces enabled from now on (0:
   the emulator's default).  */
void nat_target_set_psb_period(struct nat_target *target, uint32_t bytes);
/* Whether emulated PT traces enabled from now on go without TSC
   packets (false: the default, with them).  */
void nat_target_set_untimed(struct nat_target *target, bool untimed);

/* The new-thread hook (on_new_thread above) and its context; clearing
   takes effect only while CTX is the one set.  */
void nat_target_set_new_thread_hook(struct nat_target *target,
				    void (*fn)(void *ctx,
					       struct nat_thread *thread),
				    void *ctx);
void nat_target_clear_new_thread_hook(struct nat_target *target, void *ctx);

#endif
