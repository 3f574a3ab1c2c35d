/* The benchmark's standard workloads: recursive fib, qsort with a
   callback, a string-heavy loop; argv[1] picks one, argv[2] sizes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int __attribute__((noinline)) cmp(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;

	return (x > y) - (x < y);
}

static long __attribute__((noinline)) sort(int n)
{
	int *v = malloc(n * sizeof(*v));
	long s = 0;

	for (int i = 0; i < n; i++)
		v[i] = (int) ((i * 2654435761u) % 1000);
	qsort(v, n, sizeof(*v), cmp);
	s = v[0] + v[n - 1];
	free(v);
	return s;
}

static long __attribute__((noinline)) strings(int n)
{
	char a[128], b[128];
	long s = 0;

	for (int i = 0; i < n; i++) {
		snprintf(a, sizeof(a), "item-%d-%s", i, "abcdefgh");
		strcpy(b, a);
		strcat(b, "-tail");
		s += strlen(b) + (strcmp(a, b) < 0) + (strstr(b, "tail") != NULL);
		for (char *p = b; *p; p++)
			s += *p == '-';
	}
	return s;
}

long __attribute__((noinline)) run(int kind, int n)
{
	switch (kind) {
	case 0: return fib(n);
	case 1: return sort(n);
	default: return strings(n);
	}
}

int main(int argc, char **argv)
{
	const char *k = argc > 1 ? argv[1] : "fib";
	const char *colon = strchr(k, ':');
	int kind = !strncmp(k, "fib", 3) ? 0 : !strncmp(k, "qsort", 5) ? 1 : 2;
	int n = argc > 2 ? atoi(argv[2]) : (kind == 0 ? 18 : kind == 1 ? 300 : 100);

	/* "fib:25": the size in the one argument (the benchmark's driver
	   passes one).  */
	if (colon)
		n = atoi(colon + 1);

	printf("%ld\n", run(kind, n));
	return 0;
}
