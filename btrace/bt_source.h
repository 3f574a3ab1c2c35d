/* Source lines printed as GDB's print_source_lines does for the
   instruction history's /m and /s (file name, line, text).  */
#ifndef BT_SOURCE_H
#define BT_SOURCE_H

#include <stdio.h>

struct bt_source;

int bt_source_alloc(struct bt_source **source);
void bt_source_free(struct bt_source *source);

/* Where the message for a file that cannot be read goes (GDB writes
   it to its error stream): ERR, or stderr if NULL (the default).  */
void bt_source_set_err(struct bt_source *source, FILE *err);

/* Print LINE of the file at PATH as "FILE:LINE\tTEXT\n" (FILE as GDB
   displays it); a file that cannot be read gets GDB's messages instead:
   the error the first time, "N\tin FILE" on OUT after.  */
void bt_source_print_line(struct bt_source *source, FILE *out,
			  const char *file, const char *path, int line);

#endif
