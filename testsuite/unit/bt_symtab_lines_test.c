/* GDB's line tables (bt_symtab_lines.c) against GDB itself, on libc
   through its separate debug file (libc6-dbg): `info line *ADDR` for
   every byte of functions from assembler sources, of C functions whose
   lines interleave with inlined headers', and of one whose line table
   has end markers GDB drops rows at.  */
#define _GNU_SOURCE
#include "btrace/ptbtrace.h"
#include "btrace/bt_symtab.h"
#include "btrace/bt_debuglink.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char libc[] = "/lib/x86_64-linux-gnu/libc.so.6";

struct func {
	const char *name;
	uint64_t address, size;
};

/* The functions' link-time ranges from the debug file's symbol table.  */
static int find_funcs(const char *debug, struct func *f, size_t n)
{
	int fd = open(debug, O_RDONLY), found = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; ++i) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(d, (int) i, &sym) || !sym.st_size)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			for (size_t k = 0; name && k < n; ++k)
				if (!f[k].size && strcmp(name, f[k].name) == 0) {
					f[k].address = sym.st_value;
					f[k].size = sym.st_size;
					found += 1;
				}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

static int libc_debug_file(char *out, size_t size)
{
	int fd = open(libc, O_RDONLY), ok = 0;
	Elf *elf;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf)
		ok = bt_debug_file_find(elf, libc, BT_DEBUG_FILE_DIRECTORY, out,
					size) == 0;
	if (elf)
		elf_end(elf);
	close(fd);
	return ok;
}

/* GDB's `info line *ADDR` text for what we find at ADDR.  */
static void expect(struct bt_symtab *st, uint64_t a, char *want, size_t n)
{
	const char *file;
	uint64_t start, end;
	int line;

	if (bt_symtab_line(st, a, &line, &file) != 0) {
		snprintf(want, n, "No line number information available for "
			 "address 0x%llx", (unsigned long long) a);
		return;
	}
	cr_assert_eq(bt_symtab_line_bounds(st, a, &start, &end), 0);
	snprintf(want, n, "Line %d of \"%s\" starts at address 0x%llx ", line,
		 file, (unsigned long long) start);
	/* Where a row ends: GDB's "and ends at 0x..." (the end is checked
	   when one follows in the CU).  */
	if (end) {
		size_t len = strlen(want);

		snprintf(want + len, n - len, "@0x%llx",
			 (unsigned long long) end);
	}
}

Test(bt_symtab_lines, libc_lines_are_gdbs_byte_for_byte)
{
	const char *gdb = getenv("GDB");
	struct func funcs[] = {
		{ "__memmove_avx_unaligned_erms", 0, 0 },  /* assembler */
		{ "__strchr_evex", 0, 0 },
		{ "__strcmp_sse2", 0, 0 },
		{ "__vfprintf_internal", 0, 0 },   /* inlined headers */
		{ "read_alias_file", 0, 0 },
		{ "__glibc_morecore", 0, 0 },
	};
	const size_t nfuncs = sizeof(funcs) / sizeof(*funcs);
	char debug[4096], path[] = "/tmp/bt_lines_testXXXXXX", line[4096];
	char *cmd = NULL;
	size_t len = 0, checked = 0;
	struct bt_symtab *st = NULL;
	FILE *script, *in;
	int fd;

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		cr_skip_test("GDB is not available as the oracle");
	if (!libc_debug_file(debug, sizeof(debug)))
		cr_skip_test("no separate debug file for %s (libc6-dbg)", libc);
	cr_assert_eq(find_funcs(debug, funcs, nfuncs), (int) nfuncs,
		     "functions missing from %s", debug);

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	script = fdopen(fd, "w");
	for (size_t i = 0; i < nfuncs; ++i)
		for (uint64_t a = funcs[i].address;
		     a < funcs[i].address + funcs[i].size && a <
		     funcs[i].address + 2500; ++a)
			fprintf(script, "info line *0x%llx\n",
				(unsigned long long) a);
	fclose(script);

	cr_assert_eq(bt_symtab_open_file(&st, libc), 0);
	bt_symtab_set_bias(st, 0);
	in = open_memstream(&cmd, &len);
	fprintf(in, "'%s' -nx -batch -x '%s' '%s' 2>&1", gdb, path, libc);
	fclose(in);
	in = popen(cmd, "r");
	cr_assert_not_null(in);
	for (size_t i = 0; i < nfuncs; ++i)
		for (uint64_t a = funcs[i].address;
		     a < funcs[i].address + funcs[i].size && a <
		     funcs[i].address + 2500; ++a) {
			char want[4200], *at, *ends;

			cr_assert_not_null(fgets(line, sizeof(line), in));
			expect(st, a, want, sizeof(want));
			at = strchr(want, '@');
			if (at)
				*at = 0;
			cr_assert_eq(strncmp(line, want, strlen(want)), 0,
				     "%s+0x%llx: GDB %s, we %s", funcs[i].name,
				     (unsigned long long) (a -
							   funcs[i].address),
				     line, want);
			/* The row's end, where we know it.  */
			ends = strstr(line, " and ends at ");
			if (at && ends)
				cr_assert_eq(strtoull(ends + 13, NULL, 16),
					     strtoull(at + 3, NULL, 16),
					     "%s+0x%llx: GDB %s",
					     funcs[i].name,
					     (unsigned long long) (a -
						funcs[i].address), line);
			checked += 1;
		}
	pclose(in);
	unlink(path);
	free(cmd);
	bt_symtab_free(st);
	printf("libc: %zu addresses checked\n", checked);
}
