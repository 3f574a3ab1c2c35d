/* The address of a symbol in an ELF file, for tests that plant
   breakpoints in a non-PIE test program.  */
#ifndef TESTSUITE_UNIT_ELFSYM_H
#define TESTSUITE_UNIT_ELFSYM_H

#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static inline uint64_t elfsym_addr(const char *path, const char *name)
{
	uint64_t addr = 0;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !addr && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize; i++) {
			GElf_Sym sym;

			if (gelf_getsym(data, (int) i, &sym) &&
			    !strcmp(elf_strptr(elf, shdr.sh_link, sym.st_name), name)) {
				addr = sym.st_value;
				break;
			}
		}
	}
	elf_end(elf);
	close(fd);
	return addr;
}

#endif
