/* A timer signal arriving in a tight loop (where it lands varies from run
   to run, so this one is checked for consistency, not against the
   single-step run).  */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static volatile int ticks;

static void on_alarm(int sig)
{
	(void) sig;
	ticks++;
}

int __attribute__((noinline)) run(void)
{
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	long spins = 0;

	setitimer(ITIMER_REAL, &it, NULL);
	while (ticks < 3) {
		struct timespec ts;

		/* clock_gettime's vDSO code retries when the kernel updates
		   its data meanwhile: another reason runs differ.  */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		spins += ts.tv_nsec & 1;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	return ticks + (spins > 0);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	printf("%d\n", run());
	return 0;
}
