/* Threads that sit in the same syscall instruction at once, each on a
   path of its own that does not depend on timing: THREADS workers
   compute, block in read() on their own pipe (one syscall site for
   all), then all make quick syscalls at one site together, and
   return.  exact_threads -c compares each
   worker's recorded trace with its single-step run (issue 13: the
   trap at a syscall site another thread was stepping let threads run
   through it, an OVF each time).
     share [THREADS [ROUNDS]]  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

enum { share_max = 64 };

static int pipes[share_max][2];
static int rounds = 2;
static volatile long sums[share_max];

static void *worker(void *arg)
{
	long id = (long) arg, s = 0;
	char c;

	for (int r = 0; r < rounds; r++) {
		for (long i = 0; i < 50 + id; i++)
			s += i * (id + r);
		if (read(pipes[id][0], &c, 1) != 1)
			return NULL;
		/* Released together: each one steps getppid's syscall
		   while the others run towards it.  */
		for (int k = 0; k < 100; k++)
			s += getppid() > 0;
	}
	sums[id] = s;
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t t[share_max];
	long total = 0;

	if (n < 1 || n > share_max)
		return 2;
	if (argc > 2)
		rounds = atoi(argv[2]);
	for (long i = 0; i < n; i++)
		if (pipe(pipes[i]) < 0)
			return 2;
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *) i);
	for (int r = 0; r < rounds; r++) {
		/* Let them all block (their paths do not depend on it).  */
		struct timespec ts = { 0, 20000000 };

		nanosleep(&ts, NULL);
		for (long i = 0; i < n; i++)
			if (write(pipes[i][1], "x", 1) != 1)
				return 2;
	}
	for (long i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		total += sums[i];
	}
	printf("total %ld\n", total);
	return 0;
}
