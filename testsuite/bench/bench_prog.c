/* The stub benchmark's inferior: `work` runs a sized workload between
   two breakpoint targets (`work` itself and `done`), so that GDB's
   `continue` from one to the other and the emulator's API tracing `work`
   to its return do the same work.
     bench_prog calls:N   recursion (fib N) and a few libc calls:
                          about 1M instructions for N = 23, 10M for 28
     bench_prog dense:N   N iterations of a loop whose trace is as dense
                          per ptrace stop as the emulator makes it
   The one argument is KIND:N because the emulator's driver passes one.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long __attribute__((noinline)) calls(int n)
{
	char text[64];
	long s = fib(n);

	/* Some library code too, as a real call history has.  */
	for (int i = 0; i < 8; i++) {
		snprintf(text, sizeof(text), "%d-%ld", i, s);
		s += (long) strlen(text);
	}
	return s;
}

static long __attribute__((noinline)) negate(long v)
{
	return -v;
}

/* Indirect calls that alternate between libc and this program: each is
   a stop and a TIP whose target shares no upper bytes with the last IP,
   the densest trace per stop the emulator makes (about 7 bytes).  */
static long __attribute__((noinline)) dense(long n)
{
	long (*volatile in_libc)(long) = labs;
	long (*volatile in_prog)(long) = negate;
	long s = 0;

	for (long i = 0; i < n; i++)
		s += in_prog(in_libc(i));
	return s;
}

long __attribute__((noinline)) work(const char *kind, long n)
{
	return !strcmp(kind, "dense") ? dense(n) : calls((int) n);
}

void __attribute__((noinline)) done(long result)
{
	printf("%ld\n", result);
}

int main(int argc, char **argv)
{
	char kind[16] = "calls";
	long n = 23;

	if (argc > 1) {
		const char *colon = strchr(argv[1], ':');
		size_t len = colon ? (size_t) (colon - argv[1]) : strlen(argv[1]);

		if (len >= sizeof(kind))
			return 2;
		memcpy(kind, argv[1], len);
		kind[len] = '\0';
		if (colon)
			n = atol(colon + 1);
	}
	done(work(kind, n));
	return 0;
}
