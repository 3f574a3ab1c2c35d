/* nat/stop_all.h: stopping every thread (stop_all.c), as waiting needs
   before it reports an event in all-stop.  Internal to nat/.  */
#ifndef NAT_STOP_ALL_H
#define NAT_STOP_ALL_H

#include "nat/target.h"

/* The first thread of TARGET the kernel runs, or NULL.  */
struct nat_thread *nat_first_running(struct nat_target *target);

/* All-stop: SIGSTOP every running thread and wait until each stopped;
   what they report meanwhile stays pending.  */
void nat_stop_all(struct nat_target *target);

/* Non-stop: run again the threads nat_stop_all paused (the client still
   has them running and nothing of theirs is pending), but EXCEPT.  */
void nat_unpause(struct nat_target *target, const struct nat_thread *except);

/* All-stop: the client takes every thread as stopped (none resumed,
   each one's stop known).  */
void nat_mark_all_stopped(struct nat_target *target);

#endif
