/* Threads that end before the program does: THREADS (argv[1], at most
   3) threads, one after another, each running its own function
   (ended_work_0, _1, _2) ROUNDS (argv[2]) times and exiting; then the
   main thread runs on a little and exits.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long rounds = 1000;
static volatile unsigned long sink;

static unsigned long step(unsigned long h, unsigned long v)
{
	return (h ^ v) * 1099511628211ul;
}

#define WORKER(N) \
	__attribute__((noinline)) void ended_work_##N(void) \
	{ \
		unsigned long h = N; \
		for (unsigned long i = 0; i < rounds; i++) \
			h = step(h, i + (h & 3 ? 1 : 2)); \
		sink = h; \
	} \
	static void *thread_##N(void *arg) \
	{ \
		(void) arg; \
		ended_work_##N(); \
		return NULL; \
	}
WORKER(0)
WORKER(1)
WORKER(2)

__attribute__((noinline)) void main_goes_on(void)
{
	for (unsigned long i = 0; i < 100; i++)
		sink = step(sink, i);
}

int main(int argc, char **argv)
{
	void *(*fn[3])(void *) = { thread_0, thread_1, thread_2 };
	int n = argc > 1 ? atoi(argv[1]) : 1;

	if (argc > 2)
		rounds = strtoul(argv[2], NULL, 10);
	for (int i = 0; i < n && i < 3; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, fn[i], NULL) ||
		    pthread_join(t, NULL))
			return 1;
	}
	main_goes_on();
	printf("done %lx\n", sink);
	return 0;
}
