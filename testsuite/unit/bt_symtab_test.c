/* Symbols and lines of the real bt_prog as GDB would find them.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_symtab.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <stdlib.h>
#include <string.h>

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

Test(bt_symtab, dwarf_functions_have_their_file_and_entry)
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

Test(bt_symtab, lines_and_the_bias)
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

Test(bt_symtab, non_elf_files_are_rejected)
{
	struct bt_symtab *st = NULL;

	cr_assert_eq(bt_symtab_open_file(&st, corpus.source), -bte_bad_elf);
	cr_assert_eq(bt_symtab_open_file(&st, "/nonexistent"), -bte_io);
	cr_assert_null(st);
}
