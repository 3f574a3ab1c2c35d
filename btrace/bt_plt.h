/* PLT entries as GDB names them ("puts@plt"): BFD's synthetic symbols
   rebuilt from the PLT code and the dynamic relocations.  */
#ifndef BT_PLT_H
#define BT_PLT_H

#include <gelf.h>
#include <stdint.h>

/* Call ADD for each PLT entry of ELF with its link-time address, section
   and the name of the symbol it jumps to; stops at ADD's first error.  */
int bt_plt_scan(Elf *elf, int (*add)(void *ctx, uint64_t address,
				     uint32_t shndx, const char *name),
		void *ctx);

/* Call ADD for each GOT slot a PLT relocation fills, as GDB names it
   ("puts@got.plt", a data symbol of 8 bytes; "*ABS*@got.plt" for a
   relocation without a symbol): its link-time address and section.  */
int bt_got_plt_scan(Elf *elf, int (*add)(void *ctx, uint64_t address,
					 uint32_t shndx, const char *name),
		    void *ctx);

#endif
