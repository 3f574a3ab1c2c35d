/* A timer signal landing in a hot loop with no call or syscall in it:
   under the code-cache engine the loop runs in the cache, so that is
   where the signals arrive.  It counts TICKS of them: a slow tracer
   (sanitized, on a loaded machine) sees some land outside the cache, on
   the way in or back from the handler, and the test wants three inside. */
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#define TICKS 12

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
	while (ticks < TICKS)
		spins += (spins & 3) == 1 ? 2 : 1;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	return ticks + (spins > 0);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	return run() == TICKS + 1 ? 0 : 1;
}
