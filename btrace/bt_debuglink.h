/* Separate debug files, found where GDB finds them (its default
   debug-file-directory): by build-id, then by .gnu_debuglink.  */
#ifndef BT_DEBUGLINK_H
#define BT_DEBUGLINK_H

#include <gelf.h>
#include <stddef.h>

#define BT_DEBUG_FILE_DIRECTORY "/usr/lib/debug"

/* Whether ELF has a section called NAME.  */
int bt_elf_has_section(Elf *elf, const char *name);

/* Put in OUT the debug file for ELF, the file at PATH, under ROOT;
   -bte_notfound if there is none.  */
int bt_debug_file_find(Elf *elf, const char *path, const char *root,
		       char *out, size_t size);

#endif
