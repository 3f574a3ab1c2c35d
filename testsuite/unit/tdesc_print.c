/* Print target.xml for the XCR0 given in hex (default: x87|sse), with
   -r the register table as "regno name bitsize" lines, or with -x this
   machine's XCR0.  */
#include "xml/tdesc_amd64.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int table = argc > 1 && !strcmp(argv[1], "-r");
	const char *arg = argc > 1 + table ? argv[1 + table] : "3";
	uint64_t xcr0 = strtoull(arg, NULL, 16);
	struct ps_buf out;
	int err;

	if (argc > 1 && !strcmp(argv[1], "-x")) {
		unsigned lo, hi;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		printf("%llx\n", (unsigned long long) hi << 32 | lo);
		return 0;
	}

	if (table) {
		unsigned n = tdesc_amd64_nregs(xcr0);

		for (unsigned i = 0; i < n; i++) {
			const struct tdesc_reg *r = tdesc_amd64_reg(xcr0, i);

			printf("%u %s %u\n", i, r->name, r->bitsize);
		}
		return 0;
	}
	ps_buf_init(&out);
	err = tdesc_amd64_xml(xcr0, "target.xml", &out);
	if (err < 0) {
		fprintf(stderr, "tdesc_amd64_xml: %s\n", ps_errstr(err));
		return 1;
	}
	fwrite(out.data, 1, out.len, stdout);
	ps_buf_fini(&out);
	return 0;
}
