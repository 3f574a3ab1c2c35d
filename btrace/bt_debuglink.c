/* Separate debug files, looked up as GDB does: ROOT/.build-id/xx/yyy.debug
   for the file's build-id, then the .gnu_debuglink name next to the file,
   in its .debug folder and under ROOT, with the link's CRC checked.  */
#include "btrace/bt_debuglink.h"
#include "btrace/ptbtrace.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bt_elf_has_section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *s;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		s = elf_strptr(elf, shstrndx, sh.sh_name);
		if (s && strcmp(s, name) == 0)
			return 1;
	}
	return 0;
}

static int bt_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The CRC-32 of the file at PATH, as .gnu_debuglink records it: zlib's
   (reflected) CRC-32, which libdeflate computes with folding, so that a
   whole separate debug file is quick to check.  */
static int bt_file_crc(const char *path, uint32_t *crc)
{
	uint8_t buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -bte_io;
	*crc = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		*crc = libdeflate_crc32(*crc, buf, (size_t) n);
	close(fd);
	return n < 0 ? -bte_io : 0;
}

static int bt_debug_by_build_id(Elf *elf, const char *root, char *out,
				size_t size)
{
	const uint8_t *id;
	ssize_t len = dwelf_elf_gnu_build_id(elf, (const void **) &id);
	int at;

	if (len < 2)
		return -bte_notfound;
	at = snprintf(out, size, "%s/.build-id/%02x/", root, id[0]);
	for (ssize_t i = 1; i < len && at > 0 && (size_t) at + 3 < size; ++i)
		at += snprintf(out + at, size - (size_t) at, "%02x", id[i]);
	if (at <= 0 || (size_t) at + 7 >= size)
		return -bte_notfound;
	snprintf(out + at, size - (size_t) at, ".debug");
	return bt_is_file(out) ? 0 : -bte_notfound;
}

static int bt_debug_by_link(Elf *elf, const char *path, const char *root,
			    char *out, size_t size)
{
	GElf_Word want;
	const char *name = dwelf_elf_gnu_debuglink(elf, &want);
	char dir[4096];
	const char *slash;
	const char *forms[] = { "%s/%s", "%s/.debug/%s", NULL };

	if (!name || !path)
		return -bte_notfound;
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int) (slash - path) : 1,
		 slash ? path : ".");

	for (int k = 0; k < 3; ++k) {
		uint32_t crc;

		if (k < 2)
			snprintf(out, size, forms[k], dir, name);
		else
			snprintf(out, size, "%s%s/%s", root, dir, name);
		/* The file itself may carry the same link name.  */
		if (strcmp(out, path) == 0 || !bt_is_file(out))
			continue;
		if (bt_file_crc(out, &crc) == 0 && crc == want)
			return 0;
	}
	return -bte_notfound;
}

int bt_debug_file_find(Elf *elf, const char *path, const char *root,
		       char *out, size_t size)
{
	if (!elf || !root || !out || !size)
		return -bte_invalid;
	if (bt_debug_by_build_id(elf, root, out, size) == 0)
		return 0;
	return bt_debug_by_link(elf, path, root, out, size);
}
