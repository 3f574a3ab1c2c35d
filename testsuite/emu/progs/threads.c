/* Threads: workers run the same code as the traced function (through the
   same planted traps, untraced) while the main thread is traced.  */
#include <pthread.h>
#include <stdio.h>

static volatile int stop;

static long __attribute__((noinline)) work(int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += (i & 1) ? i * 3 : i / 2;
	return s;
}

static void *worker(void *arg)
{
	long s = 0;

	(void) arg;
	while (!stop)
		s += work(50);
	return (void *) s;
}

int __attribute__((noinline)) run(int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += work(40 + i);
	return (int) s;
}

int main(void)
{
	pthread_t t[2];
	int r;

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	r = run(30);
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", r);
	return 0;
}
