/* The queue of stop notifications for non-stop mode: the first event
   goes to GDB as a "%Stop:" notification, the rest wait until GDB asks
   for them with vStopped, one reply each, until the queue answers OK.
   The queue holds the stop replies as text, with the thread each is
   about, so stale ones (a process detached or killed) can be dropped.  */
#ifndef SERVER_SRV_NOTIF_H
#define SERVER_SRV_NOTIF_H

#include <stddef.h>
#include <sys/types.h>

struct srv_notif {
	pid_t pid, tid;      /* tid 0: about the whole process (W, X) */
	char *text;          /* the stop reply, NUL-terminated */
	size_t len;
	struct srv_notif *next;
};

struct srv_notif_queue {
	struct srv_notif *head, *tail;
	size_t count;
};

void srv_notif_queue_init(struct srv_notif_queue *q);
void srv_notif_queue_fini(struct srv_notif_queue *q);

/* Append the stop reply TEXT (LEN bytes) about PID/TID.  Returns 1 when
   it is now the only one (the caller sends it as a notification), 0
   when it waits behind others, -pse_nomem, -pse_invalid for no text.  */
int srv_notif_push(struct srv_notif_queue *q, pid_t pid, pid_t tid,
		   const char *text, size_t len);

/* The event GDB is told about next (the one a "%Stop:" or the last
   reply named), or NULL when the queue is empty.  */
const struct srv_notif *srv_notif_head(const struct srv_notif_queue *q);

/* vStopped: GDB has the head; drop it and return the next (its reply),
   or NULL (reply OK).  */
const struct srv_notif *srv_notif_ack(struct srv_notif_queue *q);

/* Whether an event about PID/TID is queued.  */
int srv_notif_has(const struct srv_notif_queue *q, pid_t pid, pid_t tid);

/* Drop every event but the head that KEEP says no to (KEEP returns 0),
   e.g. those of a process that is gone; returns how many were dropped.
   The head stays: GDB has it already and will ack it.  */
size_t srv_notif_filter(struct srv_notif_queue *q,
			int (*keep)(const struct srv_notif *n, void *ctx),
			void *ctx);

/* Drop everything (a new connection, or back to all-stop).  */
void srv_notif_clear(struct srv_notif_queue *q);

#endif
