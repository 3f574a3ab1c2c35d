/* fork_next.sh's inferior: three threads fork over and over (each child
   exits at once, its parent reaps it) while the main thread runs a loop
   of two lines GDB steps over with `next`.  The forks' events come
   while the main thread steps, and while other threads' stops are
   reported.  */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *forker(void *arg)
{
	for (;;) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(3);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		usleep(20 * 1000);
	}
	return arg;
}

static void __attribute__((noinline)) nap(void)
{
	usleep(30 * 1000);
}

int main(void)
{
	pthread_t t[3];

	alarm(120);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, forker, NULL);
	for (;;) {
		nap();  /* first */
		nap();  /* second */
	}
}
