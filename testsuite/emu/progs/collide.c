/* Two hot return sites whose addresses share their low 16 bits: f and
   g are 64 KiB apart and call leaf at the same offset, so the code
   cache's lookup table (indexed by those bits in its first way) would
   send them out to the tracer in turn, one trap a return, if it had
   only one way.  Many distinct calls in start() give translation
   ahead something to find.  collide N: N rounds, then done().  */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__((noinline)) leaf(int x)
{
	return x * 3 + 1;
}

static int __attribute__((noinline, aligned(65536))) f(int x)
{
	return leaf(x) + 1;
}

static int __attribute__((noinline, aligned(65536))) g(int x)
{
	return leaf(x) - 1;
}

void __attribute__((noinline)) done(int s)
{
	printf("%d\n", s);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0;

	for (int i = 0; i < n; i++)
		s += f(i) + g(i);
	done(s);
	return 0;
}
