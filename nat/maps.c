#include "nat/maps.h"
#include "common/ps_array.h"
#include "nat/emu/cc_inject.h"
#include "common/ps_error.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void nat_maps_init(struct nat_maps *maps)
{
	maps->map = NULL;
	maps->count = maps->cap = 0;
}

void nat_maps_fini(struct nat_maps *maps)
{
	for (size_t i = 0; i < maps->count; i++)
		free(maps->map[i].path);
	free(maps->map);
	nat_maps_init(maps);
}

static int nat_build_id_in(Elf *elf, uint8_t *id, size_t len)
{
	size_t nphdr;

	if (elf_getphdrnum(elf, &nphdr) < 0)
		return -pse_notfound;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr phdr;
		Elf_Data *data;
		GElf_Nhdr nhdr;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getphdr(elf, (int) i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, phdr.p_offset, phdr.p_filesz,
					    ELF_T_NHDR);
		while (data && (off = gelf_getnote(data, off, &nhdr, &name_off,
						   &desc_off)) > 0) {
			if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
			    memcmp((char *) data->d_buf + name_off, "GNU", 4))
				continue;
			if (nhdr.n_descsz > len)
				return -pse_nospace;
			memcpy(id, (char *) data->d_buf + desc_off, nhdr.n_descsz);
			return (int) nhdr.n_descsz;
		}
	}
	return -pse_notfound;
}

int nat_build_id(const char *path, uint8_t *id, size_t len)
{
	Elf *elf;
	int fd, n;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -pse_notfound;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = elf ? nat_build_id_in(elf, id, len) : -pse_notfound;
	elf_end(elf);
	close(fd);
	return n;
}

static int nat_maps_push(struct nat_maps *maps, const struct nat_map *m)
{
	if (PS_ARRAY_RESERVE(maps->map, maps->cap, maps->count + 1))
		return -pse_nomem;
	maps->map[maps->count++] = *m;
	return 0;
}

int nat_maps_read(struct nat_maps *maps, pid_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) pid);
	f = fopen(path, "re");
	if (!f)
		return -pse_noproc;
	while (!err && getline(&line, &cap, f) > 0) {
		unsigned long long start, end, offset;
		char perms[5], *name;
		struct nat_map m;
		int pos = 0;

		if (sscanf(line, "%llx-%llx %4s %llx %*s %*s %n", &start, &end,
			   perms, &offset, &pos) < 4 || !pos)
			continue;
		name = line + pos;
		name[strcspn(name, "\n")] = '\0';
		if (cc_inject_own_mapping(name))
			continue;
		memset(&m, 0, sizeof(m));
		m.start = start;
		m.end = end;
		m.offset = offset;
		m.prot = (perms[0] == 'r' ? PROT_READ : 0) |
			 (perms[1] == 'w' ? PROT_WRITE : 0) |
			 (perms[2] == 'x' ? PROT_EXEC : 0);
		m.path = strdup(name);
		if (!m.path) {
			err = -pse_nomem;
			break;
		}
		if (name[0] == '/' && maps->count &&
		    !strcmp(maps->map[maps->count - 1].path, name)) {
			/* A file maps several times: read its note once.  */
			const struct nat_map *prev = &maps->map[maps->count - 1];

			memcpy(m.build_id, prev->build_id, prev->build_id_size);
			m.build_id_size = prev->build_id_size;
		} else if (name[0] == '/') {
			int n = nat_build_id(name, m.build_id, sizeof(m.build_id));

			m.build_id_size = n > 0 ? (size_t) n : 0;
		}
		err = nat_maps_push(maps, &m);
		if (err < 0)
			free(m.path);
	}
	free(line);
	fclose(f);
	return err;
}
