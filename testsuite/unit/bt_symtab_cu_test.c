/* DWARF read on demand (bt_symtab_cu.c): nothing before the first
   question, then only the CUs around the addresses asked about, with the
   answers that reading every CU gives; on libc through its separate
   debug file, and on a history printed with libc mapped beside bt_prog.  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_image.h"
#include "btrace/bt_symtab.h"
#include "btrace/bt_symtab_int.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_symtab_cu, corpus)

static const char libc[] = "/lib/x86_64-linux-gnu/libc.so.6";

/* libc's code segment: its link-time start and size, and file offset.  */
static int libc_text(uint64_t *vaddr, uint64_t *size, uint64_t *offset)
{
	int fd = open(libc, O_RDONLY), found = 0;
	Elf *elf;
	size_t n;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getphdrnum(elf, &n) == 0)
		for (size_t i = 0; i < n && !found; ++i) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int) i, &ph) &&
			    ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
				*vaddr = ph.p_vaddr;
				*size = ph.p_filesz;
				*offset = ph.p_offset;
				found = 1;
			}
		}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

/* libc, unrelocated, and its CUs indexed; skips without its DWARF.  */
static struct bt_symtab *open_libc(uint64_t *vaddr, uint64_t *size)
{
	struct bt_symtab *st = NULL;
	uint64_t offset;

	if (!libc_text(vaddr, size, &offset))
		cr_skip_test("no %s", libc);
	cr_assert_eq(bt_symtab_open_file(&st, libc), 0);
	bt_symtab_set_bias(st, 0);
	cr_assert_eq(bt_symtab_dwarf_open(st), 0);
	if (bt_symtab_dwarf_cus(st, NULL) < 100) {
		bt_symtab_free(st);
		cr_skip_test("no debug file for %s", libc);
	}
	return st;
}

Test(bt_symtab_cu, nothing_is_read_before_a_question)
{
	struct bt_symtab *st = NULL;
	size_t loaded = 1;

	cr_assert_eq(bt_symtab_open_file(&st, corpus.prog), 0);
	cr_assert_eq(bt_symtab_dwarf_cus(st, &loaded), 0);
	cr_assert_eq(loaded, 0);
	bt_symtab_free(st);
}

/* What function-segment building asks at every address of one function
   (bt_image_func): its function and where that may change.  */
Test(bt_symtab_cu, one_function_reads_only_its_cus)
{
	uint64_t vaddr, size;
	struct bt_symtab *st = open_libc(&vaddr, &size);
	struct bt_dfunc d = { 0 };
	size_t n, before, after;

	n = bt_symtab_dwarf_cus(st, &before);
	/* A function in the middle of libc's code.  */
	for (uint64_t a = vaddr + size / 2; a < vaddr + size; a += 16)
		if (bt_symtab_dfunc(st, a, &d) == 0)
			break;
	cr_assert_not_null(d.name);
	for (uint64_t a = d.low; a < d.high; a = bt_symtab_boundary(st, a)) {
		struct bt_dfunc e;

		cr_assert_eq(bt_symtab_dfunc(st, a, &e), 0);
		cr_assert_str_eq(e.name, d.name);
	}
	bt_symtab_dwarf_cus(st, &after);
	cr_assert_geq(after, before + 1);
	cr_assert_leq(after, before + 2, "%s read %zu of %zu CUs", d.name,
		      after - before, n);
	cr_assert_lt(after, n / 10);
	printf("libc: %s read %zu of %zu CUs (%zu without ranges before)\n",
	       d.name, after - before, n, before);
	bt_symtab_free(st);
}

/* Reading CUs one at a time finds what reading them all finds, and says
   no later that the answer may change.  */
Test(bt_symtab_cu, lazy_answers_are_the_eager_ones)
{
	uint64_t vaddr, size;
	struct bt_symtab *lazy = open_libc(&vaddr, &size), *all = NULL;
	size_t n, loaded, compared = 0;

	cr_assert_eq(bt_symtab_open_file(&all, libc), 0);
	bt_symtab_set_bias(all, 0);
	cr_assert_eq(bt_symtab_dwarf_load_all(all), 0);
	n = bt_symtab_dwarf_cus(all, &loaded);
	cr_assert_eq(loaded, n);

	for (uint64_t a = vaddr; a < vaddr + size; a += size / 3001 + 1) {
		struct bt_dfunc l, e;
		int lr = bt_symtab_dfunc(lazy, a, &l);
		uint64_t lb = bt_symtab_boundary(lazy, a);

		cr_assert_eq(lr, bt_symtab_dfunc(all, a, &e), "0x%llx",
			     (unsigned long long) a);
		cr_assert_gt(lb, a);
		cr_assert_leq(lb, bt_symtab_boundary(all, a));
		if (lr < 0)
			continue;
		cr_assert_str_eq(l.name, e.name);
		/* A function with no DW_AT_decl_file has no file.  */
		cr_assert((!l.file && !e.file) ||
			  (l.file && e.file && strcmp(l.file, e.file) == 0),
			  "0x%llx", (unsigned long long) a);
		cr_assert_eq(l.low, e.low);
		cr_assert_eq(l.high, e.high);
		cr_assert_eq(l.entry, e.entry);
		compared += 1;
	}
	cr_assert_gt(compared, 1000);
	bt_symtab_dwarf_cus(lazy, &loaded);
	cr_assert_lt(loaded, n);
	bt_symtab_free(lazy);
	bt_symtab_free(all);
}

/* The whole call history of a trace through bt_prog, with libc mapped
   too: bt_prog's CU is read, libc's DWARF is never opened.  */
Test(bt_symtab_cu, a_history_reads_only_what_it_shows)
{
	struct bt_mapping maps[2];
	struct bt_bundle b;
	struct bt_image *image = NULL;
	struct bt_ftrace *ft = NULL;
	struct bt_call_range range = { 0 };
	struct bt_diag diag;
	uint64_t vaddr, size, offset, at = 0x7ffff7c00000ull;
	size_t loaded, n;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if (!libc_text(&vaddr, &size, &offset))
		cr_skip_test("no %s", libc);
	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	b = corpus.bundle;
	maps[0] = corpus.mapping;
	memset(&maps[1], 0, sizeof(maps[1]));
	maps[1].address = at + (vaddr & ~0xfffull);
	maps[1].offset = offset & ~0xfffull;
	maps[1].size = size + (offset & 0xfff);
	maps[1].prot = PROT_READ | PROT_EXEC;
	maps[1].path = libc;
	b.mappings = maps;
	b.nmappings = 2;

	bt_diag_init(&diag);
	cr_assert_eq(bt_image_alloc(&image, &b, &diag), 0, "%s", diag.text);
	cr_assert_eq(bt_ftrace_build(&ft, &b, image, &diag), 0, "%s",
		     diag.text);
	out = open_memstream(&text, &len);
	cr_assert_eq(bt_call_history_print(out, ft, image, &range, 0, 0,
					   &diag), 0, "%s", diag.text);
	fclose(out);
	cr_assert_not_null(strstr(text, "\tg\n"), "%s", text);

	n = bt_symtab_dwarf_cus(bt_image_symtab_at(image, corpus.main.address),
				&loaded);
	cr_assert_geq(loaded, 1);
	cr_assert_leq(loaded, n);
	n = bt_symtab_dwarf_cus(bt_image_symtab_at(image, maps[1].address +
						   (vaddr & 0xfff) + 16),
				&loaded);
	cr_assert_eq(n, 0, "libc's DWARF was opened");
	cr_assert_eq(loaded, 0);
	free(text);
	bt_ftrace_free(ft);
	bt_image_free(image);
}

/* The section type of NAME in ELF, or -1 if it has no such section.  */
static int section_type(Elf *elf, const char *name)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return -1;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr mem, *shdr = gelf_getshdr(scn, &mem);
		const char *s = shdr ? elf_strptr(elf, shstrndx, shdr->sh_name)
			: NULL;

		if (s && strcmp(s, name) == 0)
			return (int) shdr->sh_type;
	}
	return -1;
}

/* Opening the DWARF leaves out location lists (no question reads them;
   inflating them was a sixth of a small trace's time) and keeps what
   functions and lines need.  */
Test(bt_symtab_cu, location_lists_are_not_inflated)
{
	uint64_t vaddr, size;
	struct bt_symtab *st = open_libc(&vaddr, &size);
	Elf *elf = st->debug_elf ? st->debug_elf : st->elf;

	if (section_type(elf, ".debug_loclists") < 0)
		cr_skip_test("libc's DWARF has no .debug_loclists");
	cr_assert_eq(section_type(elf, ".debug_loclists"), SHT_NOBITS);
	cr_assert_eq(section_type(elf, ".debug_info"), SHT_PROGBITS);
	cr_assert_eq(section_type(elf, ".debug_line"), SHT_PROGBITS);
	bt_symtab_free(st);
}

/* A CU's range around an address: holds the address, belongs to that
   CU, and no other CU's range starts inside it.  */
Test(bt_symtab_cu, a_cus_range_holds_only_its_code)
{
	uint64_t vaddr, size, lo, hi;
	struct bt_symtab *st = open_libc(&vaddr, &size);
	const struct bt_cus *cus = &st->cus;
	int found = 0;

	for (uint64_t a = vaddr; a < vaddr + size; a += size / 97) {
		for (size_t k = 0; k < cus->nranges; ++k) {
			const struct bt_cu_range *r = &cus->ranges[k];

			if (a < r->low || a >= r->high)
				continue;
			cr_assert_eq(bt_cus_range_of(cus, a, r->cu, &lo, &hi), 0);
			cr_assert(lo <= a && a < hi && lo >= r->low &&
				  hi <= r->high, "0x%llx", (unsigned long long) a);
			for (size_t j = 0; j < cus->nranges; ++j)
				cr_assert(cus->ranges[j].low <= lo ||
					  cus->ranges[j].low >= hi);
			/* Not the range of another CU.  */
			cr_assert_lt(bt_cus_range_of(cus, a, r->cu + 1, &lo,
						     &hi), 0);
			found += 1;
			break;
		}
	}
	cr_assert_gt(found, 50);
	cr_assert_lt(bt_cus_range_of(cus, 0, 0, &lo, &hi), 0);
	bt_symtab_free(st);
}
