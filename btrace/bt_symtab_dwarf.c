/* DWARF functions and source lines of one object, as GDB 13 finds them:
   function names (linkage names for C asm labels), the file names GDB
   displays, and find_pc_line's choice among rows at one address.  */
#include "btrace/bt_symtab_int.h"
#include "common/ps_array.h"
#include "btrace/ptbtrace.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bt_dfunc_cmp(const void *a, const void *b)
{
	const struct bt_dfunc_ent *l = a, *r = b;

	if (l->f.low != r->f.low)
		return l->f.low < r->f.low ? -1 : 1;
	if (l->cu != r->cu)
		return l->cu < r->cu ? -1 : 1;
	if (l->seq != r->seq)
		return l->seq < r->seq ? -1 : 1;
	return 0;
}

/* PATH joined to DIR unless it is absolute (GDB's path_join); malloc'ed.  */
static char *bt_join(const char *dir, const char *path)
{
	size_t len;
	char *out;

	if (path[0] == '/' || !dir)
		return strdup(path);
	len = strlen(dir) + strlen(path) + 2;
	out = malloc(len);
	if (out)
		snprintf(out, len, "%s/%s", dir, path);
	return out;
}

/* The name GDB 13 shows for a line-table file of CU, given as libdw's
   PATH (the entry's directory joined to its name): GDB files it under
   the CU's own name (DW_AT_name) when both resolve, against the
   compilation directory, to the same file; else under PATH.  */
static const char *bt_symtab_file_name(struct bt_symtab *st, Dwarf_Die *cu,
				       const char *path)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_diename(cu), *dir;
	char *id, *main_id;
	int same;

	if (!path)
		return NULL;
	if (!name)
		return bt_symtab_intern(st, path);
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	id = bt_join(dir, path);
	main_id = bt_join(dir, name);
	same = id && main_id && strcmp(id, main_id) == 0;
	free(id);
	free(main_id);
	return bt_symtab_intern(st, same ? name : path);
}

/* The name GDB gives a C function: its linkage name when the compiler
   recorded one (an asm label, as glibc's __GI_ aliases), else its name.  */
static const char *bt_symtab_func_name(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *linkage = NULL;

	switch (dwarf_srclang(cu)) {
	case DW_LANG_C:
	case DW_LANG_C89:
	case DW_LANG_C99:
	case DW_LANG_C11:
		if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr))
			linkage = dwarf_formstring(&attr);
		break;
	default:
		break;
	}
	return linkage ? linkage : dwarf_diename(die);
}

static int bt_symtab_add_dfunc(struct bt_symtab *st, uint32_t cu_index,
			       Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Addr low, high, base, entry = 0;
	ptrdiff_t off = 0;
	int has_entry;
	const char *name = bt_symtab_func_name(cu, die), *file;

	if (!name || dwarf_hasattr(die, DW_AT_declaration))
		return 0;
	/* A function without a file (an assembler's) is in the CU's main
	   file's symtab for GDB.  */
	file = dwarf_hasattr_integrate(die, DW_AT_decl_file) ?
		bt_symtab_file_name(st, cu, dwarf_decl_file(die)) :
		bt_symtab_intern(st, dwarf_diename(cu) ? dwarf_diename(cu) : "");
	has_entry = dwarf_entrypc(die, &entry) == 0;

	/* A function may have several ranges (hot/cold parts).  */
	while ((off = dwarf_ranges(die, off, &base, &low, &high)) > 0) {
		struct bt_dfunc_ent *e;

		if (PS_ARRAY_RESERVE(st->dfuncs, st->dfuncs_cap,
				     st->ndfuncs + 1))
			return -bte_nomem;
		if (!has_entry) {
			entry = low;
			has_entry = 1;
		}
		e = &st->dfuncs[st->ndfuncs];
		e->f.low = low;
		e->f.high = high;
		e->f.name = name;
		e->f.file = file;
		e->f.entry = entry;
		e->cu = cu_index;
		e->seq = (uint32_t) st->ndfuncs;
		st->ndfuncs += 1;
	}
	return 0;
}

/* Collect subprograms below DIE, looking into namespaces and classes but
   not into functions (nested ones belong to their parent for GDB).  */
static int bt_symtab_walk(struct bt_symtab *st, uint32_t cu_index,
			  Dwarf_Die *cu, Dwarf_Die *parent)
{
	Dwarf_Die child;
	int errcode;

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			errcode = bt_symtab_add_dfunc(st, cu_index, cu,
						      &child);
			break;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			errcode = bt_symtab_walk(st, cu_index, cu, &child);
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

int bt_symtab_dwarf_cu_funcs(struct bt_symtab *st, Dwarf_Die *cu,
			     uint32_t cu_index)
{
	return bt_symtab_walk(st, cu_index, cu, cu);
}

int bt_symtab_dwarf_sort(struct bt_symtab *st)
{
	size_t n = st->ndfuncs, k = st->nsorted, i = 0, j = k, out = 0;
	struct bt_dfunc_ent *merged;

	if (k == n)
		return 0;
	qsort(st->dfuncs + k, n - k, sizeof(*st->dfuncs), bt_dfunc_cmp);
	if (k) {
		/* A merge, not a sort of all: CUs are read one at a time.  */
		merged = malloc(n * sizeof(*merged));
		if (!merged)
			return -bte_nomem;
		while (i < k || j < n) {
			if (j == n || (i < k && bt_dfunc_cmp(&st->dfuncs[i],
							     &st->dfuncs[j]) <= 0))
				merged[out++] = st->dfuncs[i++];
			else
				merged[out++] = st->dfuncs[j++];
		}
		memcpy(st->dfuncs, merged, n * sizeof(*merged));
		free(merged);
	}
	st->nsorted = n;
	return 0;
}

/* The function of the sorted ones holding ADDR (link-time), or NULL.  */
static const struct bt_dfunc *bt_symtab_dfunc_at(const struct bt_symtab *st,
						 uint64_t addr)
{
	size_t lo = 0, hi = st->nsorted;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->dfuncs[mid].f.low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Ranges do not nest at the top level; look back a little for an
	   enclosing range in case of overlapping cold parts.  */
	for (size_t k = lo; k > 0 && lo - k < 8; --k) {
		const struct bt_dfunc *d = &st->dfuncs[k - 1].f;

		if (addr >= d->low && addr < d->high)
			return d;
	}
	return NULL;
}

int bt_symtab_dfunc(const struct bt_symtab *cst, uint64_t pc,
		    struct bt_dfunc *out)
{
	/* The lookup reads the CUs it needs into the symtab's cache.  */
	struct bt_symtab *st = (struct bt_symtab *) cst;
	const struct bt_dfunc *d;
	uint64_t addr;

	if (!st)
		return -bte_notfound;
	addr = pc - st->bias;
	if (bt_symtab_dwarf_need(st, addr, NULL) < 0)
		return -bte_notfound;
	d = bt_symtab_dfunc_at(st, addr);
	if (!d)
		return -bte_notfound;
	*out = *d;
	out->low += st->bias;
	out->high += st->bias;
	out->entry += st->bias;
	return 0;
}

int bt_symtab_line(const struct bt_symtab *cst, uint64_t pc, int *line,
		   const char **file)
{
	struct bt_symtab *st = (struct bt_symtab *) cst;
	const struct bt_cu_lines *cl;
	const struct bt_lspan *sp;

	if (!st)
		return -bte_notfound;
	sp = bt_symtab_line_span(st, pc - st->bias, &cl);
	if (!sp)
		return -bte_notfound;
	if (line)
		*line = sp->line;
	if (file)
		*file = cl->subs[sp->sub].name;
	return 0;
}

int bt_symtab_line_extent(const struct bt_symtab *cst, uint64_t pc,
			  int *line, const char **file, uint64_t *lo,
			  uint64_t *hi)
{
	struct bt_symtab *st = (struct bt_symtab *) cst;
	const struct bt_cu_lines *cl = NULL;
	const struct bt_lspan *sp;
	uint64_t a, b;

	*lo = pc;
	*hi = pc + 1;
	if (!st)
		return -bte_notfound;
	sp = bt_symtab_line_span_extent(st, pc - st->bias, &cl, &a, &b);
	if (b > a) {
		*lo = a + st->bias;
		*hi = b + st->bias;
	}
	if (!sp)
		return -bte_notfound;
	*line = sp->line;
	*file = cl->subs[sp->sub].name;
	return 0;
}

/* GDB's btrace_find_line_range: the lines of the statement rows at
   exactly PC in the table of PC's line, but that table's last row, by
   GDB's arithmetic (a line above the range moves its end to that line,
   not past it).  */
int bt_symtab_line_range(const struct bt_symtab *cst, uint64_t pc,
			 int *begin, int *end, const char **file,
			 const char **path)
{
	struct bt_symtab *st = (struct bt_symtab *) cst;
	const struct bt_cu_lines *cl;
	const struct bt_lspan *sp;
	const struct bt_lsub *s;
	uint64_t addr;
	size_t lo = 0, hi;

	*begin = *end = 0;
	if (!st)
		return -bte_notfound;
	addr = pc - st->bias;
	sp = bt_symtab_line_span(st, addr, &cl);
	if (!sp)
		return -bte_notfound;
	s = &cl->subs[sp->sub];
	hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].pc < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i + 1 < s->n && s->v[i].pc == addr; ++i) {
		int line = s->v[i].line;

		if (!line || !s->v[i].is_stmt)
			continue;
		if (*end <= *begin) {
			*begin = line;
			*end = line + 1;
		} else if (line < *begin)
			*begin = line;
		else if (*end < line)
			*end = line;
	}
	if (file)
		*file = s->name;
	if (path)
		*path = s->path;
	return 0;
}

int bt_symtab_line_bounds(const struct bt_symtab *cst, uint64_t pc,
			  uint64_t *start, uint64_t *end)
{
	struct bt_symtab *st = (struct bt_symtab *) cst;
	const struct bt_cu_lines *cl;
	const struct bt_lspan *sp;

	if (!st)
		return -bte_notfound;
	sp = bt_symtab_line_span(st, pc - st->bias, &cl);
	if (!sp)
		return -bte_notfound;
	*start = sp->row + st->bias;
	*end = sp->end ? sp->end + st->bias : 0;
	return 0;
}
