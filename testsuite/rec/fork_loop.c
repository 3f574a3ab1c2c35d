/* The loop of loop.c in a parent and its fork child at once, for the
   recorder's --inherit: each prints its rounds with its name, the parent
   waits for the child and exits with a checksum of both.  ROUNDS
   (argv[1]) rounds, DELAY microseconds (argv[2]) after each.  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
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

static unsigned long run(const char *who, unsigned long seed,
			 unsigned long rounds, unsigned long delay)
{
	unsigned long h = seed;

	for (unsigned long r = 0; r < rounds; r++) {
		h = mix(h, work(r));
		checkpoint(r);
		printf("%s round %lu %lx\n", who, r, h);
		if (delay)
			usleep(delay);
	}
	return h;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 10;
	unsigned long delay = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
	unsigned long h;
	int status = 0;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pid = fork();
	if (pid < 0)
		return 100;
	if (pid == 0)
		return (int) (run("child", 1, rounds, delay) & 0x3f);
	h = run("parent", 2, rounds, delay);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 101;
	return (int) ((h + (unsigned long) WEXITSTATUS(status)) & 0x3f);
}
