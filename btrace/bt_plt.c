/* Synthetic symbols for PLT entries, as BFD makes them for GDB.  */
#include "btrace/bt_plt.h"
#include "common/ps_array.h"
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
			if (PS_ARRAY_RESERVE(slots, cap, n + 1))
				break;
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

static Elf_Scn *bt_plt_section(Elf *elf, size_t shstrndx, const char *want,
			       GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && strcmp(name, want) == 0)
			return scn;
	}
	return NULL;
}

/* GDB's elf_rel_plt_read: the relocations of the first REL or RELA
   section that applies to .plt or .got.plt (.got where there is none),
   named after their symbols with "@got.plt", where they land in either.  */
int bt_got_plt_scan(Elf *elf, int (*add)(void *ctx, uint64_t address,
					 uint32_t shndx, const char *name),
		    void *ctx)
{
	GElf_Shdr got_sh, plt_sh, sh, symsh;
	Elf_Scn *got, *plt, *scn = NULL, *symscn;
	Elf_Data *data, *syms;
	size_t shstrndx, plt_idx, got_idx;
	int errcode = 0;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return -bte_bad_elf;
	got = bt_plt_section(elf, shstrndx, ".got.plt", &got_sh);
	if (!got)
		got = bt_plt_section(elf, shstrndx, ".got", &got_sh);
	if (!got)
		return 0;
	plt = bt_plt_section(elf, shstrndx, ".plt", &plt_sh);
	plt_idx = plt ? elf_ndxscn(plt) : (size_t) -1;
	got_idx = elf_ndxscn(got);
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_RELA ||
					       sh.sh_type == SHT_REL) &&
		    (sh.sh_info == plt_idx || sh.sh_info == got_idx))
			break;
	if (!scn || !sh.sh_entsize)
		return 0;
	symscn = elf_getscn(elf, sh.sh_link);
	data = elf_getdata(scn, NULL);
	syms = symscn ? elf_getdata(symscn, NULL) : NULL;
	if (!data || !syms || !gelf_getshdr(symscn, &symsh))
		return 0;
	for (size_t i = 0; !errcode && i < sh.sh_size / sh.sh_entsize; ++i) {
		GElf_Rela rela;
		GElf_Rel rel;
		GElf_Sym sym;
		const char *name = "*ABS*";
		char text[1024];
		uint64_t offset, info;
		Elf_Scn *in;

		if (sh.sh_type == SHT_RELA) {
			if (!gelf_getrela(data, (int) i, &rela))
				continue;
			offset = rela.r_offset;
			info = rela.r_info;
		} else {
			if (!gelf_getrel(data, (int) i, &rel))
				continue;
			offset = rel.r_offset;
			info = rel.r_info;
		}
		if (GELF_R_SYM(info) &&
		    gelf_getsym(syms, (int) GELF_R_SYM(info), &sym))
			name = elf_strptr(elf, symsh.sh_link, sym.st_name);
		if (!name)
			continue;
		if (offset - got_sh.sh_addr < got_sh.sh_size)
			in = got;
		else if (plt && offset - plt_sh.sh_addr < plt_sh.sh_size)
			in = plt;
		else
			continue;
		snprintf(text, sizeof(text), "%s@got.plt", name);
		errcode = add(ctx, offset, (uint32_t) elf_ndxscn(in), text);
	}
	return errcode;
}
