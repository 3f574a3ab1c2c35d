/* Bookkeeping of the processes and threads in a nat_target: creation,
   lookup and removal.  Internal to nat/.  */
#ifndef NAT_PROCESS_H
#define NAT_PROCESS_H

#include "nat/target.h"

struct nat_process *nat_add_process(struct nat_target *target, pid_t pid);
void nat_remove_process(struct nat_target *target, struct nat_process *proc);

struct nat_thread *nat_add_thread(struct nat_process *proc, pid_t tid);
void nat_remove_thread(struct nat_process *proc, struct nat_thread *thread);

/* THREAD (not its process's leader) has exited: the target's
   on_thread_exit hook sees it while its trace is there, then it goes. */
void nat_thread_exited(struct nat_target *target, struct nat_thread *thread);

/* The thread TID in any process.  */
struct nat_thread *nat_lookup_tid(struct nat_target *target, pid_t tid);

/* Drop every thread but the one that becomes the leader (exec).  */
void nat_keep_only_leader(struct nat_process *proc);

/* Log a line to the --debug stream, if any.  */
void nat_debug(const struct nat_target *target, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
