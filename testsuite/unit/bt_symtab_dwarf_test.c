/* DWARF functions, file names and lines of real programs, with GDB as
   the oracle: bt_prog, and libc through its separate debug file.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_symtab.h"
#include "btrace/bt_msym_name.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_symtab_dwarf, corpus)

static struct bt_symtab *open_prog(void)
{
	struct bt_symtab *st = NULL;

	cr_assert_eq(bt_symtab_open_file(&st, corpus.prog), 0);
	cr_assert_eq(bt_symtab_relocate(st, corpus.mapping.address,
					corpus.mapping.offset,
					corpus.mapping.size), 0);
	return st;
}

Test(bt_symtab_dwarf, dwarf_functions_have_their_file_and_entry)
{
	struct bt_symtab *st = open_prog();
	struct bt_dfunc d;

	cr_assert_eq(bt_symtab_dfunc(st, corpus.main.ret, &d), 0);
	cr_assert_str_eq(d.name, "main");
	cr_assert_eq(d.low, corpus.main.address);
	cr_assert_eq(d.entry, corpus.main.address);
	cr_assert_gt(d.high, corpus.main.ret);
	cr_assert_not_null(strstr(d.file, "bt_prog.c"));
	bt_symtab_free(st);
}

Test(bt_symtab_dwarf, lines_and_the_bias)
{
	struct bt_symtab *st = open_prog();
	const char *file;
	int line;

	cr_assert_eq(bt_symtab_line(st, corpus.f.calls[0], &line, &file), 0);
	cr_assert_eq(line, bt_corpus_line(&corpus, "L:f_body"));
	/* Without the bias the same address is nothing.  */
	bt_symtab_set_bias(st, 0);
	cr_assert_eq(bt_symtab_line(st, corpus.f.calls[0], &line, &file),
		     -bte_notfound);
	bt_symtab_free(st);
}

/* GDB as the oracle for lines: `info line *ADDR` for every byte of main,
   f and g against bt_symtab_line, file name as GDB displays it.  */
Test(bt_symtab_dwarf, every_line_is_the_one_gdb_finds)
{
	const char *gdb = getenv("GDB");
	struct bt_symtab *st = NULL;
	const struct bt_corpus_func *fns[] = { &corpus.main, &corpus.f,
					       &corpus.g };
	char path[] = "/tmp/bt_symtab_testXXXXXX", line[1024], *cmd = NULL;
	size_t len = 0;
	FILE *script, *in;
	int fd;

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		cr_skip_test("GDB is not available as the oracle");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	script = fdopen(fd, "w");
	for (int i = 0; i < 3; ++i)
		for (uint64_t a = fns[i]->address;
		     a < fns[i]->address + fns[i]->size; ++a)
			fprintf(script, "info line *0x%llx\n",
				(unsigned long long) (a - BT_CORPUS_BASE));
	fclose(script);

	cr_assert_eq(bt_symtab_open_file(&st, corpus.prog), 0);
	bt_symtab_set_bias(st, 0);
	in = open_memstream(&cmd, &len);
	fprintf(in, "'%s' -nx -batch -x '%s' '%s' 2>&1", gdb, path,
		corpus.prog);
	fclose(in);
	in = popen(cmd, "r");
	cr_assert_not_null(in);
	for (int i = 0; i < 3; ++i)
		for (uint64_t a = fns[i]->address;
		     a < fns[i]->address + fns[i]->size; ++a) {
			uint64_t pc = a - BT_CORPUS_BASE;
			const char *file;
			int n;
			char want[1200];

			cr_assert_not_null(fgets(line, sizeof(line), in));
			cr_assert_eq(bt_symtab_line(st, pc, &n, &file), 0,
				     "0x%llx", (unsigned long long) pc);
			snprintf(want, sizeof(want), "Line %d of \"%s\"", n,
				 file);
			cr_assert_eq(strncmp(line, want, strlen(want)), 0,
				     "0x%llx: GDB %s, we %s",
				     (unsigned long long) pc, line, want);
		}
	pclose(in);
	unlink(path);
	free(cmd);
	bt_symtab_free(st);
}

/* The start and size of FILE's .text, read with plain libelf.  */
static int text_range(const char *file, uint64_t *start, uint64_t *size)
{
	int fd = open(file, O_RDONLY), found = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0)
		while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh))
				continue;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			if (name && strcmp(name, ".text") == 0) {
				*start = sh.sh_addr;
				*size = sh.sh_size;
				found = 1;
			}
		}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

/* GDB as the oracle on a real stripped library with its separate debug
   file (when installed): `list *ADDR` names the function GDB's btrace
   uses (find_pc_function) and the line; `info symbol` the minimal symbol.  */
Test(bt_symtab_dwarf, libc_functions_and_lines_are_gdbs)
{
	const char *gdb = getenv("GDB");
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	struct bt_symtab *st = NULL;
	char path[] = "/tmp/bt_symtab_testXXXXXX", line[4096], *cmd = NULL;
	uint64_t start, size, addrs[150];
	size_t len = 0, n = 0, k = 0;
	FILE *script, *in;
	int fd, named = 0;

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		cr_skip_test("GDB is not available as the oracle");
	if (!text_range(libc, &start, &size))
		cr_skip_test("no %s", libc);
	for (n = 0; n < 150; ++n)
		addrs[n] = start + (size / 151) * (n + 1) + n % 7;

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	script = fdopen(fd, "w");
	for (size_t i = 0; i < n; ++i)
		fprintf(script, "echo @@\\n\ninfo symbol 0x%llx\n"
			"list *0x%llx\n", (unsigned long long) addrs[i],
			(unsigned long long) addrs[i]);
	fclose(script);

	cr_assert_eq(bt_symtab_open_file(&st, libc), 0);
	bt_symtab_set_bias(st, 0);
	in = open_memstream(&cmd, &len);
	/* GDB flushes its output before an error's text: 2>&1 keeps the
	   order, and "No symbol matches" is an error.  */
	fprintf(in, "'%s' -nx -batch -x '%s' '%s' 2>&1", gdb, path, libc);
	fclose(in);
	in = popen(cmd, "r");
	cr_assert_not_null(in);
	int pending = 0;

	while (pending || fgets(line, sizeof(line), in)) {
		struct bt_msym m;
		struct bt_dfunc d;
		const char *file;
		int lineno;
		char want[4200];
		uint64_t a;

		pending = 0;
		if (strcmp(line, "@@\n") != 0)
			continue;
		cr_assert_lt(k, n);
		a = addrs[k++];

		/* info symbol */
		cr_assert_not_null(fgets(line, sizeof(line), in));
		if (bt_symtab_msym(st, a, &m) == 0) {
			char pn[1024];
			const char *shown = bt_msym_print_name(m.name, pn,
							       sizeof(pn));

			if (a == m.address)
				snprintf(want, sizeof(want), "%s in section ",
					 shown);
			else
				snprintf(want, sizeof(want),
					 "%s + %llu in section ", shown,
					 (unsigned long long) (a - m.address));
			cr_assert_eq(strncmp(line, want, strlen(want)), 0,
				     "0x%llx: GDB %s, we %s",
				     (unsigned long long) a, line, want);
		} else
			cr_assert_eq(strncmp(line, "No symbol matches", 17), 0,
				     "0x%llx: GDB %s, we none",
				     (unsigned long long) a, line);

		/* list: "0xADDR is in FUNC (FILE:LINE)." when GDB has one;
		   nothing at all where there is no line information.  */
		if (!fgets(line, sizeof(line), in))
			line[0] = 0;
		if (strcmp(line, "@@\n") == 0)
			pending = 1;
		if (strncmp(line, "0x", 2) != 0 || !strstr(line, " is in ")) {
			cr_assert_neq(bt_symtab_dfunc(st, a, &d), 0,
				      "0x%llx: GDB has no function: %s",
				      (unsigned long long) a, line);
			continue;
		}
		cr_assert_eq(bt_symtab_dfunc(st, a, &d), 0, "0x%llx: %s",
			     (unsigned long long) a, line);
		cr_assert_eq(bt_symtab_line(st, a, &lineno, &file), 0);
		snprintf(want, sizeof(want), " is in %s (%s:%d).\n", d.name,
			 file, lineno);
		cr_assert_not_null(strstr(line, want), "0x%llx: GDB %s, we %s",
				   (unsigned long long) a, line, want);
		named += 1;
	}
	pclose(in);
	cr_assert_eq(k, n, "GDB answered %zu of %zu", k, n);
	unlink(path);
	free(cmd);
	bt_symtab_free(st);
	printf("libc: %d of %zu addresses in named functions\n", named, n);
}
