/* nat/wait_status.h: helpers shared by the files of the native layer
   that take wait statuses from the kernel, decode them (wait_status.c),
   stop every thread (stop_all.c) and resume threads.  Internal to nat/.  */
#ifndef NAT_WAIT_STATUS_H
#define NAT_WAIT_STATUS_H

#include "nat/target.h"

#include <sys/wait.h>

/* Whether STATUS is a stop for a signal: stopped, and no ptrace event
   in the bits above 16.  */
static inline int nat_status_signal_stop(int status)
{
	return WIFSTOPPED(status) && !(status >> 16);
}

/* waitpid(PID, STATUS, __WALL | FLAGS), retried on EINTR; returns the
   pid, 0 for nothing (WNOHANG), -pse_noproc when there is no child.  */
pid_t nat_waitpid(pid_t pid, int *status, int flags);

/* Write back registers the client changed, and stale debug registers,
   before THREAD runs.  */
int nat_thread_flush_regs(struct nat_thread *thread);

/* Let THREAD run as its last resume request says.  */
int nat_thread_resume(struct nat_thread *thread, enum nat_resume_kind kind,
		      int sig);

/* Take every status the kernel has ready, without blocking (wait.c).  */
void nat_collect(struct nat_target *target);

/* One round of a wait for a thread's stop (wait_round.c), never
   blocking on one pid: 1 with *STATUS when the status taken is OWN's
   (0: none is), else 0 after taking another thread's status (handled as
   nat_handle_status with STOPPING: the caller looks again, its threads
   may be gone), after marking a zombie leader (nat_thread.zombie, no
   longer running), or after a tick with nothing; -pse_noproc when there
   is no child left.  */
enum { nat_wait_round_tick_ms = 10 };
int nat_wait_round(struct nat_target *target, pid_t own, int *status,
		   int stopping);

/* Mark every leader the stub waits for that is a zombie while other
   threads of its process live (see wait_round.c): how many.  */
int nat_mark_zombie_leaders(struct nat_target *target);

/* TID's state letter in /proc/TID/stat ('R', 't', 'Z', ...), -1 when
   it is gone, 0 when it cannot be told.  */
int nat_proc_state(pid_t tid);

/* Whether the session is asked to end (nat_target.quit): a wait that
   may last stops there.  */
int nat_quitting(const struct nat_target *target);

/* What nat_handle_status did with a status: the thread goes on (or
   waits for the stop of everything), it has an event pending for the
   client, or it is gone (a thread's exit nobody hears of).  */
enum { nat_consumed, nat_reportable, nat_gone };

/* Take one wait STATUS for THREAD.  STOPPING: every thread is being
   stopped, so nothing may be resumed.  */
int nat_handle_status(struct nat_target *target, struct nat_thread *thread,
		      int status, int stopping);

/* Keep the status of TID, a thread not known yet (a clone's child whose
   stop came before its parent's event), for when it is.  */
void nat_stash_orphan(struct nat_target *target, pid_t tid, int status);

/* THREAD has an event for the client: STATUS, for REASON.  */
void nat_set_pending(struct nat_thread *thread, int status,
		     enum nat_stop_reason reason);

/* Resume THREAD after an event nobody needs to see, unless every thread
   is being stopped (STOPPING) or the client left it stopped.  */
void nat_resume_quietly(struct nat_thread *thread, int stopping);

/* TID's program counter, read with PTRACE_PEEKUSER.  */
uint64_t nat_peek_pc(pid_t tid);

/* Whether THREAD's pending event is a hit on a breakpoint the client has
   removed since (no event any more).  */
int nat_event_is_stale(const struct nat_thread *thread);

/* Turn THREAD's pending event into EV for the client; a thread's or a
   process's end removes it.  */
void nat_fill_event(struct nat_target *target, struct nat_thread *thread,
		    struct nat_event *ev);

#endif
