/* Synthetic symbols for PLT entries, as BFD makes them for GDB.  */
#include "btrace/bt_plt.h"
#include "btrace/ptbtrace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GOT slot a dynamic relocation fills with a symbol's address, or
   (NAME null) an IRELATIVE one, which BFD names by its addend.  */
struct bt_slot {
	uint64_t address;
	const char *name;
	uint64_t addend;
};

#ifndef R_X86_64_IRELATIVE
#define R_X86_64_IRELATIVE 37
#endif

static size_t bt_plt_slots(Elf *elf, struct bt_slot **out)
{
	Elf_Scn *scn = NULL;
	struct bt_slot *slots = NULL;
	size_t n = 0, cap = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh, symsh;
		Elf_Data *data, *syms;
		Elf_Scn *symscn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    !sh.sh_entsize)
			continue;
		symscn = elf_getscn(elf, sh.sh_link);
		if (!symscn || !gelf_getshdr(symscn, &symsh))
			continue;
		data = elf_getdata(scn, NULL);
		syms = elf_getdata(symscn, NULL);
		for (size_t i = 0; data && syms && i < sh.sh_size / sh.sh_entsize;
		     ++i) {
			GElf_Rela rela;
			GElf_Sym sym;
			const char *name;

			if (!gelf_getrela(data, (int) i, &rela))
				continue;
			if (!GELF_R_SYM(rela.r_info)) {
				if (GELF_R_TYPE(rela.r_info) != R_X86_64_IRELATIVE)
					continue;
				name = NULL;
			} else if (!gelf_getsym(syms,
						(int) GELF_R_SYM(rela.r_info),
						&sym)) {
				continue;
			} else {
				name = elf_strptr(elf, symsh.sh_link, sym.st_name);
				if (!name || !name[0])
					continue;
			}
			if (n == cap) {
				struct bt_slot *grown;

				cap = cap ? 2 * cap : 64;
				grown = realloc(slots, cap * sizeof(*slots));
				if (!grown)
					break;
				slots = grown;
			}
			slots[n].address = rela.r_offset;
			slots[n].name = name;
			slots[n].addend = (uint64_t) rela.r_addend;
			n += 1;
		}
	}
	*out = slots;
	return n;
}

/* GDB names PLT entries "NAME@plt" (BFD's synthetic symbols): find each
   entry's `jmp *SLOT(%rip)` and the symbol a relocation puts in SLOT.  */
int bt_plt_scan(Elf *elf, int (*add)(void *ctx, uint64_t address,
				     uint32_t shndx, const char *name),
		void *ctx)
{
	struct bt_slot *slots;
	size_t nslots = bt_plt_slots(elf, &slots);
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int errcode = 0;

	if (!gelf_getehdr(elf, &eh)) {
		free(slots);
		return -bte_bad_elf;
	}
	while (nslots && !errcode && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		const char *name;
		const uint8_t *code;
		uint64_t entsize;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, eh.e_shstrndx, sh.sh_name);
		if (!name || (strcmp(name, ".plt") && strcmp(name, ".plt.sec") &&
			      strcmp(name, ".plt.got")))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || data->d_size < 6)
			continue;
		code = data->d_buf;
		entsize = sh.sh_entsize ? sh.sh_entsize : 16;

		for (size_t at = 0; !errcode && at + 6 <= data->d_size; ++at) {
			int32_t disp;
			uint64_t slot;

			if (code[at] != 0xff || code[at + 1] != 0x25)
				continue;
			memcpy(&disp, code + at + 2, 4);
			slot = sh.sh_addr + at + 6 + (int64_t) disp;
			for (size_t k = 0; k < nslots; ++k) {
				char abs[32];
				const char *slot_name = slots[k].name;

				if (slots[k].address != slot)
					continue;
				if (!slot_name) {
					snprintf(abs, sizeof(abs), "*ABS*+0x%" PRIx64,
						 slots[k].addend);
					slot_name = abs;
				}
				errcode = add(ctx, sh.sh_addr + at - at % entsize,
					      (uint32_t) elf_ndxscn(scn),
					      slot_name);
				break;
			}
		}
	}
	free(slots);
	return errcode;
}
