/* Threads created, blocked and exiting while recorded: WAVES waves of
   THREADS threads each; every thread blocks on a condition variable
   until the whole wave is there, sleeps a little, and exits (half of
   them detached).  The sum checks that every thread ran.
     spawn [THREADS [WAVES]]  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_here = PTHREAD_COND_INITIALIZER;
static int here, wave_size;
static long done;

static void *member(void *arg)
{
	struct timespec ts = { 0, 1000000 };
	long id = (long) arg;

	pthread_mutex_lock(&lock);
	if (++here == wave_size)
		pthread_cond_broadcast(&all_here);
	while (here < wave_size)
		pthread_cond_wait(&all_here, &lock);
	pthread_mutex_unlock(&lock);
	nanosleep(&ts, NULL);
	__atomic_add_fetch(&done, id, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 6;
	int waves = argc > 2 ? atoi(argv[2]) : 8;
	long want = 0;

	for (int w = 0; w < waves; w++) {
		pthread_t t[64];
		pthread_attr_t detached;

		pthread_attr_init(&detached);
		pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
		pthread_mutex_lock(&lock);
		here = 0;
		wave_size = n;
		pthread_mutex_unlock(&lock);
		for (long i = 0; i < n; i++) {
			want += i + 1;
			pthread_create(&t[i], i % 2 ? &detached : NULL, member,
				       (void *) (i + 1));
		}
		for (int i = 0; i < n; i += 2)
			pthread_join(t[i], NULL);
		pthread_attr_destroy(&detached);
	}
	/* Detached ones may still be finishing.  */
	for (int tries = 0; tries < 5000 &&
	     __atomic_load_n(&done, __ATOMIC_SEQ_CST) != want; tries++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	printf("done %ld of %ld\n", done, want);
	return done == want ? 0 : 1;
}
