/* Separate debug files: by build-id under the debug directory, and by
   .gnu_debuglink next to a stripped copy of bt_prog made with objcopy.  */
#define _GNU_SOURCE
#include "btrace/bt_debuglink.h"
#include "btrace/bt_symtab.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Elf *open_elf(const char *path, int *fd)
{
	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY);
	cr_assert_geq(*fd, 0, "%s", path);
	return elf_begin(*fd, ELF_C_READ, NULL);
}

static void prog_path(char *out, size_t size)
{
	const char *build = getenv("top_builddir");

	snprintf(out, size, "%s/testsuite/btrace/bt_prog", build ? build : ".");
	if (access(out, R_OK) != 0)
		cr_skip_test("%s is not built", out);
}

/* A stripped copy of bt_prog in DIR linked to DIR/bt_prog.debug.  */
static void make_stripped(const char *dir, char *stripped, size_t size)
{
	char prog[4096], cmd[16384];

	prog_path(prog, sizeof(prog));
	snprintf(stripped, size, "%s/bt_prog", dir);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && objcopy --only-keep-debug '%s' bt_prog.debug && "
		 "objcopy --strip-debug --remove-section=.note.gnu.build-id "
		 "--add-gnu-debuglink=bt_prog.debug '%s' bt_prog 2>/dev/null",
		 dir, prog, prog);
	if (system(cmd) != 0)
		cr_skip_test("objcopy could not make a stripped copy");
}

Test(bt_debuglink, a_debuglink_next_to_the_file_is_found_and_checked)
{
	char dir[] = "/tmp/bt_debuglink_testXXXXXX", stripped[4096];
	char found[4096], want[4200], cmd[8300];
	Elf *elf;
	int fd;

	cr_assert_not_null(mkdtemp(dir));
	make_stripped(dir, stripped, sizeof(stripped));

	elf = open_elf(stripped, &fd);
	cr_assert_not(bt_elf_has_section(elf, ".debug_info"));
	cr_assert(bt_elf_has_section(elf, ".text"));
	cr_assert_eq(bt_debug_file_find(elf, stripped, "/nonexistent", found,
					sizeof(found)), 0);
	snprintf(want, sizeof(want), "%s/bt_prog.debug", dir);
	cr_assert_str_eq(found, want);
	elf_end(elf);
	close(fd);

	/* A debug file whose CRC does not match is not the one.  */
	snprintf(cmd, sizeof(cmd), "printf x >> '%s'", want);
	cr_assert_eq(system(cmd), 0);
	elf = open_elf(stripped, &fd);
	cr_assert_eq(bt_debug_file_find(elf, stripped, "/nonexistent", found,
					sizeof(found)), -bte_notfound);
	elf_end(elf);
	close(fd);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(bt_debuglink, symbols_and_lines_come_from_the_debug_file)
{
	char dir[] = "/tmp/bt_debuglink_testXXXXXX", stripped[4096];
	char cmd[4200];
	struct bt_symtab *st = NULL;
	struct bt_dfunc d;
	int line;

	cr_assert_not_null(mkdtemp(dir));
	make_stripped(dir, stripped, sizeof(stripped));
	cr_assert_eq(bt_symtab_open_file(&st, stripped), 0);
	/* Which function holds the address of symbol g, and its line.  */
	{
		Elf *elf;
		int fd;
		Elf_Scn *scn = NULL;
		uint64_t g = 0;

		elf = open_elf(stripped, &fd);
		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			Elf_Data *data;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
				continue;
			data = elf_getdata(scn, NULL);
			for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; ++i) {
				GElf_Sym sym;
				const char *name;

				gelf_getsym(data, (int) i, &sym);
				name = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (name && strcmp(name, "g") == 0)
					g = sym.st_value;
			}
		}
		elf_end(elf);
		close(fd);
		cr_assert_neq(g, 0);
		cr_assert_eq(bt_symtab_dfunc(st, g, &d), 0,
			     "no DWARF through the debug link");
		cr_assert_str_eq(d.name, "g");
		cr_assert_eq(bt_symtab_line(st, g, &line, NULL), 0);
		cr_assert_gt(line, 0);
	}
	bt_symtab_free(st);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

Test(bt_debuglink, a_build_id_under_the_debug_directory)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	char found[4096];
	Elf *elf;
	int fd;

	if (access(libc, R_OK) != 0)
		cr_skip_test("no %s", libc);
	elf = open_elf(libc, &fd);
	if (bt_debug_file_find(elf, libc, BT_DEBUG_FILE_DIRECTORY, found,
			       sizeof(found)) != 0) {
		elf_end(elf);
		close(fd);
		cr_skip_test("no debug file for libc (libc6-dbg)");
	}
	cr_assert_not_null(strstr(found, "/.build-id/"), "%s", found);
	cr_assert_eq(strcmp(found + strlen(found) - 6, ".debug"), 0);
	elf_end(elf);
	close(fd);
}
