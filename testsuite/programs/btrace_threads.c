/* Two threads recorded separately.  The worker blocks in read(2) on a
   pipe until main, stopped at main_begin, writes to it with a raw
   syscall; with scheduler-locking each thread then runs its own region
   alone: main runs fact(3) to main_end, the worker compute(2) (sq twice)
   to worker_end.  No libc call inside either region.  main_begin is
   reached only once the worker sits in read(2), so where its trace
   starts (the return from that read) is the same on every run.  */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int pipe_fds[2];
static volatile pid_t worker_tid;

int sq(int x)
{
	return x * x;
}

int compute(int n)
{
	int total = 0;
	for (int i = 1; i <= n; i++)
		total += sq(i);
	return total;
}

int fact(int n)
{
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

void main_begin(void)
{
}

void main_end(void)
{
}

void worker_begin(void)
{
}

void worker_end(void)
{
}

static void *worker(void *arg)
{
	char byte;
	worker_tid = syscall(SYS_gettid);
	if (read(pipe_fds[0], &byte, 1) != 1)
		return NULL;
	worker_begin();
	compute(2);
	worker_end();
	return NULL;
}

/* True once thread TID is in read(2) on the pipe (syscall 0, fd arg). */
static int blocked_in_read(pid_t tid)
{
	char path[64], line[256], expect[32];
	int ok;
	FILE *f;

	snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int) tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	snprintf(expect, sizeof expect, "0 0x%x ", pipe_fds[0]);
	return ok && strncmp(line, expect, strlen(expect)) == 0;
}

int main(void)
{
	pthread_t thread;
	long ret;

	if (pipe(pipe_fds) != 0)
		return 1;
	pthread_create(&thread, NULL, worker, NULL);
	while (worker_tid == 0 || !blocked_in_read(worker_tid))
		usleep(1000);
	main_begin();
	/* write(pipe, "x", 1) inline: the worker's wake-up is in the region. */
	__asm__ volatile ("syscall" : "=a" (ret)
			  : "a" ((long) SYS_write), "D" ((long) pipe_fds[1]),
			    "S" ("x"), "d" (1L)
			  : "rcx", "r11", "memory");
	fact(3);
	main_end();
	pthread_join(thread, NULL);
	return ret == 1 ? 0 : 1;
}
