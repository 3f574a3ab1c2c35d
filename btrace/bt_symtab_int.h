/* The symbol table's inside, shared by bt_symtab.c (ELF symbols) and
   bt_symtab_dwarf.c (DWARF functions and lines).  */
#ifndef BT_SYMTAB_INT_H
#define BT_SYMTAB_INT_H

#include "btrace/bt_symtab.h"

#include <elfutils/libdw.h>
#include <gelf.h>

struct bt_xsec {
	uint64_t address;         /* link-time */
	uint64_t size;
	uint32_t shndx;
};

/* One object file's minimal symbols, link-time addresses, sorted.  */
struct bt_msyms {
	struct bt_msym *v;
	size_t n;
};

struct bt_symtab {
	int fd;
	Elf *elf;
	int debug_fd;             /* the separate debug file, or -1 */
	Elf *debug_elf;
	Dwarf *dwarf;             /* from the file or its debug file */
	uint64_t bias;

	/* GDB reads minimal symbols from both files and prefers the
	   file's own on a tie: two tables, not one.  */
	struct bt_msyms main_syms, debug_syms;
	struct bt_xsec *xsecs;
	size_t nxsecs;
	/* Allocated sections that are not code, and their data symbols
	   (the file's own), for naming data addresses in disassembly.  */
	struct bt_xsec *dsecs;
	size_t ndsecs;
	struct bt_msyms data_syms;
	struct bt_dfunc *dfuncs;  /* link-time, sorted by low */
	size_t ndfuncs;

	/* Strings we built (file names): freed with the symtab.  */
	char **strings;
	size_t nstrings;

};

/* TEXT kept for the symtab's lifetime, one copy per distinct text.  */
const char *bt_symtab_intern(struct bt_symtab *st, const char *text);

/* Read the DWARF functions of the file (or its debug file).  */
int bt_symtab_load_dwarf(struct bt_symtab *st);

#endif
