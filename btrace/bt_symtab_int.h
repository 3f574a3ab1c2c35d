/* The symbol table's inside, shared by bt_symtab.c (ELF symbols) and
   bt_symtab_dwarf.c (DWARF functions and lines).  */
#ifndef BT_SYMTAB_INT_H
#define BT_SYMTAB_INT_H

#include "btrace/bt_inflate.h"
#include "btrace/bt_line_header.h"
#include "btrace/bt_symtab.h"

#include <elfutils/libdw.h>
#include <gelf.h>

struct bt_xsec {
	uint64_t address;         /* link-time */
	uint64_t size;
	uint32_t shndx;
};

/* A DWARF function as read, link-time; CU and SEQ (the order read) break
   ties between equal starts as the one sort of all CUs used to.  */
struct bt_dfunc_ent {
	struct bt_dfunc f;
	uint32_t cu;
	uint32_t seq;
};

/* A range of a CU's code, link-time.  */
struct bt_cu_range {
	uint64_t low;
	uint64_t high;            /* exclusive */
	uint32_t cu;
};

/* GDB's line tables of one CU (bt_symtab_lines.c).  A row: */
struct bt_lent {
	uint64_t pc;
	int32_t line;             /* 0: an end marker */
	uint32_t seq;             /* the order recorded */
	uint8_t is_stmt;
};

/* One source file's table (GDB's subfile and its symtab).  */
struct bt_lsub {
	const char *name;         /* as GDB displays it */
	const char *path;         /* where to read its text */
	struct bt_lent *v;
	size_t n;
	uint32_t order;           /* in GDB's list of the CU's symtabs */
};

/* find_pc_line's answer for the addresses from PC to the next span:
   LINE (0: none) of subfile SUB, the row's address ROW and the row's
   end END (0 if no row follows).  */
struct bt_lspan {
	uint64_t pc, row, end;
	int32_t line;
	uint32_t sub;
};

struct bt_cu_lines {
	struct bt_lsub *subs;     /* subs[0] is the CU's main file */
	size_t nsubs;
	uint32_t primary;         /* the subfile of functions without a file */
	struct bt_lspan *spans;
	size_t nspans;
};

struct bt_cu {
	Dwarf_Off die_off;
	int loaded;               /* its functions are in dfuncs */
	int indexed;              /* .debug_aranges gave its ranges */
	struct bt_cu_lines *lines;    /* read at the first line question */
};



/* The object's CUs, and their ranges sorted by low for finding the CUs
   an address is in (bt_symtab_cu.c).  */
struct bt_cus {
	struct bt_cu *v;
	size_t n;
	size_t nloaded;           /* CUs whose functions were read */
	struct bt_cu_range *ranges;
	uint64_t *max_high;       /* the highest high of ranges[0..k] */
	size_t nranges;
};

/* One object file's minimal symbols, link-time addresses, sorted.  */
struct bt_msyms {
	struct bt_msym *v;
	size_t n, cap;
};

struct bt_symtab {
	int fd;
	Elf *elf;
	int debug_fd;             /* the separate debug file, or -1 */
	Elf *debug_elf;
	/* Opened at the first DWARF question (bt_symtab_dwarf_open).  */
	int dwarf_opened;
	Dwarf *dwarf;             /* from the file or its debug file */
	struct bt_inflated inflated;   /* its compressed sections */
	struct bt_cus cus;
	struct bt_dsecs line_secs;
	/* The last line span found, and the addresses it holds for.  */
	const struct bt_lspan *last_span;
	const struct bt_cu_lines *last_lines;
	uint64_t last_lo, last_hi;
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
	struct bt_msyms data_syms, debug_data_syms;
	/* The functions of the CUs read so far: link-time, the first
	   nsorted sorted by low, then those of the CUs read last.  */
	struct bt_dfunc_ent *dfuncs;
	size_t ndfuncs, nsorted, dfuncs_cap;

	/* Strings we built (file names): freed with the symtab.  */
	char **strings;
	size_t nstrings, strings_cap;

};

/* TEXT kept for the symtab's lifetime, one copy per distinct text.  */
const char *bt_symtab_intern(struct bt_symtab *st, const char *text);

/* Open the DWARF of the file (or its debug file) and index its CUs, at
   the first call; no DWARF is not an error.  */
int bt_symtab_dwarf_open(struct bt_symtab *st);

/* Read the functions of every CU whose ranges hold ADDR (link-time), and
   set *HI (if not NULL) to the first address above ADDR at which that
   set of CUs may change.  */
int bt_symtab_dwarf_need(struct bt_symtab *st, uint64_t addr, uint64_t *hi);

/* Read the functions of every CU (for tests that compare with laziness).  */
int bt_symtab_dwarf_load_all(struct bt_symtab *st);

/* The number of CUs, and in *LOADED how many had their functions read.  */
size_t bt_symtab_dwarf_cus(const struct bt_symtab *st, size_t *loaded);

void bt_cus_fini(struct bt_cus *cus);

/* Append the functions of CU (number CU_INDEX) to dfuncs, unsorted.  */
int bt_symtab_dwarf_cu_funcs(struct bt_symtab *st, Dwarf_Die *cu,
			     uint32_t cu_index);

/* Sort the functions appended since the last sort into the others.  */
int bt_symtab_dwarf_sort(struct bt_symtab *st);

/* [*LO, *HI): the range of CU (an index) holding ADDR, up to the next
   range of any CU; -bte_notfound if none does.  */
int bt_cus_range_of(const struct bt_cus *cus, uint64_t addr, uint32_t cu,
		    uint64_t *lo, uint64_t *hi);

/* The CU whose DIE is at DIE_OFF, or -1.  */
long bt_cus_index_of(const struct bt_cus *cus, Dwarf_Off die_off);

/* Find the line-table sections (after the DWARF is opened).  */
void bt_symtab_lines_open(struct bt_symtab *st);

/* find_pc_line for ADDR (link-time): the span and its CU's tables in
   *LINES, or NULL where GDB finds no line.  */
const struct bt_lspan *bt_symtab_line_span(struct bt_symtab *st,
					   uint64_t addr,
					   const struct bt_cu_lines **lines);

/* bt_symtab_line_span, and [*LO, *HI) (link-time) where the answer
   holds, empty if unknown.  */
const struct bt_lspan *bt_symtab_line_span_extent(
	struct bt_symtab *st, uint64_t addr, const struct bt_cu_lines **lines,
	uint64_t *lo, uint64_t *hi);

void bt_cu_lines_release(struct bt_cu_lines *cl);

#endif
