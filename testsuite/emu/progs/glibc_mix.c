/* Calls into glibc code nobody here wrote (strtod, snprintf("%.6f"),
   qsort, regcomp/regexec, malloc/free, iconv): the shortcuts met stores
   and chains there that the hand-written corpus never had.  */
#include <iconv.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;
	return x < y ? -1 : x > y;
}

__attribute__((noinline)) double run(const char *arg)
{
	char buf[64], out[64];
	double v[16], sum = 0;
	regex_t re;
	regmatch_t m[2];

	for (int i = 0; i < 16; i++) {
		snprintf(buf, sizeof(buf), "%.6f", (i * 7919 % 101) / 3.0);
		v[i] = strtod(buf, NULL) + strtod(arg, NULL);
	}
	qsort(v, 16, sizeof(v[0]), cmp);
	if (regcomp(&re, "([0-9]+)\\.([0-9]+)", REG_EXTENDED) == 0) {
		snprintf(buf, sizeof(buf), "%.6f", v[3]);
		if (regexec(&re, buf, 2, m, 0) == 0)
			sum += m[1].rm_eo;
		regfree(&re);
	}
	char *p = malloc(100);
	strcpy(p, "hello");
	iconv_t cd = iconv_open("UTF-16LE", "UTF-8");
	if (cd != (iconv_t) -1) {
		char *in = p, *o = out;
		size_t il = 5, ol = sizeof(out);
		iconv(cd, &in, &il, &o, &ol);
		sum += (double) ol;
		iconv_close(cd);
	}
	free(p);
	for (int i = 0; i < 16; i++)
		sum += v[i];
	return sum;
}

int main(int argc, char **argv)
{
	printf("%f\n", run(argc > 1 ? argv[1] : "1.5"));
	return 0;
}
