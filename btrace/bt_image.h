/* The memory image's library-internal side: the libipt image and the
   function identity that function segments are built on.  */
#ifndef BT_IMAGE_H
#define BT_IMAGE_H

#include "btrace/ptbtrace.h"

struct pt_image;

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

/* Whether two identities differ, by GDB's rules.  */
int bt_func_key_switched(const struct bt_func_key *old,
			 const struct bt_func_key *now);

#endif
