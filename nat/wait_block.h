/* Waiting for the next stop in a blocking waitpid, as a bare tracer
   does.  While the emulator runs a thread it stops every few
   microseconds, and poll, then read the SIGCHLD signalfd, then collect
   until WNOHANG fails costs three system calls more a stop than this.
   The client (Ctrl-C) is looked at every tick instead: a timer signal
   interrupts the waitpid if no stop comes, and between stops the clock
   (vDSO, no system call) says when a tick has passed.  */
#ifndef NAT_WAIT_BLOCK_H
#define NAT_WAIT_BLOCK_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

enum { nat_block_tick_us = 10000 };

struct nat_block {
	bool armed;            /* the tick timer runs */
	bool off;              /* not usable in this wait: poll instead */
	struct timespec checked;   /* when the client was last looked at */
};

void nat_block_init(struct nat_block *b);

/* Stop the tick timer, if it runs.  */
void nat_block_fini(struct nat_block *b);

/* Start the tick: 0, or -1 (and B off) when SIGALRM is not ours to use
   (another handler, or blocked) or the timer cannot be set.  */
int nat_block_arm(struct nat_block *b);

/* One blocking waitpid over every child: 1 with *PID and *STATUS, 0 when
   the tick woke it, -1 on an error (B is then off).  */
int nat_block_wait(struct nat_block *b, pid_t *pid, int *status);

/* Has a tick passed since the client was last looked at?  Restarts the
   count when it says yes.  */
bool nat_block_client_due(struct nat_block *b);

#endif
