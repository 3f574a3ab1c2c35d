/* nat/wait_block.c: the tick wakes a blocking waitpid when no child
   changes state, a child's stop or exit comes back as a status, and
   SIGALRM is left alone when someone else handles it.  */
#define _GNU_SOURCE
#include "nat/wait_block.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(wait_block, .timeout = 20);

static pid_t child_sleeping(unsigned ms)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		usleep(ms * 1000);
		_exit(7);
	}
	return pid;
}

Test(wait_block, the_tick_wakes_waitpid_then_the_exit_comes)
{
	struct nat_block b;
	pid_t child = child_sleeping(300), pid = 0;
	int status = 0, r, ticks = 0;

	nat_block_init(&b);
	cr_assert_eq(nat_block_arm(&b), 0);
	while ((r = nat_block_wait(&b, &pid, &status)) == 0)
		ticks++;
	cr_assert_eq(r, 1);
	cr_assert_eq(pid, child);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	/* 300 ms of 10 ms ticks: many wakeups, far from one a millisecond. */
	cr_assert_gt(ticks, 5, "%d ticks", ticks);
	cr_assert_lt(ticks, 300, "%d ticks", ticks);
	nat_block_fini(&b);
	/* Disarmed: no timer is left running.  */
	{
		struct itimerval it;

		cr_assert_eq(getitimer(ITIMER_REAL, &it), 0);
		cr_assert(!it.it_value.tv_sec && !it.it_value.tv_usec);
	}
}

Test(wait_block, the_client_is_due_once_a_tick)
{
	struct nat_block b;

	nat_block_init(&b);
	cr_assert_eq(nat_block_arm(&b), 0);
	cr_assert_not(nat_block_client_due(&b));
	usleep(nat_block_tick_us + 2000);
	cr_assert(nat_block_client_due(&b));
	cr_assert_not(nat_block_client_due(&b));
	nat_block_fini(&b);
}

Test(wait_block, no_children_turns_it_off)
{
	struct nat_block b;
	pid_t pid;
	int status;

	nat_block_init(&b);
	cr_assert_eq(nat_block_arm(&b), 0);
	cr_assert_eq(nat_block_wait(&b, &pid, &status), -1);
	cr_assert(b.off);
	cr_assert_eq(nat_block_arm(&b), -1);
	nat_block_fini(&b);
}

static void someone_elses(int sig)
{
	(void) sig;
}

Test(wait_block, another_sigalrm_handler_is_respected)
{
	struct sigaction sa, now;
	struct nat_block b;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = someone_elses;
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
	nat_block_init(&b);
	cr_assert_eq(nat_block_arm(&b), -1);
	cr_assert(b.off);
	cr_assert_eq(sigaction(SIGALRM, NULL, &now), 0);
	cr_assert_eq(now.sa_handler, someone_elses);
	nat_block_fini(&b);
}

Test(wait_block, a_blocked_sigalrm_is_respected)
{
	struct nat_block b;
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGALRM);
	cr_assert_eq(sigprocmask(SIG_BLOCK, &mask, NULL), 0);
	nat_block_init(&b);
	cr_assert_eq(nat_block_arm(&b), -1);
	nat_block_fini(&b);
}
