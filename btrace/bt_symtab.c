/* ELF symbols (libelf) and DWARF functions and lines (libdw) of one
   object, sorted once so that each lookup is a binary search.  */
#include "btrace/bt_symtab.h"
#include "btrace/bt_plt.h"
#include "btrace/ptbtrace.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bt_xsec {
	uint64_t address;         /* link-time */
	uint64_t size;
	uint32_t shndx;
};

struct bt_symtab {
	int fd;
	Elf *elf;
	Dwarf *dwarf;
	uint64_t bias;

	struct bt_msym *msyms;    /* link-time addresses, sorted */
	size_t nmsyms;
	struct bt_xsec *xsecs;
	size_t nxsecs;
	struct bt_dfunc *dfuncs;  /* link-time, sorted by low */
	size_t ndfuncs;

	/* Strings we built (file names): freed with the symtab.  */
	char **strings;
	size_t nstrings;

};

static const char *bt_symtab_intern(struct bt_symtab *st, const char *text)
{
	char **strings;

	for (size_t i = 0; i < st->nstrings; ++i)
		if (strcmp(st->strings[i], text) == 0)
			return st->strings[i];

	strings = realloc(st->strings, (st->nstrings + 1) * sizeof(*strings));
	if (!strings)
		return NULL;
	st->strings = strings;
	strings[st->nstrings] = strdup(text);
	if (!strings[st->nstrings])
		return NULL;
	return strings[st->nstrings++];
}

static int bt_msym_cmp(const void *a, const void *b)
{
	const struct bt_msym *l = a, *r = b;

	/* GDB sorts minimal symbols by address, then name.  */
	if (l->address != r->address)
		return l->address < r->address ? -1 : 1;
	return strcmp(l->name, r->name);
}

static int bt_dfunc_cmp(const void *a, const void *b)
{
	const struct bt_dfunc *l = a, *r = b;

	if (l->low != r->low)
		return l->low < r->low ? -1 : 1;
	return 0;
}

static int bt_symtab_load_sections(struct bt_symtab *st)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	while ((scn = elf_nextscn(st->elf, scn)) != NULL)
		n += 1;
	st->xsecs = calloc(n ? n : 1, sizeof(*st->xsecs));
	if (!st->xsecs)
		return -bte_nomem;

	while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (!(shdr.sh_flags & SHF_EXECINSTR) || !(shdr.sh_flags & SHF_ALLOC))
			continue;
		st->xsecs[st->nxsecs].address = shdr.sh_addr;
		st->xsecs[st->nxsecs].size = shdr.sh_size;
		st->xsecs[st->nxsecs].shndx = (uint32_t) elf_ndxscn(scn);
		st->nxsecs += 1;
	}
	return 0;
}

static int bt_symtab_is_exec(const struct bt_symtab *st, uint32_t shndx)
{
	for (size_t i = 0; i < st->nxsecs; ++i)
		if (st->xsecs[i].shndx == shndx)
			return 1;
	return 0;
}

/* Add the code symbols of one symbol table section (.symtab, .dynsym).  */
static int bt_symtab_load_symbols(struct bt_symtab *st, Elf_Scn *scn,
				  const GElf_Shdr *shdr)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count, i;
	struct bt_msym *msyms;

	if (!data || !shdr->sh_entsize)
		return 0;
	count = shdr->sh_size / shdr->sh_entsize;

	msyms = realloc(st->msyms, (st->nmsyms + count + 1) * sizeof(*msyms));
	if (!msyms)
		return -bte_nomem;
	st->msyms = msyms;

	for (i = 0; i < count; ++i) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int) i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    type != STT_NOTYPE)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    !bt_symtab_is_exec(st, sym.st_shndx))
			continue;
		name = elf_strptr(st->elf, shdr->sh_link, sym.st_name);
		if (!name || !name[0])
			continue;

		msyms[st->nmsyms].address = sym.st_value;
		msyms[st->nmsyms].size = sym.st_size;
		msyms[st->nmsyms].name = name;
		msyms[st->nmsyms].shndx = sym.st_shndx;
		st->nmsyms += 1;
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
	m = realloc(st->msyms, (st->nmsyms + 1) * sizeof(*m));
	if (!interned || !m)
		return -bte_nomem;
	st->msyms = m;
	/* BFD gives synthetic symbols no size.  */
	m[st->nmsyms].address = address;
	m[st->nmsyms].size = 0;
	m[st->nmsyms].name = interned;
	m[st->nmsyms].shndx = shndx;
	st->nmsyms += 1;
	return 0;
}

static int bt_symtab_load_msyms(struct bt_symtab *st)
{
	Elf_Scn *scn = NULL;
	size_t out = 0;
	int errcode;

	while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM)
			continue;
		errcode = bt_symtab_load_symbols(st, scn, &shdr);
		if (errcode < 0)
			return errcode;
	}
	errcode = bt_plt_scan(st->elf, bt_symtab_add_plt, st);
	if (errcode < 0)
		return errcode;
	if (!st->nmsyms)
		return 0;

	qsort(st->msyms, st->nmsyms, sizeof(*st->msyms), bt_msym_cmp);

	/* .symtab and .dynsym name the same symbols twice; GDB keeps one.  */
	for (size_t i = 0; i < st->nmsyms; ++i) {
		if (out && st->msyms[out - 1].address == st->msyms[i].address &&
		    strcmp(st->msyms[out - 1].name, st->msyms[i].name) == 0)
			continue;
		st->msyms[out++] = st->msyms[i];
	}
	st->nmsyms = out;
	return 0;
}

/* The name GDB shows for a file of CU: the CU's own DW_AT_name for its
   primary file, the full path (directory joined) for others.  */
static const char *bt_symtab_file_name(struct bt_symtab *st, Dwarf_Die *cu,
				       const char *path)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_diename(cu), *dir;
	char *full;
	const char *result;

	if (!path)
		return NULL;
	if (name) {
		dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
		if (strcmp(name, path) == 0)
			return bt_symtab_intern(st, name);
		if (name[0] != '/' && dir) {
			size_t len = strlen(dir) + strlen(name) + 2;
			int same;

			full = malloc(len);
			if (!full)
				return NULL;
			snprintf(full, len, "%s/%s", dir, name);
			same = strcmp(full, path) == 0;
			free(full);
			if (same)
				return bt_symtab_intern(st, name);
		}
	}
	result = bt_symtab_intern(st, path);
	return result;
}

static int bt_symtab_add_dfunc(struct bt_symtab *st, size_t *cap,
			       Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Addr low, high, base, entry = 0;
	ptrdiff_t off = 0;
	int has_entry;
	const char *name = dwarf_diename(die), *file;

	if (!name || dwarf_hasattr(die, DW_AT_declaration))
		return 0;
	file = bt_symtab_file_name(st, cu, dwarf_decl_file(die));
	has_entry = dwarf_entrypc(die, &entry) == 0;

	/* A function may have several ranges (hot/cold parts).  */
	while ((off = dwarf_ranges(die, off, &base, &low, &high)) > 0) {
		if (st->ndfuncs == *cap) {
			size_t ncap = *cap ? 2 * *cap : 64;
			struct bt_dfunc *d = realloc(st->dfuncs,
						     ncap * sizeof(*d));

			if (!d)
				return -bte_nomem;
			st->dfuncs = d;
			*cap = ncap;
		}
		st->dfuncs[st->ndfuncs].low = low;
		st->dfuncs[st->ndfuncs].high = high;
		st->dfuncs[st->ndfuncs].name = name;
		st->dfuncs[st->ndfuncs].file = file;
		if (!has_entry) {
			entry = low;
			has_entry = 1;
		}
		st->dfuncs[st->ndfuncs].entry = entry;
		st->ndfuncs += 1;
	}
	return 0;
}

/* Collect subprograms below DIE, looking into namespaces and classes but
   not into functions (nested ones belong to their parent for GDB).  */
static int bt_symtab_walk(struct bt_symtab *st, size_t *cap, Dwarf_Die *cu,
			  Dwarf_Die *parent)
{
	Dwarf_Die child;
	int errcode;

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			errcode = bt_symtab_add_dfunc(st, cap, cu, &child);
			break;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			errcode = bt_symtab_walk(st, cap, cu, &child);
			break;
		default:
			errcode = 0;
			break;
		}
		if (errcode < 0)
			return errcode;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int bt_symtab_load_dwarf(struct bt_symtab *st)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	int errcode;

	st->dwarf = dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
	if (!st->dwarf)
		return 0;

	while (dwarf_nextcu(st->dwarf, off, &next, &hsize, NULL, NULL,
			    NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(st->dwarf, off + hsize, &cu)) {
			errcode = bt_symtab_walk(st, &cap, &cu, &cu);
			if (errcode < 0)
				return errcode;
		}
		off = next;
	}
	if (st->ndfuncs)
		qsort(st->dfuncs, st->ndfuncs, sizeof(*st->dfuncs),
		      bt_dfunc_cmp);
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
	errcode = bt_symtab_load_msyms(st);
	if (errcode < 0)
		return errcode;
	return bt_symtab_load_dwarf(st);
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
	struct bt_symtab *st;

	if (!symtab || !path)
		return -bte_invalid;
	elf_version(EV_CURRENT);

	st = calloc(1, sizeof(*st));
	if (!st)
		return -bte_nomem;
	st->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (st->fd < 0) {
		free(st);
		return -bte_io;
	}
	st->elf = elf_begin(st->fd, ELF_C_READ_MMAP, NULL);
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
	if (st->elf)
		elf_end(st->elf);
	if (st->fd >= 0)
		close(st->fd);
	for (size_t i = 0; i < st->nstrings; ++i)
		free(st->strings[i]);
	free(st->strings);
	free(st->msyms);
	free(st->xsecs);
	free(st->dfuncs);
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
int bt_symtab_msym(const struct bt_symtab *st, uint64_t pc,
		   struct bt_msym *out)
{
	const struct bt_xsec *sec;
	size_t lo = 0, hi;
	long i, best_zero = -1, found = -1;
	uint64_t addr;

	if (!st || !st->nmsyms)
		return -bte_notfound;
	addr = pc - st->bias;
	sec = bt_symtab_xsec(st, addr);
	if (!sec)
		return -bte_notfound;

	hi = st->nmsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->msyms[mid].address <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}

	for (i = (long) lo - 1; i >= 0; --i) {
		const struct bt_msym *m = &st->msyms[i];

		if (m->shndx != sec->shndx)
			continue;
		if (!m->size) {
			if (best_zero < 0)
				best_zero = i;
			continue;
		}
		if (i > 0 && addr >= m->address + m->size &&
		    addr < st->msyms[i - 1].address + st->msyms[i - 1].size)
			continue;
		found = i;
		break;
	}

	if (found >= 0 && addr >= st->msyms[found].address
	    + st->msyms[found].size)
		found = best_zero;
	else if (found < 0)
		found = best_zero;
	if (found < 0)
		return -bte_notfound;

	*out = st->msyms[found];
	out->address += st->bias;
	return 0;
}

int bt_symtab_dfunc(const struct bt_symtab *st, uint64_t pc,
		    struct bt_dfunc *out)
{
	size_t lo = 0, hi;
	uint64_t addr;

	if (!st || !st->ndfuncs)
		return -bte_notfound;
	addr = pc - st->bias;

	hi = st->ndfuncs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->dfuncs[mid].low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Ranges do not nest at the top level; look back a little for an
	   enclosing range in case of overlapping cold parts.  */
	for (size_t k = lo; k > 0 && lo - k < 8; --k) {
		const struct bt_dfunc *d = &st->dfuncs[k - 1];

		if (addr >= d->low && addr < d->high) {
			*out = *d;
			out->low += st->bias;
			out->high += st->bias;
			out->entry += st->bias;
			return 0;
		}
	}
	return -bte_notfound;
}

int bt_symtab_line(const struct bt_symtab *cst, uint64_t pc, int *line,
		   const char **file)
{
	struct bt_symtab *st = (struct bt_symtab *) cst;
	Dwarf_Die cu;
	Dwarf_Line *dl;
	int lineno;
	uint64_t addr;

	if (!st || !st->dwarf)
		return -bte_notfound;
	addr = pc - st->bias;
	if (!dwarf_addrdie(st->dwarf, addr, &cu))
		return -bte_notfound;
	dl = dwarf_getsrc_die(&cu, addr);
	if (!dl || dwarf_lineno(dl, &lineno) != 0)
		return -bte_notfound;
	if (line)
		*line = lineno;
	if (file)
		*file = bt_symtab_file_name(st, &cu,
					    dwarf_linesrc(dl, NULL, NULL));
	return 0;
}

/* The first address above PC where the symbol lookups may answer
   differently: a symbol or function start or end, or a section end.  */
uint64_t bt_symtab_boundary(const struct bt_symtab *st, uint64_t pc)
{
	uint64_t addr, hi = UINT64_MAX;
	const struct bt_xsec *sec;
	size_t lo, top;

	if (!st)
		return UINT64_MAX;
	addr = pc - st->bias;

	sec = bt_symtab_xsec(st, addr);
	if (sec)
		hi = sec->address + sec->size;

	lo = 0;
	top = st->nmsyms;
	while (lo < top) {
		size_t mid = lo + (top - lo) / 2;

		if (st->msyms[mid].address <= addr)
			lo = mid + 1;
		else
			top = mid;
	}
	if (lo < st->nmsyms && st->msyms[lo].address < hi)
		hi = st->msyms[lo].address;
	/* Symbol ends: any symbol at or below PC that ends above it.  */
	for (size_t k = lo; k > 0 && lo - k < 64; --k) {
		const struct bt_msym *m = &st->msyms[k - 1];
		uint64_t end = m->address + m->size;

		if (m->size && end > addr && end < hi)
			hi = end;
	}

	lo = 0;
	top = st->ndfuncs;
	while (lo < top) {
		size_t mid = lo + (top - lo) / 2;

		if (st->dfuncs[mid].low <= addr)
			lo = mid + 1;
		else
			top = mid;
	}
	if (lo < st->ndfuncs && st->dfuncs[lo].low < hi)
		hi = st->dfuncs[lo].low;
	for (size_t k = lo; k > 0 && lo - k < 8; --k) {
		const struct bt_dfunc *d = &st->dfuncs[k - 1];

		if (d->high > addr && d->high < hi)
			hi = d->high;
	}

	if (hi == UINT64_MAX || hi <= addr)
		return pc + 1;
	return hi + st->bias;
}
