/* Workers: run() starts N threads (argument, 4 if none) that each run
   the same deterministic mix (loops, calls, returns, an indirect call,
   recursion) with their own seed, then joins them.  Each thread's path
   through this program's own code is the same on every run, whatever
   the scheduling: the code-cache engine's per-thread traces are
   compared with the ptrace engine's.  A negative count: main also
   mprotects the page of work() (to what it was) 50 times while the
   workers run it, which drops the translations under them.  100 + N:
   N workers spin until main, once each has looped 100,000 times, ends
   the process from run() (they are killed wherever they are).  */
#include <pthread.h>
#include <stdio.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

static long __attribute__((noinline)) odd(long x)
{
	return x * 3 + 1;
}

static long __attribute__((noinline)) even(long x)
{
	return x / 2;
}

static long (*const steps[2])(long) = { even, odd };

static long __attribute__((noinline)) depth(int n)
{
	return n <= 0 ? 0 : 1 + depth(n - 1);
}

static long __attribute__((noinline)) work(long seed)
{
	long s = 0;

	for (int i = 0; i < 1500; i++) {
		long x = seed + i;

		for (int k = 0; k < 4 && x != 1; k++)
			x = steps[x & 1](x);
		s += x + depth((int) (x & 7));
	}
	return s;
}

static void *worker(void *arg)
{
	return (void *) work((long) arg);
}

static volatile long spins[64];

static void *spinner(void *arg)
{
	long i = (long) arg;

	/* A conditional a pass: PT counts the passes.  */
	while (spins[i] >= 0)
		spins[i]++;
	return NULL;
}

static void spin_and_exit(int n)
{
	pthread_t t[64];

	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, spinner, (void *) i);
	for (int i = 0; i < n; i++)
		while (spins[i] < 100000)
			sched_yield();
	exit(0);
}

int __attribute__((noinline)) run(int n)
{
	pthread_t t[64];
	long s = 0;
	int remap = n < 0;

	if (n >= 100)
		spin_and_exit(n - 100);
	n = remap ? -n : n;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *) (long) (i * 7 + 3));
	for (int i = 0; remap && i < 50; i++) {
		uintptr_t page = (uintptr_t) work & ~(uintptr_t) 4095;

		mprotect((void *) page, 4096, PROT_READ | PROT_EXEC);
		sched_yield();
	}
	for (int i = 0; i < n; i++) {
		void *r;

		pthread_join(t[i], &r);
		s += (long) r;
	}
	return (int) s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;

	printf("%d\n", run(n > 164 ? 164 : n < -64 ? -64 : n));
	return 0;
}
