/* Names and lines in the memory image: the function identity at an
   address as GDB's btrace compares it, the symbol GDB shows, source
   lines and their extents, each through the symbol table of the object
   mapped there (bt_image.c builds them).  */
#include "btrace/bt_image.h"
#include "btrace/bt_image_int.h"
#include "btrace/bt_symtab.h"

#include <stdint.h>
#include <string.h>

static const struct bt_symtab *bt_image_symtab(const struct bt_image *image,
					       uint64_t pc)
{
	const struct bt_isec *sec = bt_image_sec(image, pc);

	if (!sec || sec->symtab < 0)
		return NULL;
	return image->symtabs[sec->symtab];
}

const struct bt_symtab *bt_image_symtab_at(const struct bt_image *image,
					   uint64_t pc)
{
	return image ? bt_image_symtab(image, pc) : NULL;
}

int bt_image_func(const struct bt_image *image, uint64_t pc,
		  struct bt_func_key *key, uint64_t *end)
{
	const struct bt_isec *sec;
	const struct bt_symtab *st;
	struct bt_msym msym;
	struct bt_dfunc dfunc;
	uint64_t hi;

	if (!image || !key)
		return -bte_invalid;
	memset(key, 0, sizeof(*key));

	sec = bt_image_sec(image, pc);
	st = sec && sec->symtab >= 0 ? image->symtabs[sec->symtab] : NULL;
	if (st) {
		if (bt_symtab_msym(st, pc, &msym) == 0)
			key->msym = msym.name;
		if (bt_symtab_dfunc(st, pc, &dfunc) == 0) {
			key->sym = dfunc.name;
			key->file = dfunc.file;
		}
	}

	if (end) {
		hi = st ? bt_symtab_boundary(st, pc) : UINT64_MAX;
		/* Leaving the section may change the symbol table.  */
		if (sec && sec->address + sec->size < hi)
			hi = sec->address + sec->size;
		if (!sec) {
			/* Find the next section above PC.  */
			for (size_t i = 0; i < image->nsecs; ++i)
				if (image->secs[i].address > pc &&
				    image->secs[i].address < hi)
					hi = image->secs[i].address;
		}
		if (hi <= pc)
			hi = pc + 1;
		*end = hi;
	}
	return 0;
}

uint64_t bt_image_func_start(const struct bt_image *image, uint64_t pc)
{
	const struct bt_symtab *st = bt_image_symtab(image, pc);
	struct bt_dfunc dfunc;
	struct bt_msym msym;

	if (!st)
		return 0;
	if (bt_symtab_dfunc(st, pc, &dfunc) == 0)
		return dfunc.entry;
	if (bt_symtab_msym(st, pc, &msym) == 0)
		return msym.address;
	return 0;
}

int bt_image_symbol(const struct bt_image *image, uint64_t pc,
		    struct bt_symbol *sym)
{
	const struct bt_symtab *st;
	struct bt_msym msym;
	struct bt_dfunc dfunc;
	int found = 0;

	if (!image || !sym)
		return -bte_invalid;
	memset(sym, 0, sizeof(*sym));

	st = bt_image_symtab(image, pc);
	if (!st)
		return -bte_notfound;
	if (bt_symtab_msym(st, pc, &msym) == 0) {
		sym->name = msym.name;
		sym->address = msym.address;
		sym->size = msym.size;
		found = 1;
	}
	if (bt_symtab_dfunc(st, pc, &dfunc) == 0) {
		sym->dwarf_name = dfunc.name;
		sym->file = dfunc.file;
		if (!found) {
			sym->address = dfunc.low;
			sym->size = dfunc.high - dfunc.low;
		}
		found = 1;
	}
	return found ? 0 : -bte_notfound;
}

int bt_image_line(const struct bt_image *image, uint64_t pc, int *line,
		  const char **file)
{
	const struct bt_symtab *st;

	if (!image)
		return -bte_invalid;
	st = bt_image_symtab(image, pc);
	if (!st)
		return -bte_notfound;
	return bt_symtab_line(st, pc, line, file);
}

int bt_image_line_extent(const struct bt_image *image, uint64_t pc,
			 int *line, const char **file, uint64_t *lo,
			 uint64_t *hi)
{
	const struct bt_isec *sec;
	int errcode;

	if (!image)
		return -bte_invalid;
	sec = bt_image_sec(image, pc);
	if (!sec || sec->symtab < 0) {
		*lo = pc;
		*hi = pc + 1;
		return -bte_notfound;
	}
	errcode = bt_symtab_line_extent(image->symtabs[sec->symtab], pc, line,
					file, lo, hi);
	/* Leaving the section may change the symbol table.  */
	if (*hi > sec->address + sec->size)
		*hi = sec->address + sec->size;
	return errcode;
}

static int bt_name_differs(const char *a, const char *b)
{
	return a != b && strcmp(a, b) != 0;
}

int bt_func_key_switched(const struct bt_func_key *old,
			 const struct bt_func_key *now)
{
	int had = old->msym || old->sym, has = now->msym || now->sym;

	if (old->msym && now->msym && bt_name_differs(old->msym, now->msym))
		return 1;
	if (old->sym && now->sym) {
		if (bt_name_differs(old->sym, now->sym))
			return 1;
		if (old->file && now->file &&
		    bt_name_differs(old->file, now->file))
			return 1;
	}
	return had != has;
}

int bt_image_symbolic(const struct bt_image *image, uint64_t addr,
		      int prefer_sym, const char **name, int64_t *offset)
{
	const struct bt_symtab *st;
	struct bt_msym msym;
	struct bt_dfunc dfunc;
	int have_msym, have_dfunc;
	uint64_t location;

	if (!image || !name || !offset)
		return -bte_invalid;
	st = bt_image_symtab(image, addr);
	if (!st) {
		/* Not code: a data symbol of any object may name it.  */
		for (size_t i = 0; i < image->nsymtabs; ++i)
			if (bt_symtab_data_msym(image->symtabs[i], addr,
						&msym) == 0) {
				*name = msym.name;
				*offset = (int64_t) (addr - msym.address);
				return 0;
			}
		return -bte_notfound;
	}
	have_msym = bt_symtab_msym(st, addr, &msym) == 0;
	have_dfunc = bt_symtab_dfunc(st, addr, &dfunc) == 0;
	if (!have_msym && !have_dfunc)
		return -bte_notfound;

	/* The full symbol, unless a minimal symbol starts exactly at ADDR
	   and the full symbol does not (and PREFER_SYM does not say no).  */
	if (have_dfunc && (prefer_sym || !(have_msym && msym.address == addr
					   && dfunc.entry != addr))) {
		*name = dfunc.name;
		location = dfunc.entry;
	} else {
		*name = msym.name;
		location = msym.address;
	}
	*offset = (int64_t) (addr - location);
	return 0;
}

int bt_image_line_range(const struct bt_image *image, uint64_t pc,
			int *begin, int *end, const char **file,
			const char **path)
{
	const struct bt_symtab *st;

	if (!image || !begin || !end)
		return -bte_invalid;
	*begin = *end = 0;
	st = bt_image_symtab(image, pc);
	if (!st)
		return -bte_notfound;
	return bt_symtab_line_range(st, pc, begin, end, file, path);
}

int bt_image_line_bounds(const struct bt_image *image, uint64_t pc,
			 uint64_t *start, uint64_t *end)
{
	const struct bt_symtab *st;

	if (!image || !start || !end)
		return -bte_invalid;
	st = bt_image_symtab(image, pc);
	if (!st)
		return -bte_notfound;
	return bt_symtab_line_bounds(st, pc, start, end);
}
