/* Minimal symbol names as GDB prints them: GDB itself is the oracle, on
   bt_asm's oddly named functions and on libc's clones (.cold, .part.N,
   .isra.N, .constprop.N) when its debug file is installed.  */
#define _GNU_SOURCE
#include "btrace/bt_msym_name.h"
#include "btrace/bt_debuglink.h"
#include "btrace/ptbtrace.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every function symbol (for aliases); QUERY marks those asked about.  */
struct names {
	uint64_t address[32768];
	char *name[32768];
	char query[32768];
	size_t n;
};

/* Append FILE's sized function symbols whose names pass FILTER.  */
static void read_names(const char *file, struct names *out,
		       int (*filter)(const char *))
{
	int fd = open(file, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB &&
						 sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize &&
			     out->n < 32768; ++i) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int) i, &sym) ||
			    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
			     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC) ||
			    !sym.st_size)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name)
				continue;
			out->address[out->n] = sym.st_value;
			out->query[out->n] = (char) filter(name);
			out->name[out->n++] = strdup(name);
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
}

/* Ask GDB `info symbol` for every address; compare the printed name.  */
static void compare_with_gdb(const char *gdb, const char *file,
			     struct names *names)
{
	char path[] = "/tmp/bt_msym_name_testXXXXXX", line[2048], *cmd = NULL;
	size_t len = 0;
	FILE *script, *in;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	script = fdopen(fd, "w");
	for (size_t i = 0; i < names->n; ++i)
		if (names->query[i])
			fprintf(script, "info symbol 0x%llx\n",
				(unsigned long long) names->address[i]);
	fclose(script);
	in = open_memstream(&cmd, &len);
	fprintf(in, "'%s' -nx -batch -x '%s' '%s' 2>&1", gdb, path, file);
	fclose(in);
	in = popen(cmd, "r");
	cr_assert_not_null(in);
	for (size_t i = 0; i < names->n; ++i) {
		char buf[1024], want[1100];
		const char *ours;

		int match = 0;

		if (!names->query[i])
			continue;
		cr_assert_not_null(fgets(line, sizeof(line), in));
		/* GDB names one of the symbols at the address (aliases).  */
		for (size_t k = 0; k < names->n && !match; ++k) {
			if (names->address[k] != names->address[i])
				continue;
			ours = bt_msym_print_name(names->name[k], buf,
						  sizeof(buf));
			snprintf(want, sizeof(want), "%s in section ", ours);
			match = strncmp(line, want, strlen(want)) == 0;
		}
		ours = bt_msym_print_name(names->name[i], buf, sizeof(buf));
		cr_assert(match, "%s: GDB %s, we %s", names->name[i], line,
			  ours);
	}
	for (size_t i = 0; i < names->n; ++i)
		free(names->name[i]);
	pclose(in);
	unlink(path);
	free(cmd);
}

static const char *oracle(void)
{
	const char *gdb = getenv("GDB");

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		return NULL;
	return gdb;
}

static int odd(const char *name)
{
	return (name[0] == 'w' || name[0] == 'W') && name[1] == '_';
}

Test(bt_msym_name, odd_names_print_as_gdb_prints_them)
{
	const char *build = getenv("top_builddir"), *gdb = oracle();
	char prog[4096];
	static struct names names;

	if (!gdb)
		cr_skip_test("GDB is not available as the oracle");
	snprintf(prog, sizeof(prog), "%s/testsuite/btrace/bt_asm",
		 build ? build : ".");
	read_names(prog, &names, odd);
	if (!names.n)
		cr_skip_test("%s is not built", prog);
	{
		size_t asked = 0;

		for (size_t i = 0; i < names.n; ++i)
			asked += names.query[i] != 0;
		cr_assert_eq(asked, 13);
	}
	compare_with_gdb(gdb, prog, &names);
}

/* GCC's clones and cold parts: what GDB's decoding changes in C code.  */
static int dotted(const char *name)
{
	return strchr(name, '.') != NULL;
}

Test(bt_msym_name, libc_clones_print_as_gdb_prints_them)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6", *gdb = oracle();
	char debug[4096];
	static struct names names;
	int fd = open(libc, O_RDONLY);
	Elf *elf;
	int found;

	if (!gdb)
		cr_skip_test("GDB is not available as the oracle");
	if (fd < 0)
		cr_skip_test("no %s", libc);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	found = bt_debug_file_find(elf, libc, BT_DEBUG_FILE_DIRECTORY, debug,
				   sizeof(debug)) == 0;
	elf_end(elf);
	close(fd);
	if (!found)
		cr_skip_test("no debug file for %s (libc6-dbg)", libc);
	/* Both files' symbols, as GDB reads both.  */
	read_names(debug, &names, dotted);
	read_names(libc, &names, dotted);
	cr_assert_gt(names.n, 10);
	compare_with_gdb(gdb, libc, &names);
}

Test(bt_msym_name, plain_names_stay)
{
	char buf[64];

	cr_assert_str_eq(bt_msym_print_name("main", buf, sizeof(buf)), "main");
	cr_assert_str_eq(bt_msym_print_name("_start", buf, sizeof(buf)),
			 "_start");
	cr_assert_str_eq(bt_msym_print_name("puts@plt", buf, sizeof(buf)),
			 "puts@plt");
	/* Too long to decode into the buffer: left as it is.  */
	cr_assert_str_eq(bt_msym_print_name("a_long_name.part.0", buf, 4),
			 "a_long_name.part.0");
}
