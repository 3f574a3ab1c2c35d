/* The memory image on the real bt_prog: sections, the code read and
   decoded, page copies, missing files, build-ids, and the vDSO of this
   very process (names and lines: bt_image_sym_test.c).  */
#include "btrace/ptbtrace.h"
#include "btrace/bt_image.h"
#include "btrace/bt_symtab.h"
#include "testsuite/btrace/bt_corpus_main.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

static struct bt_corpus corpus;
BT_CORPUS_TEST_MAIN(bt_image, corpus)

Test(bt_image, reads_and_decodes_the_files_code)
{
	struct bt_image *image;
	enum bt_insn_class iclass;
	uint8_t bytes[16];
	int len;

	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	image = bt_corpus_image(&corpus.bundle);

	cr_assert_eq(bt_image_read(image, corpus.main.address, bytes,
				   sizeof(bytes)), (int) sizeof(bytes));
	len = bt_image_insn_decode(image, corpus.main.calls[0], &iclass);
	cr_assert_eq(len, bt_corpus_insn_length(&corpus, corpus.main.calls[0]));
	cr_assert_eq(iclass, btic_call);
	cr_assert_gt(bt_image_insn_decode(image, corpus.f.ret, &iclass), 0);
	cr_assert_eq(iclass, btic_return);
	cr_assert_gt(bt_image_insn_decode(image, corpus.main.address, &iclass),
		     0);
	cr_assert_eq(iclass, btic_other);

	/* The read stops at the end of the mapping.  */
	len = bt_image_read(image, corpus.mapping.address
			    + corpus.mapping.size - 4, bytes, sizeof(bytes));
	cr_assert_leq(len, 4);
	cr_assert_eq(bt_image_read(image, 0x1000, bytes, 4), -bte_notfound);
	bt_image_free(image);
}

Test(bt_image, page_copies_are_code_without_symbols)
{
	struct bt_bundle b;
	struct bt_pages page;
	struct bt_image *image;
	struct bt_symbol sym;
	uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3 };
	uint8_t back[8];
	enum bt_insn_class iclass;

	memset(&b, 0, sizeof(b));
	page = (struct bt_pages) { 0x7000000, sizeof(code), 5, "", code };
	b.format = btf_pt;
	b.pages = &page;
	b.npages = 1;
	image = bt_corpus_image(&b);

	cr_assert_eq(bt_image_read(image, 0x7000000, back, sizeof(back)),
		     (int) sizeof(code));
	cr_assert_eq(memcmp(back, code, sizeof(code)), 0);
	cr_assert_eq(bt_image_insn_decode(image, 0x7000005, &iclass), 1);
	cr_assert_eq(iclass, btic_return);
	cr_assert_eq(bt_image_symbol(image, 0x7000000, &sym), -bte_notfound);
	bt_image_free(image);
}

Test(bt_image, missing_files_are_named)
{
	struct bt_bundle b;
	struct bt_mapping m = { 0x400000, 0x1000, 0, 5,
				"/nonexistent/prog", NULL, 0 };
	struct bt_image *image = NULL;
	struct bt_diag diag;

	memset(&b, 0, sizeof(b));
	b.format = btf_pt;
	b.mappings = &m;
	b.nmappings = 1;
	cr_assert_eq(bt_image_alloc(&image, &b, &diag), -bte_notfound);
	cr_assert_not_null(strstr(diag.text, "/nonexistent/prog"));
}

/* The first function symbol of an in-memory ELF image, read
   independently of the library.  */
static int first_func(const uint8_t *bytes, size_t size, const char **name,
		      uint64_t *value)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	int found = 0;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *) bytes, size);
	while (elf && !found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; ++i) {
			GElf_Sym sym;

			if (gelf_getsym(data, (int) i, &sym) &&
			    GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			    sym.st_shndx != SHN_UNDEF && sym.st_size) {
				*name = strdup(elf_strptr(elf, sh.sh_link,
							  sym.st_name));
				*value = sym.st_value;
				found = 1;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	return found;
}

Test(bt_image, the_vdso_copy_has_its_symbols)
{
	const uint8_t *vdso = (const uint8_t *) getauxval(AT_SYSINFO_EHDR);
	struct bt_bundle b;
	struct bt_pages page;
	struct bt_image *image;
	struct bt_symbol sym;
	const char *name;
	uint64_t value;
	uint8_t *copy;
	size_t size;

	if (!vdso)
		cr_skip_test("no vDSO in this process");
	/* Its section headers end the image.  */
	size = ((const Elf64_Ehdr *) vdso)->e_shoff
		+ (size_t) ((const Elf64_Ehdr *) vdso)->e_shnum
		* ((const Elf64_Ehdr *) vdso)->e_shentsize;
	/* Copy it, as the stub would, to a different address.  */
	copy = malloc(size);
	memcpy(copy, vdso, size);
	cr_assert(first_func(copy, size, &name, &value));

	memset(&b, 0, sizeof(b));
	page = (struct bt_pages) { 0x7ffff7fc1000, size, 5, "[vdso]", copy };
	b.format = btf_pt;
	b.pages = &page;
	b.npages = 1;
	image = bt_corpus_image(&b);
	/* The vDSO links at 0: its symbols move with the copy's address.  */
	cr_assert_eq(bt_image_symbol(image, 0x7ffff7fc1000 + value, &sym), 0);
	cr_assert_str_eq(sym.name, name);
	bt_image_free(image);
	free((void *) name);
	free(copy);
}

/* bt_prog's build-id, from its note, read here with plain libelf.  */
static size_t note_build_id(uint8_t *id, size_t size)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t found = 0;
	int fd = open(corpus.prog, O_RDONLY);

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *data;
		size_t off = 0, name, desc;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &name,
						   &desc)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_descsz <= size) {
				memcpy(id, (uint8_t *) data->d_buf + desc,
				       nh.n_descsz);
				found = nh.n_descsz;
				break;
			}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

Test(bt_image, the_build_id_must_match)
{
	struct bt_image *image = NULL;
	struct bt_diag diag;
	uint8_t id[64];
	size_t len = note_build_id(id, sizeof(id));

	if (!len)
		cr_skip_test("bt_prog has no build-id note");
	cr_assert_eq(bt_corpus_calls(&corpus), 0);
	corpus.mapping.build_id = id;
	corpus.mapping.build_id_size = len;
	image = bt_corpus_image(&corpus.bundle);
	bt_image_free(image);

	id[0] ^= 0xff;
	cr_assert_eq(bt_image_alloc(&image, &corpus.bundle, &diag),
		     -bte_bad_elf);
	cr_assert_not_null(strstr(diag.text, "build-id"), "%s", diag.text);
}

/* The symbol table behind an address is the mapped object's, and none
   where nothing is mapped.  */
