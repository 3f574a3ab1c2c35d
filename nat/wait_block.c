/* Blocking waits while the emulator runs (see wait_block.h).  */
#define _GNU_SOURCE
#include "nat/wait_block.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>

/* Only there to interrupt waitpid (installed without SA_RESTART).  */
static void nat_block_on_tick(int sig)
{
	(void) sig;
}

void nat_block_init(struct nat_block *b)
{
	memset(b, 0, sizeof(*b));
}

void nat_block_fini(struct nat_block *b)
{
	static const struct itimerval stop;

	if (b->armed)
		setitimer(ITIMER_REAL, &stop, NULL);
	b->armed = false;
}

static int nat_block_claim_sigalrm(void)
{
	struct sigaction old, sa;
	sigset_t mask;

	if (sigprocmask(SIG_BLOCK, NULL, &mask) < 0 ||
	    sigismember(&mask, SIGALRM) ||
	    sigaction(SIGALRM, NULL, &old) < 0)
		return -1;
	if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == nat_block_on_tick)
		return 0;
	if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nat_block_on_tick;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGALRM, &sa, NULL);
}

int nat_block_arm(struct nat_block *b)
{
	struct itimerval tick = {
		{ 0, nat_block_tick_us }, { 0, nat_block_tick_us },
	};

	if (b->off)
		return -1;
	if (b->armed)
		return 0;
	if (nat_block_claim_sigalrm() < 0 ||
	    setitimer(ITIMER_REAL, &tick, NULL) < 0) {
		b->off = true;
		return -1;
	}
	b->armed = true;
	clock_gettime(CLOCK_MONOTONIC, &b->checked);
	return 0;
}

int nat_block_wait(struct nat_block *b, pid_t *pid, int *status)
{
	pid_t r = waitpid(-1, status, __WALL);

	if (r > 0) {
		*pid = r;
		return 1;
	}
	if (r < 0 && errno == EINTR)
		return 0;
	b->off = true;
	nat_block_fini(b);
	return -1;
}

bool nat_block_client_due(struct nat_block *b)
{
	struct timespec now;
	long us;

	clock_gettime(CLOCK_MONOTONIC, &now);
	us = (now.tv_sec - b->checked.tv_sec) * 1000000L +
	     (now.tv_nsec - b->checked.tv_nsec) / 1000;
	if (us < nat_block_tick_us)
		return false;
	b->checked = now;
	return true;
}
