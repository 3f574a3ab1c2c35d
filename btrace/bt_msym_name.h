/* Minimal symbol names as GDB prints them (see bt_msym_name.c).  */
#ifndef BT_MSYM_NAME_H
#define BT_MSYM_NAME_H

#include <stddef.h>

/* LINKAGE as GDB prints it: LINKAGE itself, or its decoded form in BUF.  */
const char *bt_msym_print_name(const char *linkage, char *buf, size_t size);

#endif
