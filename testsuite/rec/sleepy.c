/* A function, a 150 ms sleep in a system call, another function: the
   recording's time must show the sleep between the two (rec_time.sh). */
#include <stdio.h>
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) void before_sleep(void)
{
	for (unsigned long i = 0; i < 2000; i++)
		sink += i;
}

__attribute__((noinline)) void after_sleep(void)
{
	for (unsigned long i = 0; i < 2000; i++)
		sink -= i;
}

int main(void)
{
	struct timespec ts = { 0, 150 * 1000 * 1000 };

	before_sleep();
	nanosleep(&ts, NULL);
	after_sleep();
	printf("%lu\n", sink);
	return 0;
}
