/* Symbols and source lines of one ELF object (a file or in-memory image
   such as the vDSO), as GDB would see them: ELF symbols are GDB's minimal
   symbols (libelf), DWARF subprograms its full symbols and the DWARF line
   table its line info (libdw).  Addresses are run-time addresses.  */
#ifndef BT_SYMTAB_H
#define BT_SYMTAB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* An ELF symbol in an executable section.  */
struct bt_msym {
	uint64_t address;
	uint64_t size;
	const char *name;
	uint32_t shndx;
};

/* A DWARF function (not inlined): its pc range and where it is defined.  */
struct bt_dfunc {
	uint64_t low;
	uint64_t high;            /* exclusive */
	uint64_t entry;           /* the function's entry (all ranges) */
	const char *name;
	const char *file;         /* as GDB displays it */
};

struct bt_symtab;

/* Open the ELF file PATH (its separate debug file looked for under
   BT_DEBUG_FILE_DIRECTORY).  */
int bt_symtab_open_file(struct bt_symtab **symtab, const char *path);

/* The same, with GDB's debug-file-directory DEBUG_DIR (NULL: the
   default; "": no separate debug files).  */
int bt_symtab_open_file_in(struct bt_symtab **symtab, const char *path,
			   const char *debug_dir);

/* Open an ELF image held in memory (not copied; must outlive SYMTAB).  */
int bt_symtab_open_memory(struct bt_symtab **symtab, const uint8_t *bytes,
			  size_t size);

void bt_symtab_free(struct bt_symtab *symtab);

/* Derive the load bias from a mapping of SIZE bytes of the file at OFFSET
   placed at ADDRESS; -bte_notfound if no PT_LOAD segment starts in it.  */
int bt_symtab_relocate(struct bt_symtab *symtab, uint64_t address,
		       uint64_t offset, uint64_t size);

/* The GNU build-id of the object: its size (0 if none) and *ID.  */
ssize_t bt_symtab_build_id(const struct bt_symtab *symtab, const void **id);

/* Set the load bias directly (for images mapped at their link address
   plus BIAS, like the vDSO).  */
void bt_symtab_set_bias(struct bt_symtab *symtab, uint64_t bias);

/* For an in-memory image mapped at ADDRESS: bias from its first PT_LOAD.  */
int bt_symtab_relocate_image(struct bt_symtab *symtab, uint64_t address);

/* The symbol GDB would find for PC, with its run-time address.  */
int bt_symtab_msym(const struct bt_symtab *symtab, uint64_t pc,
		   struct bt_msym *msym);
int bt_symtab_dfunc(const struct bt_symtab *symtab, uint64_t pc,
		    struct bt_dfunc *dfunc);

/* The data symbol GDB names ADDRESS by (a sized one covering it).  */
int bt_symtab_data_msym(const struct bt_symtab *symtab, uint64_t address,
			struct bt_msym *msym);

/* PC's line and file (as GDB displays it); -bte_notfound.  */
int bt_symtab_line(const struct bt_symtab *symtab, uint64_t pc, int *line,
		   const char **file);

/* bt_symtab_line, and [*LO, *HI): addresses around PC with the same
   answer (*LO = *HI = PC + 1 where there is none to give).  */
int bt_symtab_line_extent(const struct bt_symtab *symtab, uint64_t pc,
			  int *line, const char **file, uint64_t *lo,
			  uint64_t *hi);

/* The source lines GDB's instruction history shows at PC ([*BEGIN,
   *END), empty if none start there), PC's file as GDB displays it and
   the path to read its text from.  */
int bt_symtab_line_range(const struct bt_symtab *symtab, uint64_t pc,
			 int *begin, int *end, const char **file,
			 const char **path);

/* The line-table row PC is in (find_pc_line's choice): [*START, *END),
   *END being 0 if no row follows.  */
int bt_symtab_line_bounds(const struct bt_symtab *symtab, uint64_t pc,
			  uint64_t *start, uint64_t *end);

/* The first address above PC at which the lookups above may change.  */
uint64_t bt_symtab_boundary(const struct bt_symtab *symtab, uint64_t pc);

#endif
