/* AT&T disassembly as GDB prints it: libopcodes (what GDB links), with
   addresses named by the image's symbols as GDB names them.  */
#ifndef BT_DISASM_H
#define BT_DISASM_H

#include "btrace/bt_image.h"

struct bt_disasm;

int bt_disasm_alloc(struct bt_disasm **disasm, const struct bt_image *image);
void bt_disasm_free(struct bt_disasm *disasm);

/* Disassemble the instruction at PC into TEXT (NUL-terminated, cut at
   SIZE); returns its length in bytes, or a negative bt_error_code.  */
int bt_disasm_insn(struct bt_disasm *disasm, uint64_t pc, char *text,
		   size_t size);

/* The raw-bytes column width the last instruction's printer asked for
   (libopcodes' bytes_per_line), as GDB pads /r output to it.  */
int bt_disasm_bytes_per_line(const struct bt_disasm *disasm);

#endif
