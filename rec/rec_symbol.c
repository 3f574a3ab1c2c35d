/* --trigger=FUNC: the function's address in the running program, from
   the ELF symbol table of /proc/PID/exe and where it is mapped.  */
#include "rec/recorder.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "nat/procinfo.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int rec_find_symbol(Elf *elf, const char *name, uint64_t *value)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM) ||
		    !shdr.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize;
		     i++) {
			GElf_Sym sym;
			const char *s;

			if (!gelf_getsym(data, (int) i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_value)
				continue;
			s = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (s && !strcmp(s, name)) {
				*value = sym.st_value;
				return 0;
			}
		}
	}
	return -pse_notfound;
}

/* Where a position-independent program was loaded: the start of its
   first mapping, less the first segment's address.  */
static int rec_load_bias(pid_t pid, Elf *elf, const char *exe,
			 uint64_t *bias)
{
	struct nat_maps maps;
	uint64_t first = UINT64_MAX, start = 0;
	size_t n;
	int err, found = 0;

	if (elf_getphdrnum(elf, &n) < 0)
		return -pse_invalid;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int) i, &ph) && ph.p_type == PT_LOAD &&
		    ph.p_vaddr < first)
			first = ph.p_vaddr & ~(uint64_t) 0xfff;
	}
	nat_maps_init(&maps);
	err = nat_maps_read(&maps, pid);
	for (size_t i = 0; !err && i < maps.count; i++)
		if (!strcmp(maps.map[i].path, exe) && maps.map[i].offset == 0) {
			start = maps.map[i].start;
			found = 1;
			break;
		}
	nat_maps_fini(&maps);
	if (err < 0)
		return err;
	if (!found || first == UINT64_MAX)
		return -pse_notfound;
	*bias = start - first;
	return 0;
}

int rec_symbol_lookup(pid_t pid, const char *name, uint64_t *addr)
{
	struct ps_buf exe;
	GElf_Ehdr ehdr;
	uint64_t value = 0, bias = 0;
	Elf *elf;
	int fd, err;

	ps_buf_init(&exe);
	if (procinfo_exe_path(pid, &exe) < 0 || !exe.len) {
		ps_buf_fini(&exe);
		return -pse_noproc;
	}
	elf_version(EV_CURRENT);
	fd = open(exe.data, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ps_buf_fini(&exe);
		return -pse_notfound;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &ehdr)) {
		err = -pse_invalid;
	} else {
		err = rec_find_symbol(elf, name, &value);
		if (!err && ehdr.e_type == ET_DYN)
			err = rec_load_bias(pid, elf, exe.data, &bias);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	ps_buf_fini(&exe);
	if (!err)
		*addr = value + bias;
	return err;
}
