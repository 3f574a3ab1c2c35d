/* A long-running loop for snapshots: it prints a checksum of its work
   every round, so a run under the recorder can be compared with a run
   without it, and runs until ROUNDS rounds (argv[1]) are done.  */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned long mix(unsigned long h, unsigned long v)
{
	return (h ^ v) * 1099511628211ul;
}

static unsigned long work(unsigned long seed)
{
	unsigned long h = 14695981039346656037ul;

	for (unsigned long i = 0; i < 200; i++)
		h = mix(h, seed + i);
	return h;
}

void checkpoint(unsigned long round)
{
	(void) round;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 10;
	unsigned long delay = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
	unsigned long h = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned long r = 0; r < rounds; r++) {
		h = mix(h, work(r));
		checkpoint(r);
		printf("round %lu %lx\n", r, h);
		if (delay)
			usleep(delay);
	}
	return (int) (h & 0x3f);
}
