/* The fault tests' inferior (testsuite/robust/churn.sh): processes and
   threads that come and go while ptstub records.  `churn` runs between
   two breakpoint targets, `churn` itself and `done`.
     churn threads:N   N threads in waves of 8, each created, running a
                       few calls and exiting, joined by main
     churn forks:N     N children forked one after another, each running
                       a few calls and exiting with its own status
     churn spawn:N     N threads (64 at most) each running 1,500 loop
                       iterations; they are all still there, done, at
                       `done`, and end after it
   It prints what it checked: a child that died (of a trap left in its
   copy of the code, say) or a wrong sum shows in the output.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { wave = 8 };

static long __attribute__((noinline)) fib(long n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void *worker(void *arg)
{
	long i = (long) arg;

	return (void *) (fib(6 + i % 4) + i);
}

/* fib(6..9) is 8, 13, 21, 34.  */
static long expected(long i)
{
	static const long f[] = { 8, 13, 21, 34 };

	return f[i % 4] + i;
}

static int threads(long n)
{
	long bad = 0;

	for (long base = 0; base < n; base += wave) {
		pthread_t t[wave];
		long k = n - base < wave ? n - base : wave;

		for (long j = 0; j < k; j++)
			if (pthread_create(&t[j], NULL, worker,
					   (void *) (base + j)) != 0)
				return -1;
		for (long j = 0; j < k; j++) {
			void *r;

			pthread_join(t[j], &r);
			bad += (long) r != expected(base + j);
		}
	}
	printf("threads %ld: %ld wrong\n", n, bad);
	return 0;
}

enum { spawn_max = 64, spawn_loops = 1500 };
static pthread_t spawned[spawn_max];
static long nspawned;
static pthread_barrier_t spawn_done, spawn_end;

static void *spinner(void *arg)
{
	long s = 0;

	for (long i = 0; i < spawn_loops; i++)
		s += (i & 3) ? fib(2) : i;
	pthread_barrier_wait(&spawn_done);
	pthread_barrier_wait(&spawn_end);
	return (void *) (s + (long) arg);
}

static int spawn(long n)
{
	if (n > spawn_max)
		n = spawn_max;
	pthread_barrier_init(&spawn_done, NULL, (unsigned) n + 1);
	pthread_barrier_init(&spawn_end, NULL, (unsigned) n + 1);
	for (nspawned = 0; nspawned < n; nspawned++)
		if (pthread_create(&spawned[nspawned], NULL, spinner,
				   (void *) nspawned) != 0)
			return -1;
	pthread_barrier_wait(&spawn_done);
	return 0;
}

/* After done: the spawned threads end.  */
static void spawn_join(void)
{
	long bad = 0;

	if (!nspawned)
		return;
	pthread_barrier_wait(&spawn_end);
	for (long i = 0; i < nspawned; i++) {
		void *r;

		pthread_join(spawned[i], &r);
		/* fib(2) is 1: 1,125 iterations add 1, the others
		   (multiples of 4) 280,500 in all.  */
		bad += (long) r != 1125 + 280500 + i;
	}
	printf("spawn %ld: %ld wrong\n", nspawned, bad);
}

static int forks(long n)
{
	long bad = 0;

	for (long i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit((int) ((fib(6 + i % 4) + i) & 0x7f));
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != (expected(i) & 0x7f)) {
			bad++;
			if (WIFSIGNALED(status))
				printf("child %ld: signal %d\n", i,
				       WTERMSIG(status));
		}
	}
	printf("forks %ld: %ld wrong\n", n, bad);
	return 0;
}

int __attribute__((noinline)) churn(const char *kind, long n)
{
	if (!strcmp(kind, "threads"))
		return threads(n);
	if (!strcmp(kind, "forks"))
		return forks(n);
	if (!strcmp(kind, "spawn"))
		return spawn(n);
	return -1;
}

void __attribute__((noinline)) done(int result)
{
	printf("result %d\n", result);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *colon;
	char kind[16];
	size_t len;

	if (argc != 2 || !(colon = strchr(argv[1], ':')) ||
	    (len = (size_t) (colon - argv[1])) >= sizeof(kind)) {
		fprintf(stderr, "usage: churn threads:N | forks:N | spawn:N\n");
		return 2;
	}
	memcpy(kind, argv[1], len);
	kind[len] = '\0';
	done(churn(kind, atol(colon + 1)));
	spawn_join();
	return 0;
}
