/* Write the corpus bundles to files, for the command-line tests and for
   comparing ptbtrace with GDB on the same traces.
   usage: bt_mkcorpus calls|error|overflow|repeat=N|loop=N OUTPUT */
#include "testsuite/btrace/bt_corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct bt_corpus corpus;
	uint8_t *trace = NULL;
	size_t size;
	char why[256];
	int status, errcode;

	if (argc != 3) {
		fputs("usage: bt_mkcorpus calls|error|overflow|repeat=N|loop=N "
		      "OUTPUT\n", stderr);
		return 2;
	}
	if (bt_corpus_init(&corpus, why, sizeof(why)) < 0) {
		fprintf(stderr, "SKIP: %s\n", why);
		return 77;
	}

	if (strcmp(argv[1], "calls") == 0)
		status = bt_corpus_calls(&corpus);
	else if (strcmp(argv[1], "error") == 0)
		status = bt_corpus_calls_with_error(&corpus);
	else if (strcmp(argv[1], "overflow") == 0)
		status = bt_corpus_calls_with_overflow(&corpus);
	else if (strncmp(argv[1], "repeat=", 7) == 0)
		status = bt_corpus_calls_repeated(&corpus,
						  strtoul(argv[1] + 7, NULL, 10),
						  &trace, &size);
	else if (strncmp(argv[1], "loop=", 5) == 0)
		status = bt_corpus_calls_looped(&corpus,
						strtoul(argv[1] + 5, NULL, 10),
						&trace, &size);
	else {
		fprintf(stderr, "bt_mkcorpus: unknown trace %s\n", argv[1]);
		return 2;
	}
	if (status < 0) {
		fprintf(stderr, "bt_mkcorpus: cannot encode %s\n", argv[1]);
		return 1;
	}

	errcode = bt_bundle_write_file(&corpus.bundle, argv[2]);
	free(trace);
	if (errcode < 0) {
		fprintf(stderr, "bt_mkcorpus: %s: %s\n", argv[2],
			bt_errstr(errcode));
		return 1;
	}
	return 0;
}
