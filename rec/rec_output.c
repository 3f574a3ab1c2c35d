/* Where snapshots go: FILE, FILE.1, FILE.2, ... (each written whole or
   not at all by the bundle's one file writer, bt_bundle_file.h).  */
#include "rec/recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rec_output_name(const char *file, unsigned n)
{
	size_t len = strlen(file) + 16;
	char *name = malloc(len);

	if (!name)
		return NULL;
	if (n == 0)
		snprintf(name, len, "%s", file);
	else
		snprintf(name, len, "%s.%u", file, n);
	return name;
}
