/* Two threads at one syscall instruction (glibc's read): the worker
   blocks in read(2) on one pipe while main, in run(), reads another
   pipe that already holds a byte.  The test decides who steps first and
   when the worker's read returns (it writes through /proc/PID/fd;
   alone, main feeds the worker after run).  */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

int worker_pipe[2], main_pipe[2];

static void *worker(void *arg)
{
	char c = 0;

	(void) arg;
	if (read(worker_pipe[0], &c, 1) != 1)
		return NULL;
	return (void *) (long) c;
}

int __attribute__((noinline)) run(int n)
{
	char c = 0;

	if (read(main_pipe[0], &c, 1) != 1)
		return -1;
	return c + n;
}

int main(void)
{
	pthread_t t;
	void *got;
	int r;

	if (pipe(worker_pipe) || pipe(main_pipe) ||
	    write(main_pipe[1], "m", 1) != 1)
		return 2;
	pthread_create(&t, NULL, worker, NULL);
	usleep(200000);   /* the worker is in read(2) */
	r = run(1);
	/* The test may have fed the worker already: a second byte stays.  */
	if (write(worker_pipe[1], "w", 1) != 1)
		return 2;
	pthread_join(t, &got);
	printf("%d %ld\n", r, (long) got);
	return r == 'm' + 1 && got == (void *) 'w' ? 0 : 1;
}
