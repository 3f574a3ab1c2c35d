/* ELF (minimal) symbols of the real bt_prog as GDB finds them.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_symtab.h"
#include "btrace/bt_msym_name.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <gelf.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_symtab, corpus)

static struct bt_symtab *open_prog(void)
{
	struct bt_symtab *st = NULL;

	cr_assert_eq(bt_symtab_open_file(&st, corpus.prog), 0);
	cr_assert_eq(bt_symtab_relocate(st, corpus.mapping.address,
					corpus.mapping.offset,
					corpus.mapping.size), 0);
	return st;
}

Test(bt_symtab, minimal_symbols_cover_their_size_only)
{
	struct bt_symtab *st = open_prog();
	struct bt_msym m;

	cr_assert_eq(bt_symtab_msym(st, corpus.g.address, &m), 0);
	cr_assert_str_eq(m.name, "g");
	cr_assert_eq(m.address, corpus.g.address);
	cr_assert_eq(bt_symtab_msym(st, corpus.g.address + corpus.g.size - 1,
				    &m), 0);
	cr_assert_str_eq(m.name, "g");
	/* Between g's end and f, if there is padding, there is no symbol;
	   at f's start it is f.  */
	if (corpus.g.address + corpus.g.size < corpus.f.address)
		cr_assert_eq(bt_symtab_msym(st, corpus.g.address
					    + corpus.g.size, &m),
			     -bte_notfound);
	cr_assert_eq(bt_symtab_msym(st, corpus.f.address, &m), 0);
	cr_assert_str_eq(m.name, "f");
	/* Outside any executable section.  */
	cr_assert_eq(bt_symtab_msym(st, BT_CORPUS_BASE, &m), -bte_notfound);
	bt_symtab_free(st);
}

Test(bt_symtab, boundaries_stop_at_the_next_function)
{
	struct bt_symtab *st = open_prog();
	uint64_t end = bt_symtab_boundary(st, corpus.g.address + 1);

	/* The lookup answer holds up to g's end at most.  */
	cr_assert_gt(end, corpus.g.address + 1);
	cr_assert_leq(end, corpus.g.address + corpus.g.size);
	end = bt_symtab_boundary(st, corpus.f.address);
	cr_assert_leq(end, corpus.f.address + corpus.f.size);
	bt_symtab_free(st);
}

Test(bt_symtab, non_elf_files_are_rejected)
{
	struct bt_symtab *st = NULL;

	cr_assert_eq(bt_symtab_open_file(&st, corpus.source), -bte_bad_elf);
	cr_assert_eq(bt_symtab_open_file(&st, "/nonexistent"), -bte_io);
	cr_assert_null(st);
}

/* GDB as the oracle: for every byte of bt_prog's code, `info symbol`
   must name the symbol bt_symtab_msym finds, or none when it finds none.  */
Test(bt_symtab, every_code_address_is_named_as_gdb_names_it)
{
	const char *gdb = getenv("GDB");
	struct bt_symtab *st = NULL;
	uint64_t first = corpus.mapping.address - BT_CORPUS_BASE;
	uint64_t count = corpus.mapping.size;
	char path[] = "/tmp/bt_symtab_testXXXXXX", line[512], *cmd = NULL;
	size_t len = 0;
	FILE *script, *in;
	int fd, checked = 0;

	if (!gdb || !gdb[0] || strcmp(gdb, "no") == 0)
		cr_skip_test("GDB is not available as the oracle");
	if (count > 0x2000)
		count = 0x2000;
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	script = fdopen(fd, "w");
	for (uint64_t a = first; a < first + count; ++a)
		fprintf(script, "info symbol 0x%llx\n", (unsigned long long) a);
	fclose(script);

	/* Link-time addresses, as GDB sees the file without a process.  */
	cr_assert_eq(bt_symtab_open_file(&st, corpus.prog), 0);
	bt_symtab_set_bias(st, 0);

	in = open_memstream(&cmd, &len);
	fprintf(in, "'%s' -nx -batch -x '%s' '%s' 2>&1", gdb, path,
		corpus.prog);
	fclose(in);
	in = popen(cmd, "r");
	cr_assert_not_null(in);
	for (uint64_t a = first; a < first + count; ++a) {
		struct bt_msym m;
		char want[300];

		cr_assert_not_null(fgets(line, sizeof(line), in), "0x%llx",
				   (unsigned long long) a);
		if (bt_symtab_msym(st, a, &m) < 0) {
			cr_assert_eq(strncmp(line, "No symbol matches", 17), 0,
				     "0x%llx: GDB %s, we none",
				     (unsigned long long) a, line);
			continue;
		}
		char pn[1024];
		const char *shown = bt_msym_print_name(m.name, pn, sizeof(pn));

		if (a == m.address)
			snprintf(want, sizeof(want), "%s in section ", shown);
		else
			snprintf(want, sizeof(want), "%s + %llu in section ",
				 shown, (unsigned long long) (a - m.address));
		cr_assert_eq(strncmp(line, want, strlen(want)), 0,
			     "0x%llx: GDB %s, we %s", (unsigned long long) a,
			     line, want);
		checked += 1;
	}
	pclose(in);
	unlink(path);
	free(cmd);
	bt_symtab_free(st);
	cr_assert_gt(checked, 100);
}

