/* Progress lines during a long recorded run: once a resumption with a
   traced thread has lasted DELAY, GDB's console gets a line (an O
   packet, allowed in all-stop while the client waits for the stop) every
   EVERY with the trace recorded so far and the engine writing it, so
   that a `continue` of minutes under `record btrace` shows it works.  */
#ifndef SRV_PROGRESS_H
#define SRV_PROGRESS_H

#include <stdint.h>

struct srv;
struct nat_wait_hook;

struct srv_progress {
	int off;              /* monitor set progress off */
	int delay_ms;         /* 5 s, or PTSTUB_PROGRESS_MS's first number */
	int every_ms;         /* 5 s, or its second */
	int64_t start_ms;     /* when the run began */
	int64_t next_ms;      /* when the next line is due */
};

/* Defaults, or PTSTUB_PROGRESS_MS="DELAY[,EVERY]" in milliseconds (for
   tests, which cannot wait seconds).  */
void srv_progress_init(struct srv_progress *progress);

/* A run begins: set HOOK's tick so that nat_wait calls back.  */
void srv_progress_start(struct srv *srv, struct nat_wait_hook *hook);

/* nat_wait's tick (CTX is the srv): a line when one is due; 0, or the
   connection's error.  */
int srv_progress_tick(void *ctx);

#endif
