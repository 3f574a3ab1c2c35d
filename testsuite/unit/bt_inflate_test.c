/* Compressed debug sections inflated ahead of libdw: the bytes are the
   uncompressed file's, libdw reads them, and a damaged section is left
   to libelf.  The compressed file is this test program (whose debug
   sections are large enough for objcopy to compress) through objcopy.  */
#include "btrace/bt_inflate.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct file {
	int fd;
	Elf *elf;
};

static struct file open_file(const char *path)
{
	struct file f;

	elf_version(EV_CURRENT);
	f.fd = open(path, O_RDONLY);
	cr_assert_geq(f.fd, 0, "%s", path);
	f.elf = elf_begin(f.fd, ELF_C_READ_MMAP, NULL);
	cr_assert_not_null(f.elf, "%s", path);
	return f;
}

static void close_file(struct file *f)
{
	elf_end(f->elf);
	close(f->fd);
}

/* This program and a copy of it with zlib-compressed debug sections in
   DIR.  */
static void make_compressed(char *dir, char *plain, char *packed, size_t size)
{
	char cmd[16384];
	ssize_t len;

	cr_assert_not_null(mkdtemp(dir));
	len = readlink("/proc/self/exe", plain, size - 1);
	cr_assert_gt(len, 0);
	plain[len] = 0;
	snprintf(packed, size, "%s/bt_prog.z", dir);
	snprintf(cmd, sizeof(cmd),
		 "objcopy --compress-debug-sections=zlib '%s' '%s'", plain,
		 packed);
	if (system(cmd) != 0)
		cr_skip_test("objcopy could not compress the debug sections");
}

static void remove_dir(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

static Elf_Scn *section(Elf *elf, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	cr_assert_eq(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr mem, *shdr = gelf_getshdr(scn, &mem);
		const char *name = elf_strptr(elf, shstrndx, shdr->sh_name);

		if (name && strcmp(name, want) == 0)
			return scn;
	}
	return NULL;
}

/* The compressed .debug_* sections of ELF, by flag.  */
static size_t count_compressed(Elf *elf)
{
	size_t shstrndx, n = 0;
	Elf_Scn *scn = NULL;

	cr_assert_eq(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr mem, *shdr = gelf_getshdr(scn, &mem);
		const char *name = elf_strptr(elf, shstrndx, shdr->sh_name);

		n += name && strncmp(name, ".debug_", 7) == 0 &&
			(shdr->sh_flags & SHF_COMPRESSED);
	}
	return n;
}

static size_t count_cus(Elf *elf)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t header, n = 0;

	cr_assert_not_null(dw, "%s", dwarf_errmsg(-1));
	while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		n += 1;
		off = next;
	}
	dwarf_end(dw);
	return n;
}

Test(bt_inflate, inflated_sections_are_the_uncompressed_files_bytes)
{
	char dir[] = "/tmp/bt_inflate_testXXXXXX", plain[4096], packed[4096];
	static const char *const names[] = {
		".debug_info", ".debug_abbrev", ".debug_line", ".debug_str",
	};
	struct bt_inflated inf;
	struct file p, z;
	size_t before;

	make_compressed(dir, plain, packed, sizeof(plain));
	p = open_file(plain);
	z = open_file(packed);
	before = count_compressed(z.elf);
	cr_assert_geq(before, 4);

	bt_inflated_init(&inf);
	cr_assert_eq(bt_inflate_debug(z.elf, &inf), 0);
	cr_assert_eq(inf.nsections, before);
	cr_assert_eq(count_compressed(z.elf), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); ++i) {
		Elf_Data *a = elf_getdata(section(p.elf, names[i]), NULL);
		Elf_Data *b = elf_getdata(section(z.elf, names[i]), NULL);
		GElf_Shdr mem;

		cr_assert_not_null(a, "%s", names[i]);
		cr_assert_not_null(b, "%s", names[i]);
		cr_assert_eq(b->d_size, a->d_size, "%s", names[i]);
		cr_assert_eq(memcmp(a->d_buf, b->d_buf, a->d_size), 0, "%s",
			     names[i]);
		cr_assert_eq(gelf_getshdr(section(z.elf, names[i]), &mem)
			     ->sh_size, a->d_size, "%s", names[i]);
	}
	cr_assert_eq(count_cus(z.elf), count_cus(p.elf));
	close_file(&z);
	close_file(&p);
	bt_inflated_fini(&inf);
	cr_assert_null(inf.memory);
	remove_dir(dir);
}

Test(bt_inflate, a_damaged_section_is_left_to_libelf)
{
	char dir[] = "/tmp/bt_inflate_testXXXXXX", plain[4096], packed[4096];
	struct bt_inflated inf;
	GElf_Shdr mem, *shdr;
	struct file z;
	GElf_Chdr chdr;
	size_t before;
	FILE *f;
	long at;

	make_compressed(dir, plain, packed, sizeof(plain));
	z = open_file(packed);
	before = count_compressed(z.elf);
	shdr = gelf_getshdr(section(z.elf, ".debug_info"), &mem);
	cr_assert(shdr->sh_flags & SHF_COMPRESSED);
	cr_assert_not_null(gelf_getchdr(section(z.elf, ".debug_info"), &chdr));
	cr_assert_gt(shdr->sh_size, 1000);
	/* Past the compression header, into the deflate stream.  */
	at = (long) (shdr->sh_offset + shdr->sh_size / 2);
	close_file(&z);

	f = fopen(packed, "r+b");
	cr_assert_not_null(f);
	cr_assert_eq(fseek(f, at, SEEK_SET), 0);
	for (int i = 0; i < 64; ++i)
		fputc(0xff, f);
	fclose(f);

	z = open_file(packed);
	bt_inflated_init(&inf);
	cr_assert_eq(bt_inflate_debug(z.elf, &inf), 0);
	cr_assert_eq(inf.nsections, before - 1);
	cr_assert_eq(count_compressed(z.elf), 1);
	cr_assert(gelf_getshdr(section(z.elf, ".debug_info"), &mem)->sh_flags
		  & SHF_COMPRESSED);
	close_file(&z);
	bt_inflated_fini(&inf);
	remove_dir(dir);
}

Test(bt_inflate, an_uncompressed_file_is_left_alone)
{
	char dir[] = "/tmp/bt_inflate_testXXXXXX", plain[4096], packed[4096];
	struct bt_inflated inf;
	struct file p;

	make_compressed(dir, plain, packed, sizeof(plain));
	p = open_file(plain);
	bt_inflated_init(&inf);
	cr_assert_eq(bt_inflate_debug(p.elf, &inf), 0);
	cr_assert_eq(inf.nsections, 0);
	cr_assert_null(inf.memory);
	close_file(&p);
	remove_dir(dir);
}
