/* The non-stop stop-notification queue: the first event is the one to
   notify, vStopped acks walk the rest in order, stale events go but the
   one GDB already has stays.  */
#include "server/srv_notif.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>

static struct srv_notif_queue q;

static void setup(void)
{
	srv_notif_queue_init(&q);
}

static void teardown(void)
{
	srv_notif_queue_fini(&q);
	cr_assert_null(srv_notif_head(&q));
}

TestSuite(srv_notif, .init = setup, .fini = teardown);

static int push(pid_t pid, pid_t tid, const char *text)
{
	return srv_notif_push(&q, pid, tid, text, strlen(text));
}

Test(srv_notif, empty_queue_has_no_head_and_acks_to_nothing)
{
	cr_assert_null(srv_notif_head(&q));
	cr_assert_null(srv_notif_ack(&q));
	cr_assert_eq(q.count, 0);
	cr_assert(!srv_notif_has(&q, 1, 1));
}

Test(srv_notif, only_the_first_event_asks_for_a_notification)
{
	cr_assert_eq(push(10, 10, "T05thread:a;"), 1);
	cr_assert_eq(push(10, 11, "T00thread:b;"), 0);
	cr_assert_eq(push(10, 12, "T13thread:c;"), 0);
	cr_assert_eq(q.count, 3);
	cr_assert_str_eq(srv_notif_head(&q)->text, "T05thread:a;");
}

Test(srv_notif, vstopped_acks_walk_the_queue_in_order_then_ok)
{
	const struct srv_notif *n;

	push(10, 10, "A");
	push(10, 11, "B");
	push(10, 0, "W00;process:a");
	n = srv_notif_ack(&q);
	cr_assert_not_null(n);
	cr_assert_str_eq(n->text, "B");
	cr_assert_eq(n->tid, 11);
	n = srv_notif_ack(&q);
	cr_assert_str_eq(n->text, "W00;process:a");
	cr_assert_eq(n->tid, 0);
	cr_assert_null(srv_notif_ack(&q));
	cr_assert_eq(q.count, 0);
	/* Drained: the next event is notified again.  */
	cr_assert_eq(push(10, 10, "C"), 1);
}

Test(srv_notif, text_is_copied_with_its_length_and_a_nul)
{
	char text[] = "T05thread:p1.1;";

	cr_assert_eq(srv_notif_push(&q, 1, 1, text, 3), 1);
	text[0] = 'X';
	cr_assert_eq(srv_notif_head(&q)->len, 3);
	cr_assert_str_eq(srv_notif_head(&q)->text, "T05");
}

Test(srv_notif, empty_text_is_refused_and_changes_nothing)
{
	cr_assert_eq(srv_notif_push(&q, 1, 1, "", 0), -pse_invalid);
	cr_assert_eq(srv_notif_push(&q, 1, 1, NULL, 4), -pse_invalid);
	cr_assert_eq(q.count, 0);
	cr_assert_null(srv_notif_head(&q));
}

Test(srv_notif, has_finds_queued_threads_only)
{
	push(10, 11, "A");
	push(20, 21, "B");
	cr_assert(srv_notif_has(&q, 10, 11));
	cr_assert(srv_notif_has(&q, 20, 21));
	cr_assert(!srv_notif_has(&q, 10, 21));
	srv_notif_ack(&q);
	cr_assert(!srv_notif_has(&q, 10, 11));
}

static int keep_not_pid_20(const struct srv_notif *n, void *ctx)
{
	int *calls = ctx;

	++*calls;
	return n->pid != 20;
}

Test(srv_notif, filter_drops_matching_events_but_never_the_head)
{
	int calls = 0;

	push(20, 21, "head");
	push(20, 22, "x");
	push(10, 11, "keep");
	push(20, 23, "y");
	cr_assert_eq(srv_notif_filter(&q, keep_not_pid_20, &calls), 2);
	cr_assert_eq(calls, 3);  /* the head is not even asked */
	cr_assert_eq(q.count, 2);
	cr_assert_str_eq(srv_notif_head(&q)->text, "head");
	cr_assert_str_eq(srv_notif_ack(&q)->text, "keep");
	cr_assert_null(srv_notif_ack(&q));
	/* The tail was fixed up: pushing after a filtered tail works.  */
	cr_assert_eq(push(10, 12, "z"), 1);
	cr_assert_eq(push(10, 13, "w"), 0);
	cr_assert_str_eq(srv_notif_ack(&q)->text, "w");
}

Test(srv_notif, filter_of_empty_queue_drops_nothing)
{
	int calls = 0;

	cr_assert_eq(srv_notif_filter(&q, keep_not_pid_20, &calls), 0);
	cr_assert_eq(calls, 0);
}

Test(srv_notif, clear_empties_and_notifies_again)
{
	push(1, 1, "A");
	push(1, 2, "B");
	srv_notif_clear(&q);
	cr_assert_eq(q.count, 0);
	cr_assert_null(srv_notif_head(&q));
	cr_assert_eq(push(1, 3, "C"), 1);
}
