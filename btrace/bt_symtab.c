/* ELF symbols (libelf) and DWARF functions and lines (libdw) of one
   object, sorted once so that each lookup is a binary search.  */
#include "btrace/bt_symtab.h"
#include "common/ps_array.h"
#include "btrace/bt_symtab_int.h"
#include "btrace/bt_plt.h"
#include "btrace/bt_debuglink.h"
#include "btrace/ptbtrace.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


const char *bt_symtab_intern(struct bt_symtab *st, const char *text)
{
	for (size_t i = 0; i < st->nstrings; ++i)
		if (strcmp(st->strings[i], text) == 0)
			return st->strings[i];

	if (PS_ARRAY_RESERVE(st->strings, st->strings_cap, st->nstrings + 1))
		return NULL;
	st->strings[st->nstrings] = strdup(text);
	if (!st->strings[st->nstrings])
		return NULL;
	return st->strings[st->nstrings++];
}

static int bt_msym_cmp(const void *a, const void *b)
{
	const struct bt_msym *l = a, *r = b;

	/* GDB sorts minimal symbols by address, then name.  */
	if (l->address != r->address)
		return l->address < r->address ? -1 : 1;
	return strcmp(l->name, r->name);
}


static int bt_symtab_load_sections(struct bt_symtab *st)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	while ((scn = elf_nextscn(st->elf, scn)) != NULL)
		n += 1;
	st->xsecs = calloc(n ? n : 1, sizeof(*st->xsecs));
	st->dsecs = calloc(n ? n : 1, sizeof(*st->dsecs));
	if (!st->xsecs || !st->dsecs)
		return -bte_nomem;

	while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
		GElf_Shdr shdr;
		struct bt_xsec *sec;

		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
			continue;
		if (shdr.sh_flags & SHF_EXECINSTR)
			sec = &st->xsecs[st->nxsecs++];
		else
			sec = &st->dsecs[st->ndsecs++];
		sec->address = shdr.sh_addr;
		sec->size = shdr.sh_size;
		sec->shndx = (uint32_t) elf_ndxscn(scn);
	}
	return 0;
}

static int bt_symtab_in_secs(const struct bt_xsec *secs, size_t n,
			     uint32_t shndx)
{
	for (size_t i = 0; i < n; ++i)
		if (secs[i].shndx == shndx)
			return 1;
	return 0;
}

/* Whether GDB makes a minimal symbol of SYM: code symbols in executable
   sections, or (DATA) data symbols in the others.  */
static int bt_symtab_wanted(const struct bt_symtab *st, const GElf_Sym *sym,
			    int data)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return 0;
	if (data)
		return (type == STT_OBJECT || type == STT_NOTYPE) &&
			bt_symtab_in_secs(st->dsecs, st->ndsecs,
					  sym->st_shndx);
	return (type == STT_FUNC || type == STT_GNU_IFUNC ||
		type == STT_NOTYPE) &&
		bt_symtab_in_secs(st->xsecs, st->nxsecs, sym->st_shndx);
}

/* Add the code (or DATA) symbols of one symbol table section (.symtab,
   .dynsym).  */
static int bt_symtab_load_symbols(struct bt_symtab *st, struct bt_msyms *t,
				  Elf *elf, Elf_Scn *scn,
				  const GElf_Shdr *shdr, int data)
{
	Elf_Data *symdata = elf_getdata(scn, NULL);
	size_t count, i;
	struct bt_msym *msyms;

	if (!symdata || !shdr->sh_entsize)
		return 0;
	count = shdr->sh_size / shdr->sh_entsize;

	if (PS_ARRAY_RESERVE(t->v, t->cap, t->n + count + 1))
		return -bte_nomem;
	msyms = t->v;

	for (i = 0; i < count; ++i) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(symdata, (int) i, &sym) ||
		    !bt_symtab_wanted(st, &sym, data))
			continue;
		name = elf_strptr(elf, shdr->sh_link, sym.st_name);
		if (!name || !name[0])
			continue;

		msyms[t->n].address = sym.st_value;
		msyms[t->n].size = sym.st_size;
		msyms[t->n].name = name;
		msyms[t->n].shndx = sym.st_shndx;
		t->n += 1;
	}
	return 0;
}

/* Record a PLT entry as GDB's synthetic minimal symbol "NAME@plt".  */
static int bt_symtab_add_plt(void *ctx, uint64_t address, uint32_t shndx,
			     const char *name)
{
	struct bt_symtab *st = ctx;
	size_t len = strlen(name) + 5;
	const char *interned;
	struct bt_msym *m;
	char *plt = malloc(len);

	if (!plt)
		return -bte_nomem;
	snprintf(plt, len, "%s@plt", name);
	interned = bt_symtab_intern(st, plt);
	free(plt);
	if (!interned ||
	    PS_ARRAY_RESERVE(st->main_syms.v, st->main_syms.cap,
			     st->main_syms.n + 1))
		return -bte_nomem;
	m = st->main_syms.v;
	/* BFD gives synthetic symbols no size.  */
	m[st->main_syms.n].address = address;
	m[st->main_syms.n].size = 0;
	m[st->main_syms.n].name = interned;
	m[st->main_syms.n].shndx = shndx;
	st->main_syms.n += 1;
	return 0;
}

/* Record a GOT slot as GDB's data symbol "NAME@got.plt" (8 bytes).  */
static int bt_symtab_add_got_plt(void *ctx, uint64_t address,
				 uint32_t shndx, const char *name)
{
	struct bt_symtab *st = ctx;
	const char *interned = bt_symtab_intern(st, name);
	struct bt_msym *m;

	if (!interned ||
	    PS_ARRAY_RESERVE(st->data_syms.v, st->data_syms.cap,
			     st->data_syms.n + 1))
		return -bte_nomem;
	m = st->data_syms.v;
	m[st->data_syms.n].address = address;
	m[st->data_syms.n].size = 8;
	m[st->data_syms.n].name = interned;
	m[st->data_syms.n].shndx = shndx;
	st->data_syms.n += 1;
	return 0;
}

static void bt_msyms_sort(struct bt_msyms *t)
{
	size_t out = 0;

	if (!t->n)
		return;
	qsort(t->v, t->n, sizeof(*t->v), bt_msym_cmp);
	/* .symtab and .dynsym name the same symbols twice; GDB keeps one.  */
	for (size_t i = 0; i < t->n; ++i) {
		if (out && t->v[out - 1].address == t->v[i].address &&
		    strcmp(t->v[out - 1].name, t->v[i].name) == 0)
			continue;
		t->v[out++] = t->v[i];
	}
	t->n = out;
}

/* The code (or DATA) symbols of ELF's symbol tables into T.  */
static int bt_symtab_read_msyms(struct bt_symtab *st, struct bt_msyms *t,
				Elf *elf, int data)
{
	Elf_Scn *scn = NULL;
	int errcode;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM)
			continue;
		errcode = bt_symtab_load_symbols(st, t, elf, scn, &shdr,
						 data);
		if (errcode < 0)
			return errcode;
	}
	return 0;
}

static int bt_symtab_load_msyms(struct bt_symtab *st)
{
	int errcode = bt_symtab_read_msyms(st, &st->main_syms, st->elf, 0);

	if (errcode >= 0)
		errcode = bt_plt_scan(st->elf, bt_symtab_add_plt, st);
	if (errcode >= 0 && st->debug_elf)
		errcode = bt_symtab_read_msyms(st, &st->debug_syms,
					       st->debug_elf, 0);
	if (errcode >= 0)
		errcode = bt_symtab_read_msyms(st, &st->data_syms, st->elf, 1);
	if (errcode >= 0)
		errcode = bt_got_plt_scan(st->elf, bt_symtab_add_got_plt, st);
	if (errcode >= 0 && st->debug_elf)
		errcode = bt_symtab_read_msyms(st, &st->debug_data_syms,
					       st->debug_elf, 1);
	if (errcode < 0)
		return errcode;
	bt_msyms_sort(&st->main_syms);
	bt_msyms_sort(&st->debug_syms);
	bt_msyms_sort(&st->data_syms);
	bt_msyms_sort(&st->debug_data_syms);
	return 0;
}







static int bt_symtab_load(struct bt_symtab *st)
{
	GElf_Ehdr ehdr;
	int errcode;

	if (!st->elf || elf_kind(st->elf) != ELF_K_ELF ||
	    !gelf_getehdr(st->elf, &ehdr) || ehdr.e_machine != EM_X86_64)
		return -bte_bad_elf;

	errcode = bt_symtab_load_sections(st);
	if (errcode < 0)
		return errcode;
	/* DWARF waits for its first question (bt_symtab_cu.c).  */
	return bt_symtab_load_msyms(st);
}

static int bt_symtab_finish_open(struct bt_symtab **symtab,
				 struct bt_symtab *st)
{
	int errcode = bt_symtab_load(st);

	if (errcode < 0) {
		bt_symtab_free(st);
		return errcode;
	}
	*symtab = st;
	return 0;
}

int bt_symtab_open_file(struct bt_symtab **symtab, const char *path)
{
	return bt_symtab_open_file_in(symtab, path, NULL);
}

int bt_symtab_open_file_in(struct bt_symtab **symtab, const char *path,
			   const char *debug_dir)
{
	struct bt_symtab *st;

	if (!symtab || !path)
		return -bte_invalid;
	elf_version(EV_CURRENT);

	st = calloc(1, sizeof(*st));
	if (!st)
		return -bte_nomem;
	st->debug_fd = -1;
	st->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (st->fd < 0) {
		free(st);
		return -bte_io;
	}
	st->elf = elf_begin(st->fd, ELF_C_READ_MMAP, NULL);

	if (!debug_dir)
		debug_dir = BT_DEBUG_FILE_DIRECTORY;
	/* A stripped file: GDB reads the symbols of its debug file too.  */
	if (st->elf && debug_dir[0] &&
	    !bt_elf_has_section(st->elf, ".debug_info")) {
		char debug[4096];

		if (bt_debug_file_find(st->elf, path, debug_dir,
				       debug, sizeof(debug)) == 0) {
			st->debug_fd = open(debug, O_RDONLY | O_CLOEXEC);
			if (st->debug_fd >= 0)
				st->debug_elf = elf_begin(st->debug_fd,
							  ELF_C_READ_MMAP,
							  NULL);
		}
	}
	return bt_symtab_finish_open(symtab, st);
}

int bt_symtab_open_memory(struct bt_symtab **symtab, const uint8_t *bytes,
			  size_t size)
{
	struct bt_symtab *st;

	if (!symtab || !bytes)
		return -bte_invalid;
	elf_version(EV_CURRENT);

	st = calloc(1, sizeof(*st));
	if (!st)
		return -bte_nomem;
	st->fd = -1;
	st->debug_fd = -1;
	/* libelf only reads an ELF_C_READ image; the cast is its API's.  */
	st->elf = elf_memory((char *) bytes, size);
	return bt_symtab_finish_open(symtab, st);
}

void bt_symtab_free(struct bt_symtab *st)
{
	if (!st)
		return;
	if (st->dwarf)
		dwarf_end(st->dwarf);
	if (st->debug_elf)
		elf_end(st->debug_elf);
	if (st->debug_fd >= 0)
		close(st->debug_fd);
	if (st->elf)
		elf_end(st->elf);
	if (st->fd >= 0)
		close(st->fd);
	bt_inflated_fini(&st->inflated);
	for (size_t i = 0; i < st->nstrings; ++i)
		free(st->strings[i]);
	free(st->strings);
	free(st->main_syms.v);
	free(st->debug_syms.v);
	free(st->data_syms.v);
	free(st->debug_data_syms.v);
	free(st->xsecs);
	free(st->dsecs);
	free(st->dfuncs);
	bt_cus_fini(&st->cus);
	free(st);
}

int bt_symtab_relocate(struct bt_symtab *st, uint64_t address,
		       uint64_t offset, uint64_t size)
{
	size_t n;

	if (!st || elf_getphdrnum(st->elf, &n) != 0)
		return -bte_bad_elf;

	for (size_t i = 0; i < n; ++i) {
		GElf_Phdr ph;

		if (!gelf_getphdr(st->elf, (int) i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* The kernel maps a segment from its page-aligned offset.  */
		if (ph.p_offset < offset || ph.p_offset - offset >= size)
			continue;
		st->bias = address + (ph.p_offset - offset) - ph.p_vaddr;
		return 0;
	}
	return -bte_notfound;
}

ssize_t bt_symtab_build_id(const struct bt_symtab *st, const void **id)
{
	if (!st || !id)
		return -bte_invalid;
	return dwelf_elf_gnu_build_id(st->elf, id);
}

void bt_symtab_set_bias(struct bt_symtab *st, uint64_t bias)
{
	if (st)
		st->bias = bias;
}

int bt_symtab_relocate_image(struct bt_symtab *st, uint64_t address)
{
	size_t n;

	if (!st || elf_getphdrnum(st->elf, &n) != 0)
		return -bte_bad_elf;
	for (size_t i = 0; i < n; ++i) {
		GElf_Phdr ph;

		if (gelf_getphdr(st->elf, (int) i, &ph) && ph.p_type == PT_LOAD) {
			st->bias = address + ph.p_offset - ph.p_vaddr;
			return 0;
		}
	}
	return -bte_notfound;
}

static const struct bt_xsec *bt_symtab_xsec(const struct bt_symtab *st,
					    uint64_t addr)
{
	for (size_t i = 0; i < st->nxsecs; ++i)
		if (addr - st->xsecs[i].address < st->xsecs[i].size)
			return &st->xsecs[i];
	return NULL;
}

/* GDB's choice (lookup_minimal_symbol_by_pc_section): the last symbol at
   or below PC in its section, preferring sized symbols; a sized one that
   ends below PC means no symbol unless a zero-sized one came first.  */
/* The best symbol of one table for ADDR in SEC, or -1.  */
static long bt_msyms_lookup(const struct bt_msyms *t,
			    const struct bt_xsec *sec, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	long i, best_zero = -1, found = -1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].address <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}

	for (i = (long) lo - 1; i >= 0; --i) {
		const struct bt_msym *m = &t->v[i];

		if (m->shndx != sec->shndx)
			continue;
		if (!m->size) {
			if (best_zero < 0)
				best_zero = i;
			continue;
		}
		if (i > 0 && addr >= m->address + m->size &&
		    addr < t->v[i - 1].address + t->v[i - 1].size)
			continue;
		found = i;
		break;
	}

	if (found >= 0 && addr >= t->v[found].address + t->v[found].size)
		found = best_zero;
	else if (found < 0)
		found = best_zero;
	return found;
}

int bt_symtab_msym(const struct bt_symtab *st, uint64_t pc,
		   struct bt_msym *out)
{
	const struct bt_xsec *sec;
	const struct bt_msym *best = NULL;
	uint64_t addr;
	long k;

	if (!st)
		return -bte_notfound;
	addr = pc - st->bias;
	sec = bt_symtab_xsec(st, addr);
	if (!sec)
		return -bte_notfound;

	/* The file's own symbol, unless the debug file has one at a higher
	   address (lookup_minimal_symbol_by_pc_section).  */
	k = bt_msyms_lookup(&st->main_syms, sec, addr);
	if (k >= 0)
		best = &st->main_syms.v[k];
	k = bt_msyms_lookup(&st->debug_syms, sec, addr);
	if (k >= 0 && (!best || best->address < st->debug_syms.v[k].address))
		best = &st->debug_syms.v[k];
	if (!best)
		return -bte_notfound;

	*out = *best;
	out->address += st->bias;
	return 0;
}





int bt_symtab_data_msym(const struct bt_symtab *st, uint64_t address,
			struct bt_msym *out)
{
	const struct bt_xsec *sec = NULL;
	const struct bt_msym *best = NULL;
	uint64_t addr;
	long k;

	if (!st)
		return -bte_notfound;
	addr = address - st->bias;
	for (size_t i = 0; i < st->ndsecs && !sec; ++i)
		if (addr - st->dsecs[i].address < st->dsecs[i].size)
			sec = &st->dsecs[i];
	if (!sec)
		return -bte_notfound;
	/* GDB does not name data by a symbol of no size; the debug file's
	   symbols count too (a stripped file's statics), the file's own
	   winning a tie as for code.  */
	k = bt_msyms_lookup(&st->data_syms, sec, addr);
	if (k >= 0 && st->data_syms.v[k].size)
		best = &st->data_syms.v[k];
	k = bt_msyms_lookup(&st->debug_data_syms, sec, addr);
	if (k >= 0 && st->debug_data_syms.v[k].size &&
	    (!best || best->address < st->debug_data_syms.v[k].address))
		best = &st->debug_data_syms.v[k];
	if (!best)
		return -bte_notfound;
	*out = *best;
	out->address += st->bias;
	return 0;
}

/* The first address above PC where the symbol lookups may answer
   differently: a symbol or function start or end, or a section end.  */
/* Lower *HI to the first change point of table T above ADDR.  */
static void bt_msyms_boundary(const struct bt_msyms *t, uint64_t addr,
			      uint64_t *hi)
{
	size_t lo = 0, top = t->n;

	while (lo < top) {
		size_t mid = lo + (top - lo) / 2;

		if (t->v[mid].address <= addr)
			lo = mid + 1;
		else
			top = mid;
	}
	if (lo < t->n && t->v[lo].address < *hi)
		*hi = t->v[lo].address;
	/* Symbol ends: any symbol at or below ADDR that ends above it.  */
	for (size_t k = lo; k > 0 && lo - k < 64; --k) {
		const struct bt_msym *m = &t->v[k - 1];
		uint64_t end = m->address + m->size;

		if (m->size && end > addr && end < *hi)
			*hi = end;
	}
}

uint64_t bt_symtab_boundary(const struct bt_symtab *cst, uint64_t pc)
{
	/* The lookup reads the CUs it needs into the symtab's cache.  */
	struct bt_symtab *st = (struct bt_symtab *) cst;
	uint64_t addr, hi = UINT64_MAX, cu_hi = UINT64_MAX;
	const struct bt_xsec *sec;
	size_t lo, top;

	if (!st)
		return UINT64_MAX;
	addr = pc - st->bias;

	sec = bt_symtab_xsec(st, addr);
	if (sec)
		hi = sec->address + sec->size;
	bt_msyms_boundary(&st->main_syms, addr, &hi);
	bt_msyms_boundary(&st->debug_syms, addr, &hi);

	/* Functions of CUs not read yet lie at or above CU_HI.  */
	if (bt_symtab_dwarf_need(st, addr, &cu_hi) == 0 && cu_hi < hi)
		hi = cu_hi;
	lo = 0;
	top = st->nsorted;
	while (lo < top) {
		size_t mid = lo + (top - lo) / 2;

		if (st->dfuncs[mid].f.low <= addr)
			lo = mid + 1;
		else
			top = mid;
	}
	if (lo < st->nsorted && st->dfuncs[lo].f.low < hi)
		hi = st->dfuncs[lo].f.low;
	for (size_t k = lo; k > 0 && lo - k < 8; --k) {
		const struct bt_dfunc *d = &st->dfuncs[k - 1].f;

		if (d->high > addr && d->high < hi)
			hi = d->high;
	}

	if (hi == UINT64_MAX || hi <= addr)
		return pc + 1;
	return hi + st->bias;
}
