/* The non-stop stop-notification queue (see srv_notif.h).  */
#include "server/srv_notif.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

void srv_notif_queue_init(struct srv_notif_queue *q)
{
	q->head = q->tail = NULL;
	q->count = 0;
}

static void srv_notif_free(struct srv_notif *n)
{
	free(n->text);
	free(n);
}

void srv_notif_clear(struct srv_notif_queue *q)
{
	while (q->head) {
		struct srv_notif *next = q->head->next;

		srv_notif_free(q->head);
		q->head = next;
	}
	q->tail = NULL;
	q->count = 0;
}

void srv_notif_queue_fini(struct srv_notif_queue *q)
{
	srv_notif_clear(q);
}

int srv_notif_push(struct srv_notif_queue *q, pid_t pid, pid_t tid,
		   const char *text, size_t len)
{
	struct srv_notif *n;

	if (!text || !len)
		return -pse_invalid;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -pse_nomem;
	n->text = malloc(len + 1);
	if (!n->text) {
		free(n);
		return -pse_nomem;
	}
	memcpy(n->text, text, len);
	n->text[len] = '\0';
	n->len = len;
	n->pid = pid;
	n->tid = tid;
	if (q->tail)
		q->tail->next = n;
	else
		q->head = n;
	q->tail = n;
	return ++q->count == 1;
}

const struct srv_notif *srv_notif_head(const struct srv_notif_queue *q)
{
	return q->head;
}

const struct srv_notif *srv_notif_ack(struct srv_notif_queue *q)
{
	struct srv_notif *n = q->head;

	if (n) {
		q->head = n->next;
		if (!q->head)
			q->tail = NULL;
		q->count--;
		srv_notif_free(n);
	}
	return q->head;
}

int srv_notif_has(const struct srv_notif_queue *q, pid_t pid, pid_t tid)
{
	for (const struct srv_notif *n = q->head; n; n = n->next)
		if (n->pid == pid && n->tid == tid)
			return 1;
	return 0;
}

size_t srv_notif_filter(struct srv_notif_queue *q,
			int (*keep)(const struct srv_notif *n, void *ctx),
			void *ctx)
{
	struct srv_notif **link, *last = q->head;
	size_t dropped = 0;

	/* GDB was already told of the head: its vStopped acks that one,
	   so it stays, or the ack would take the next, unsent.  */
	if (!q->head)
		return 0;
	link = &q->head->next;
	while (*link) {
		struct srv_notif *n = *link;

		if (keep(n, ctx)) {
			last = n;
			link = &n->next;
			continue;
		}
		*link = n->next;
		srv_notif_free(n);
		q->count--;
		dropped++;
	}
	q->tail = last;
	return dropped;
}
