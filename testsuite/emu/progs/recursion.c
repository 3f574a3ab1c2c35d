/* Recursion: deep call/return chains (compressed returns, PSB resets). */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int __attribute__((noinline)) ack(int m, int n)
{
	if (!m)
		return n + 1;
	if (!n)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

int __attribute__((noinline)) run(int n)
{
	return fib(n) + ack(2, 3);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 12;

	printf("%d\n", run(n));
	return 0;
}
