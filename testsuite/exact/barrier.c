/* Threads blocked in a barrier (futex), released together, ROUNDS
   times: exact_threads runs it with every thread recorded (issue 13:
   64 threads, SIGILL after their syscall).
     barrier [THREADS [ROUNDS]]  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t bar;
static volatile long sums[256];
static int rounds = 5;

__attribute__((noinline)) void all_waiting(void) { __asm__ volatile("" ::: "memory"); }

static void *worker(void *arg)
{
	long id = (long) arg, s = 0;
	for (int r = 0; r < rounds; r++) {
		pthread_barrier_wait(&bar);
		for (long i = 0; i < 100; i++)
			s += i * id;
	}
	sums[id] = s;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 64;
	pthread_t t[256];
	long total = 0;

	if (argc > 2)
		rounds = atoi(argv[2]);
	pthread_barrier_init(&bar, NULL, n + 1);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *) i);
	struct timespec ts = { 0, 200000000 };
	nanosleep(&ts, NULL);
	all_waiting();
	for (int r = 0; r < rounds; r++)
		pthread_barrier_wait(&bar);
	for (long i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		total += sums[i];
	}
	printf("total %ld\n", total);
	return 0;
}
