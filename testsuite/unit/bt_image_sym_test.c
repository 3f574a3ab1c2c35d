/* Names and lines in the memory image of the real bt_prog: its symbols,
   its source lines, the symbol table of an address.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_image.h"
#include "btrace/bt_symtab.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <stdlib.h>
#include <string.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_image_sym, corpus)

Test(bt_image_sym, symbols_of_the_real_program)
{
	struct bt_image *image;
	struct bt_symbol sym;
	const struct bt_corpus_func *fns[] = { &corpus.main, &corpus.f,
					       &corpus.g };
	const char *names[] = { "main", "f", "g" };

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	image = bt_corpus_image(&corpus.bundle);
	for (int i = 0; i < 3; ++i) {
		/* Anywhere inside, including the last instruction.  */
		uint64_t pcs[] = { fns[i]->address, fns[i]->address + 1,
				   fns[i]->ret };

		for (int k = 0; k < 3; ++k) {
			cr_assert_eq(bt_image_symbol(image, pcs[k], &sym), 0);
			cr_assert_str_eq(sym.name, names[i]);
			cr_assert_str_eq(sym.dwarf_name, names[i]);
			cr_assert_eq(sym.address, fns[i]->address);
			cr_assert_eq(sym.size, fns[i]->size);
			cr_assert_not_null(sym.file);
			cr_assert_not_null(strstr(sym.file, "bt_prog.c"));
		}
	}
	/* Below the code mapping nothing is mapped.  */
	cr_assert_eq(bt_image_symbol(image, BT_CORPUS_BASE, &sym),
		     -bte_notfound);
	bt_image_free(image);
}

Test(bt_image_sym, lines_follow_the_source_markers)
{
	struct bt_image *image;
	const char *file;
	int line;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	image = bt_corpus_image(&corpus.bundle);

	cr_assert_eq(bt_image_line(image, corpus.main.address, &line, &file), 0);
	cr_assert_eq(line, bt_corpus_line(&corpus, "L:main_open"));
	cr_assert_not_null(strstr(file, "bt_prog.c"));
	cr_assert_eq(bt_image_line(image, corpus.main.calls[0], &line, NULL), 0);
	cr_assert_eq(line, bt_corpus_line(&corpus, "L:main_call1"));
	cr_assert_eq(bt_image_line(image, corpus.main.calls[1], &line, NULL), 0);
	cr_assert_eq(line, bt_corpus_line(&corpus, "L:main_call2"));
	cr_assert_eq(bt_image_line(image, corpus.g.ret, &line, NULL), 0);
	cr_assert_eq(line, bt_corpus_line(&corpus, "L:g_close"));
	bt_image_free(image);
}

Test(bt_image_sym, the_symtab_of_an_address)
{
	struct bt_image *image;
	const struct bt_symtab *st;
	struct bt_msym msym;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	image = bt_corpus_image(&corpus.bundle);
	st = bt_image_symtab_at(image, corpus.main.address);
	cr_assert_not_null(st);
	cr_assert_eq(bt_symtab_msym(st, corpus.main.address, &msym), 0);
	cr_assert_str_eq(msym.name, "main");
	cr_assert_null(bt_image_symtab_at(image, BT_CORPUS_BASE - 1));
	cr_assert_null(bt_image_symtab_at(NULL, corpus.main.address));
	bt_image_free(image);
}
