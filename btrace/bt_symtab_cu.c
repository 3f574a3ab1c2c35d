/* The DWARF of one object, read on demand: the file is opened at the
   first DWARF question, and a CU's functions are read at the first
   function question about an address inside the CU's ranges, since
   reading every CU of a library up front was most of ptbtrace's time.  */
#include "btrace/bt_symtab_int.h"
#include "common/ps_array.h"
#include "btrace/ptbtrace.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

static int bt_cu_range_cmp(const void *a, const void *b)
{
	const struct bt_cu_range *l = a, *r = b;

	if (l->low != r->low)
		return l->low < r->low ? -1 : 1;
	return 0;
}

static int bt_cus_add_range(struct bt_cus *cus, size_t *cap, uint64_t low,
			    uint64_t high, uint32_t cu)
{
	if (PS_ARRAY_RESERVE(cus->ranges, *cap, cus->nranges + 1))
		return -bte_nomem;
	cus->ranges[cus->nranges].low = low;
	cus->ranges[cus->nranges].high = high;
	cus->ranges[cus->nranges].cu = cu;
	cus->nranges += 1;
	return 0;
}

static int bt_cus_add(struct bt_cus *cus, size_t *cap, Dwarf_Off die_off)
{
	if (PS_ARRAY_RESERVE(cus->v, *cap, cus->n + 1))
		return -bte_nomem;
	cus->v[cus->n].die_off = die_off;
	cus->v[cus->n].loaded = 0;
	cus->v[cus->n].indexed = 0;
	cus->v[cus->n].lines = NULL;
	cus->n += 1;
	return 0;
}

/* Read CU number I's functions, once, unsorted: 1 if it was read now.  */
static int bt_cus_load(struct bt_symtab *st, uint32_t i)
{
	struct bt_cus *cus = &st->cus;
	Dwarf_Die die;
	int errcode;

	if (cus->v[i].loaded)
		return 0;
	cus->v[i].loaded = 1;
	cus->nloaded += 1;
	if (!dwarf_offdie(st->dwarf, cus->v[i].die_off, &die))
		return 1;
	errcode = bt_symtab_dwarf_cu_funcs(st, &die, i);
	return errcode < 0 ? errcode : 1;
}

/* CUs are in offset order.  */
long bt_cus_index_of(const struct bt_cus *cus, Dwarf_Off die_off)
{
	size_t lo = 0, hi = cus->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cus->v[mid].die_off == die_off)
			return (long) mid;
		if (cus->v[mid].die_off < die_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The ranges .debug_aranges gives the CUs, as GDB reads them (without
   reading any DIE: a CU DIE's own ranges cost as much as all the rest).  */
static int bt_cus_index_aranges(struct bt_symtab *st, size_t *rcap)
{
	struct bt_cus *cus = &st->cus;
	Dwarf_Aranges *aranges;
	size_t n;
	int errcode;

	if (dwarf_getaranges(st->dwarf, &aranges, &n) != 0)
		return 0;
	for (size_t k = 0; k < n; ++k) {
		Dwarf_Arange *ar = dwarf_onearange(aranges, k);
		Dwarf_Addr low;
		Dwarf_Word len;
		Dwarf_Off die_off;
		long i;

		if (!ar || dwarf_getarangeinfo(ar, &low, &len, &die_off) != 0)
			continue;
		i = bt_cus_index_of(cus, die_off);
		if (i < 0 || !len)
			continue;
		cus->v[i].indexed = 1;
		errcode = bt_cus_add_range(cus, rcap, low, low + len,
					   (uint32_t) i);
		if (errcode < 0)
			return errcode;
	}
	return 0;
}

/* The ranges of CU number I from its DIE, for a CU that .debug_aranges
   does not cover.  A CU without ranges is read now: nothing bounds where
   its functions may be.  */
static int bt_cus_index_die(struct bt_symtab *st, uint32_t i, size_t *rcap)
{
	struct bt_cus *cus = &st->cus;
	Dwarf_Die cu;
	Dwarf_Addr base, low, high;
	ptrdiff_t roff = 0;
	int ranged = 0, errcode;

	if (!dwarf_offdie(st->dwarf, cus->v[i].die_off, &cu))
		return 0;
	while ((roff = dwarf_ranges(&cu, roff, &base, &low, &high)) > 0) {
		ranged = 1;
		if (low >= high)
			continue;
		errcode = bt_cus_add_range(cus, rcap, low, high, i);
		if (errcode < 0)
			return errcode;
	}
	return ranged ? 0 : bt_cus_load(st, i);
}

/* Index the CUs by their ranges.  */
static int bt_cus_index(struct bt_symtab *st)
{
	struct bt_cus *cus = &st->cus;
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0, rcap = 0;
	int errcode;

	while (dwarf_nextcu(st->dwarf, off, &next, &hsize, NULL, NULL,
			    NULL) == 0) {
		errcode = bt_cus_add(cus, &cap, off + hsize);
		if (errcode < 0)
			return errcode;
		off = next;
	}
	errcode = bt_cus_index_aranges(st, &rcap);
	for (size_t i = 0; errcode >= 0 && i < cus->n; ++i)
		if (!cus->v[i].indexed)
			errcode = bt_cus_index_die(st, (uint32_t) i, &rcap);
	if (errcode < 0)
		return errcode;
	errcode = bt_symtab_dwarf_sort(st);
	if (errcode < 0 || !cus->nranges)
		return errcode;
	qsort(cus->ranges, cus->nranges, sizeof(*cus->ranges),
	      bt_cu_range_cmp);
	cus->max_high = calloc(cus->nranges, sizeof(*cus->max_high));
	if (!cus->max_high)
		return -bte_nomem;
	for (size_t k = 0; k < cus->nranges; ++k) {
		uint64_t h = cus->ranges[k].high;

		cus->max_high[k] = k && cus->max_high[k - 1] > h ?
			cus->max_high[k - 1] : h;
	}
	return 0;
}

/* Debug sections no question of ours reads: variable locations, call
   frames, macros.  libdw inflates every compressed debug section when it
   opens a file (a third of libc's is location lists), but skips one
   whose type says it has no bits; the change is to the in-memory
   section headers only.  */
static void bt_dwarf_skip_unused(Elf *elf)
{
	static const char *const unused[] = {
		"debug_loc", "debug_loclists", "debug_frame", "debug_macro",
		"debug_macinfo",
	};
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr mem, *shdr = gelf_getshdr(scn, &mem);
		const char *name;

		if (!shdr || shdr->sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, shdr->sh_name);
		/* ".debug_x", or ".zdebug_x" when GNU-compressed.  */
		if (!name || (strncmp(name, ".debug_", 7) != 0 &&
			      strncmp(name, ".zdebug_", 8) != 0))
			continue;
		name += name[1] == 'z' ? 2 : 1;
		for (size_t i = 0; i < sizeof(unused) / sizeof(*unused); ++i)
			if (strcmp(name, unused[i]) == 0) {
				shdr->sh_type = SHT_NOBITS;
				(void) gelf_update_shdr(scn, shdr);
				break;
			}
	}
}

int bt_symtab_dwarf_open(struct bt_symtab *st)
{
	Elf *elf = st->debug_elf ? st->debug_elf : st->elf;

	if (st->dwarf_opened)
		return 0;
	st->dwarf_opened = 1;
	bt_dwarf_skip_unused(elf);
	/* Out of memory here leaves the sections to libelf.  */
	(void) bt_inflate_debug(elf, &st->inflated);
	st->dwarf = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!st->dwarf)
		return 0;
	bt_symtab_lines_open(st);
	return bt_cus_index(st);
}

int bt_symtab_dwarf_need(struct bt_symtab *st, uint64_t addr, uint64_t *hi)
{
	const struct bt_cus *cus = &st->cus;
	size_t lo = 0, top;
	int errcode = bt_symtab_dwarf_open(st), read = 0;

	if (errcode < 0)
		return errcode;
	top = cus->nranges;
	while (lo < top) {
		size_t mid = lo + (top - lo) / 2;

		if (cus->ranges[mid].low <= addr)
			lo = mid + 1;
		else
			top = mid;
	}
	/* Which CUs cover ADDR holds up to the next range's start or the
	   end of a covering range: functions of other CUs lie outside.  */
	if (hi)
		*hi = lo < cus->nranges ? cus->ranges[lo].low : UINT64_MAX;
	for (size_t k = lo; k > 0 && cus->max_high[k - 1] > addr; --k) {
		const struct bt_cu_range *r = &cus->ranges[k - 1];

		if (r->high <= addr)
			continue;
		if (hi && r->high < *hi)
			*hi = r->high;
		errcode = bt_cus_load(st, r->cu);
		if (errcode < 0)
			return errcode;
		read |= errcode;
	}
	return read ? bt_symtab_dwarf_sort(st) : 0;
}

int bt_cus_range_of(const struct bt_cus *cus, uint64_t addr, uint32_t cu,
		    uint64_t *lo, uint64_t *hi)
{
	size_t k = 0, top = cus->nranges, next;

	while (k < top) {
		size_t mid = k + (top - k) / 2;

		if (cus->ranges[mid].low <= addr)
			k = mid + 1;
		else
			top = mid;
	}
	next = k;
	for (; k > 0 && cus->max_high[k - 1] > addr; --k) {
		const struct bt_cu_range *r = &cus->ranges[k - 1];

		if (r->cu != cu || r->high <= addr)
			continue;
		*lo = r->low;
		*hi = r->high;
		/* Another CU's range starting inside ends the answer.  */
		if (next < cus->nranges && cus->ranges[next].low < *hi)
			*hi = cus->ranges[next].low;
		return 0;
	}
	return -bte_notfound;
}

int bt_symtab_dwarf_load_all(struct bt_symtab *st)
{
	int errcode = bt_symtab_dwarf_open(st);

	for (size_t i = 0; errcode >= 0 && i < st->cus.n; ++i)
		errcode = bt_cus_load(st, (uint32_t) i);
	return errcode < 0 ? errcode : bt_symtab_dwarf_sort(st);
}

size_t bt_symtab_dwarf_cus(const struct bt_symtab *st, size_t *loaded)
{
	if (loaded)
		*loaded = st ? st->cus.nloaded : 0;
	return st ? st->cus.n : 0;
}

void bt_cus_fini(struct bt_cus *cus)
{
	for (size_t i = 0; i < cus->n; ++i)
		bt_cu_lines_release(cus->v[i].lines);
	free(cus->v);
	free(cus->ranges);
	free(cus->max_high);
}
