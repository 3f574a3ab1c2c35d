/* The memory image's library-internal side: the libipt image and the
   function identity that function segments are built on.  */
#ifndef BT_IMAGE_H
#define BT_IMAGE_H

#include "btrace/ptbtrace.h"

struct pt_image;
struct bt_symtab;

/* What GDB compares to tell functions apart (ftrace_function_switched):
   the minimal symbol, the full symbol and its file.  Any may be NULL.  */
struct bt_func_key {
	const char *msym;
	const char *sym;
	const char *file;
};

/* Instruction classes as GDB's btrace uses them (btrace_insn_class),
   plus conditional jumps, which GDB counts as other.  */
enum bt_insn_class {
	btic_other,
	btic_call,
	btic_return,
	btic_jump,
	btic_cond_jump,
	btic_unknown,
};

/* Decode the instruction at ADDRESS: its length, and its class.  */
int bt_image_insn_decode(const struct bt_image *image, uint64_t address,
			 enum bt_insn_class *iclass);

/* The libipt image of the traced process's code.  */
struct pt_image *bt_image_pt(const struct bt_image *image);

/* The function identity at PC and the first address above PC where it may
   change (*END), so that callers need not look up every instruction.  */
int bt_image_func(const struct bt_image *image, uint64_t pc,
		  struct bt_func_key *key, uint64_t *end);

/* The start address of the function at PC (GDB's get_pc_function_start),
   or 0 if unknown.  */
uint64_t bt_image_func_start(const struct bt_image *image, uint64_t pc);

/* The symbol GDB names ADDR by in disassembly (build_address_symbolic):
   the DWARF function, or the ELF symbol where one starts at ADDR and the
   function does not (unless PREFER_SYM); the offset of ADDR from it.  */
int bt_image_symbolic(const struct bt_image *image, uint64_t addr,
		      int prefer_sym, const char **name, int64_t *offset);

/* The source lines instruction history shows at PC (bt_symtab.h).  */
int bt_image_line_range(const struct bt_image *image, uint64_t pc,
			int *begin, int *end, const char **file,
			const char **path);

/* PC's line and file (bt_image_line), and [*LO, *HI): the addresses
   around PC with the same answer (*LO = *HI = PC + 1 where PC has no
   line; *HI may stop short of the true end).  */
int bt_image_line_extent(const struct bt_image *image, uint64_t pc,
			 int *line, const char **file, uint64_t *lo,
			 uint64_t *hi);

/* Bytes of the image read ahead for length decoding of a run of
   instructions: one read per chunk, not one per instruction.  */
struct bt_insn_cursor {
	uint64_t base;
	int size;
	uint8_t bytes[256];
};

/* The length of the instruction at ADDRESS, through CURSOR (zeroed
   before its first use).  */
int bt_image_insn_length_at(const struct bt_image *image,
			    struct bt_insn_cursor *cursor, uint64_t address);

/* The line-table row of PC (bt_symtab_line_bounds).  */
int bt_image_line_bounds(const struct bt_image *image, uint64_t pc,
			 uint64_t *start, uint64_t *end);

/* The symbol table of the object mapped at PC, or NULL (for tests of
   what the lookups read).  */
const struct bt_symtab *bt_image_symtab_at(const struct bt_image *image,
					   uint64_t pc);

/* Whether two identities differ, by GDB's rules.  */
int bt_func_key_switched(const struct bt_func_key *old,
			 const struct bt_func_key *now);

#endif
