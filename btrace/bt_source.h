/* Source lines printed as GDB's print_source_lines does for the
   instruction history's /m and /s (file name, line, text).  */
#ifndef BT_SOURCE_H
#define BT_SOURCE_H

#include <stdio.h>

struct bt_source;

int bt_source_alloc(struct bt_source **source);
void bt_source_free(struct bt_source *source);

/* Print LINE of the file at PATH as "FILE:LINE\tTEXT\n" (FILE as GDB
   displays it); a file that cannot be read gets GDB's messages instead.  */
void bt_source_print_line(struct bt_source *source, FILE *out,
			  const char *file, const char *path, int line);

#endif
