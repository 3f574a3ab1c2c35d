/* A SIGSEGV in a second thread while the first waits for it.  */
#include <pthread.h>
#include <stdio.h>

static volatile int *target;

static int deref(void)
{
	int step = 1;
	step += 2;
	return *target + step;   /* the crash */
}

static void *worker(void *arg)
{
	(void) arg;
	return (void *) (long) deref();
}

int main(void)
{
	pthread_t t;
	void *out;

	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, &out);
	return (int) (long) out;
}
