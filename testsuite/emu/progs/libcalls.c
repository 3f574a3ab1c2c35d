/* PLT calls with lazy binding, qsort with a callback, and libc's string
   functions (their AVX2/EVEX variants, rep movsb/stosb).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int __attribute__((noinline)) cmp_int(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;

	return (x > y) - (x < y);
}

static char big_src[8192], big_dst[8192];

int __attribute__((noinline)) run(int n)
{
	int v[64];
	char buf[256];
	long sum = 0;

	for (int i = 0; i < 64; i++)
		v[i] = (i * 7919) % 101 - 50;
	qsort(v, 64, sizeof(v[0]), cmp_int);
	for (int i = 0; i < n; i++) {
		memset(buf, 'a' + i % 26, sizeof(buf) - 1);
		buf[sizeof(buf) - 1 - i] = 0;
		sum += strlen(buf);
		sum += strcmp(buf, "hello") > 0;
		sum += strchr(buf, 'z') != NULL;
		sum += memcmp(buf, buf + 1, 100);
		snprintf(buf, sizeof(buf), "%d-%s", i, "x");
		sum += atoi(buf);
	}
	memset(big_src, 7, sizeof(big_src));
	memcpy(big_dst, big_src, sizeof(big_src));
	memmove(big_dst + 1, big_dst, 4000);
	sum += big_dst[4000] + v[0] + v[63];
	return (int) sum;
}

int main(void)
{
	printf("%d\n", run(10));
	return 0;
}
