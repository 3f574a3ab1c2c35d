/* GDB 13's line tables of one CU, built from .debug_line the way its
   DWARF reader builds them (dwarf2/read.c's line state machine,
   buildsym.c's record_line): one table per source file ("subfile"), with
   the end markers that drop rows at the same address, sorted as
   end_compunit_symtab sorts them.  find_pc_line's answer over those
   tables is then computed once for every address a row starts at, so a
   lookup is a binary search.  libdw's rows are not enough: they are
   sorted by address across sequences and lose the file switches.  */
#include "btrace/bt_line_header.h"
#include "common/ps_array.h"
#include "btrace/bt_symtab_int.h"
#include "btrace/ptbtrace.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* What building one CU's tables needs.  */
struct bt_lbuild {
	struct bt_symtab *st;
	struct bt_lhdr h;
	const char *comp_dir;
	struct bt_cu_lines *cl;
	size_t *caps;             /* per subfile: entries allocated */
	char **ids;               /* per subfile: GDB's name_for_id */
	size_t subs_cap;
	int cur;                  /* the builder's current subfile */
	uint32_t seq;
};

static int bt_lbuild_new_sub(struct bt_lbuild *b, const char *name,
			     char *id, const char *path)
{
	struct bt_cu_lines *cl = b->cl;

	if (cl->nsubs == b->subs_cap) {
		/* Three arrays side by side: all grow to the same capacity.  */
		size_t cap = b->subs_cap, caps_cap = cap, ids_cap = cap;
		size_t need = cl->nsubs + 1;

		if (PS_ARRAY_RESERVE(cl->subs, cap, need) ||
		    PS_ARRAY_RESERVE(b->caps, caps_cap, need) ||
		    PS_ARRAY_RESERVE(b->ids, ids_cap, need))
			return -bte_nomem;
		b->subs_cap = cap;
	}
	memset(&cl->subs[cl->nsubs], 0, sizeof(*cl->subs));
	cl->subs[cl->nsubs].name = bt_symtab_intern(b->st, name);
	cl->subs[cl->nsubs].path = bt_symtab_intern(b->st, path);
	cl->subs[cl->nsubs].order = UINT32_MAX;
	b->caps[cl->nsubs] = 0;
	b->ids[cl->nsubs] = id;
	if (!cl->subs[cl->nsubs].name || !cl->subs[cl->nsubs].path)
		return -bte_nomem;
	return (int) cl->nsubs++;
}

/* buildsym's start_subfile: the subfile of that id, or a new one.  */
static int bt_lbuild_start(struct bt_lbuild *b, const char *name, char *id,
			   const char *path)
{
	for (size_t i = 0; i < b->cl->nsubs; ++i)
		if (strcmp(b->ids[i], id) == 0) {
			free(id);
			return (int) i;
		}
	return bt_lbuild_new_sub(b, name, id, path);
}

/* dwarf2_start_subfile for file entry FE: its subfile becomes current.  */
static int bt_lbuild_start_file(struct bt_lbuild *b, struct bt_lfile *fe)
{
	const char *dir = bt_lhdr_dir(&b->h, fe->dir);
	char *name, *id, *path;
	int sub;

	if (fe->sub >= 0) {
		b->cur = fe->sub;
		return 0;
	}
	/* The name GDB shows; its id (file_file_name); libdw's path.  */
	if (fe->name[0] != '/' && dir)
		name = bt_path_join(dir, fe->name);
	else
		name = strdup(fe->name);
	if (!name)
		return -bte_nomem;
	id = name[0] != '/' && b->comp_dir ?
		bt_path_join(b->comp_dir, name) : strdup(name);
	if (fe->name[0] != '/' && b->h.version < 5 && fe->dir == 0 &&
	    b->comp_dir)
		path = bt_path_join(b->comp_dir, fe->name);
	else
		path = strdup(name);
	sub = id && path ? bt_lbuild_start(b, name, id, path) : -bte_nomem;
	if (!id || !path)
		free(id);
	free(name);
	free(path);
	if (sub < 0)
		return sub;
	fe->sub = sub;
	b->cur = sub;
	return 0;
}

/* buildsym's record_line.  */
static int bt_lbuild_record(struct bt_lbuild *b, int sub, int line,
			    uint64_t pc, int is_stmt)
{
	struct bt_lsub *s = &b->cl->subs[sub];

	if (line == 0) {
		int have_last = 0, last_line = 0;

		/* An end marker drops the rows at its address.  */
		while (s->n) {
			have_last = 1;
			last_line = s->v[s->n - 1].line;
			if (s->v[s->n - 1].pc != pc)
				break;
			s->n -= 1;
		}
		if (!have_last || last_line == 0)
			return 0;
	}
	if (PS_ARRAY_RESERVE(s->v, b->caps[sub], s->n + 1))
		return -bte_nomem;
	s->v[s->n].pc = pc;
	s->v[s->n].line = line;
	s->v[s->n].is_stmt = (uint32_t) is_stmt;
	s->v[s->n].seq = b->seq++;
	s->n += 1;
	return 0;
}

/* GDB's lnp_state_machine, one per sequence.  */
struct bt_lsm {
	uint64_t address, last_address;
	uint64_t file;
	unsigned int op_index, line, discriminator, last_line;
	int is_stmt, last_sub, stmt_at_address, recording, nonzero_disc;
};

static int bt_lsm_record(struct bt_lbuild *b, struct bt_lsm *m,
			 bool end_sequence)
{
	struct bt_lfile *fe = bt_lhdr_file(&b->h, m->file);
	int errcode = 0;

	if (fe && (m->op_index == 0 || end_sequence)) {
		bool file_changed = m->last_sub != b->cur;
		bool ignore = (file_changed && !end_sequence &&
			       m->last_address == m->address &&
			       !m->is_stmt && m->stmt_at_address) ||
			(!end_sequence && m->line == 0);

		/* dwarf_finish_line: an end marker in the file left.  */
		if (((file_changed && !ignore) || end_sequence) &&
		    m->last_sub >= 0 && m->recording)
			errcode = bt_lbuild_record(b, m->last_sub, 0,
						   m->address, 1);
		if (!end_sequence && !ignore) {
			/* dwarf_record_line_p: a line repeated in the same
			   file is dropped once it had a discriminator.  */
			if (errcode == 0 && m->recording &&
			    (b->cur != m->last_sub ||
			     m->line != m->last_line || !m->nonzero_disc))
				errcode = bt_lbuild_record(b, b->cur,
							   (int) m->line,
							   m->address,
							   m->is_stmt);
			m->last_sub = b->cur;
			m->last_line = m->line;
		}
	}
	if (m->last_address != m->address) {
		m->stmt_at_address = 0;
		m->last_address = m->address;
	}
	m->stmt_at_address |= m->is_stmt;
	return errcode;
}

static void bt_lsm_advance_line(struct bt_lsm *m, int64_t delta)
{
	m->line += (unsigned int) delta;
	if (delta != 0)
		m->nonzero_disc = m->discriminator != 0;
}

static void bt_lsm_advance_ops(struct bt_lbuild *b, struct bt_lsm *m,
			       uint64_t adjust)
{
	uint64_t ops = m->op_index + adjust;

	m->address += (ops / b->h.max_ops) * b->h.min_insn;
	m->op_index = (unsigned int) (ops % b->h.max_ops);
}

/* The extended opcode at R (after its 0 byte); -1 for a table GDB
   stops reading.  */
static int bt_lsm_extended(struct bt_lbuild *b, struct bt_lsm *m,
			   struct bt_rd *r, bool *end_sequence)
{
	uint64_t len = bt_rd_uleb(r);
	const uint8_t *end;
	unsigned int op;

	if (r->bad || len > (uint64_t) (r->end - r->p))
		return -1;
	end = r->p + len;
	op = (unsigned int) bt_rd_n(r, 1);
	if (op >= DW_LNE_lo_user) {
		r->p = end;
		return 0;
	}
	switch (op) {
	case DW_LNE_end_sequence:
		m->recording = 1;
		*end_sequence = true;
		break;
	case DW_LNE_set_address: {
		uint64_t a = bt_rd_n(r, b->h.addr_size);

		/* A function the linker dropped: 0 or -1.  */
		if (a == 0 || a == UINT64_MAX ||
		    (b->h.addr_size == 4 && a == 0xffffffff))
			m->recording = 0;
		m->op_index = 0;
		m->address = a;
		break;
	}
	case DW_LNE_define_file: {
		const char *name = bt_rd_str(r);
		uint64_t dir = bt_rd_uleb(r);

		(void) bt_rd_uleb(r);
		(void) bt_rd_uleb(r);
		if (name && bt_lhdr_add_file(&b->h, name, dir) < 0)
			return -bte_nomem;
		break;
	}
	case DW_LNE_set_discriminator:
		m->discriminator = (unsigned int) bt_rd_uleb(r);
		m->nonzero_disc |= m->discriminator != 0;
		break;
	default:
		return -1;
	}
	return r->p == end && !r->bad ? 0 : -1;
}

/* One standard or special opcode OP.  */
static int bt_lsm_op(struct bt_lbuild *b, struct bt_lsm *m, struct bt_rd *r,
		     unsigned int op, bool *end_sequence)
{
	const struct bt_lhdr *h = &b->h;
	int errcode = 0;

	if (op >= h->opcode_base) {
		unsigned int adj = op - h->opcode_base;

		bt_lsm_advance_ops(b, m, adj / h->line_range);
		bt_lsm_advance_line(m, h->line_base +
				    (int) (adj % h->line_range));
		errcode = bt_lsm_record(b, m, false);
		m->discriminator = 0;
		return errcode;
	}
	switch (op) {
	case 0:
		return bt_lsm_extended(b, m, r, end_sequence);
	case DW_LNS_copy:
		errcode = bt_lsm_record(b, m, false);
		m->discriminator = 0;
		break;
	case DW_LNS_advance_pc:
		bt_lsm_advance_ops(b, m, bt_rd_uleb(r));
		break;
	case DW_LNS_advance_line:
		bt_lsm_advance_line(m, bt_rd_sleb(r));
		break;
	case DW_LNS_set_file: {
		struct bt_lfile *fe;

		m->file = bt_rd_uleb(r);
		fe = bt_lhdr_file(&b->h, m->file);
		if (fe) {
			m->last_sub = b->cur;
			m->nonzero_disc = m->discriminator != 0;
			errcode = bt_lbuild_start_file(b, fe);
		}
		break;
	}
	case DW_LNS_set_column:
		(void) bt_rd_uleb(r);
		break;
	case DW_LNS_negate_stmt:
		m->is_stmt = !m->is_stmt;
		break;
	case DW_LNS_set_basic_block:
	case DW_LNS_set_prologue_end:
		break;
	case DW_LNS_const_add_pc:
		bt_lsm_advance_ops(b, m, (255 - h->opcode_base) /
				   h->line_range);
		break;
	case DW_LNS_fixed_advance_pc:
		m->address += bt_rd_n(r, 2);
		m->op_index = 0;
		break;
	default:
		for (unsigned int i = 0; i < h->std_len[op]; ++i)
			(void) bt_rd_uleb(r);
		break;
	}
	return errcode;
}

/* dwarf_decode_lines_1: every sequence of the program.  */
static int bt_lbuild_program(struct bt_lbuild *b)
{
	struct bt_rd r = { b->h.prog, b->h.prog_end, 0 };
	int errcode = 0;

	while (r.p < r.end && errcode >= 0) {
		struct bt_lsm m;
		struct bt_lfile *fe;
		bool end_sequence = false;

		memset(&m, 0, sizeof(m));
		m.file = 1;
		m.line = 1;
		m.is_stmt = b->h.default_is_stmt;
		m.last_sub = -1;
		m.recording = 1;
		fe = bt_lhdr_file(&b->h, 1);
		if (fe && (errcode = bt_lbuild_start_file(b, fe)) < 0)
			return errcode;
		while (r.p < r.end && !end_sequence && errcode == 0)
			errcode = bt_lsm_op(b, &m, &r,
					    (unsigned int) bt_rd_n(&r, 1),
					    &end_sequence);
		if (r.bad)
			errcode = -1;
		/* A mangled table: GDB keeps what it recorded so far.  */
		if (errcode == -1)
			return 0;
		if (errcode == 0)
			errcode = bt_lsm_record(b, &m, true);
	}
	return errcode < 0 ? errcode : 0;
}

static int bt_lent_cmp(const void *a, const void *c)
{
	const struct bt_lent *l = a, *r = c;

	if (l->pc != r->pc)
		return l->pc < r->pc ? -1 : 1;
	/* An end marker first at its address, else the order recorded.  */
	if ((l->line == 0) != (r->line == 0))
		return l->line == 0 ? -1 : 1;
	return l->seq < r->seq ? -1 : l->seq > r->seq;
}

static int bt_u64_cmp(const void *a, const void *c)
{
	uint64_t l = *(const uint64_t *) a, r = *(const uint64_t *) c;

	return l < r ? -1 : l > r;
}

/* find_pc_sect_line at every address a row starts at, the subfiles in
   GDB's order (the primary one first, then as their symtabs were made).  */
static int bt_lbuild_spans(struct bt_cu_lines *cl, const uint32_t *order,
			   size_t norder)
{
	size_t total = 0, n = 0, *pos;
	uint64_t *pcs;

	for (size_t i = 0; i < cl->nsubs; ++i)
		total += cl->subs[i].n;
	pcs = malloc((total ? total : 1) * sizeof(*pcs));
	pos = calloc(cl->nsubs ? cl->nsubs : 1, sizeof(*pos));
	cl->spans = malloc((total ? total : 1) * sizeof(*cl->spans));
	if (!pcs || !pos || !cl->spans) {
		free(pcs);
		free(pos);
		return -bte_nomem;
	}
	for (size_t i = 0; i < cl->nsubs; ++i)
		for (size_t k = 0; k < cl->subs[i].n; ++k)
			pcs[n++] = cl->subs[i].v[k].pc;
	qsort(pcs, n, sizeof(*pcs), bt_u64_cmp);

	for (size_t k = 0; k < n; ++k) {
		const struct bt_lent *best = NULL, *alt = NULL;
		uint64_t pc = pcs[k], best_end = 0;
		uint32_t best_sub = 0;
		struct bt_lspan *sp;

		if (k && pcs[k - 1] == pc)
			continue;
		for (size_t o = 0; o < norder; ++o) {
			const struct bt_lsub *s = &cl->subs[order[o]];
			const struct bt_lent *first = s->v, *item, *prev;

			if (!s->n)
				continue;
			if (first->pc > pc && (!alt || first->pc < alt->pc))
				alt = first;
			while (pos[order[o]] < s->n &&
			       s->v[pos[order[o]]].pc <= pc)
				pos[order[o]] += 1;
			item = s->v + pos[order[o]];
			prev = item != first ? item - 1 : NULL;
			if (prev && prev->line && (!best || prev->pc > best->pc)) {
				best = prev;
				best_sub = order[o];
				if (!best->is_stmt) {
					const struct bt_lent *t = best;

					while (t > first && t[-1].pc == t->pc &&
					       t[-1].line != 0 && !t->is_stmt)
						--t;
					if (t->is_stmt)
						best = t;
				}
				if (best_end <= best->pc)
					best_end = 0;
			}
			if (best && item < s->v + s->n && item->pc > best->pc &&
			    (best_end == 0 || best_end > item->pc))
				best_end = item->pc;
		}
		sp = &cl->spans[cl->nspans++];
		sp->pc = pc;
		sp->line = best ? best->line : 0;
		sp->sub = best_sub;
		sp->row = best ? best->pc : 0;
		if (best_end && (!alt || best_end < alt->pc))
			sp->end = best_end;
		else
			sp->end = alt ? alt->pc : 0;
	}
	free(pcs);
	free(pos);
	return 0;
}

/* end_compunit_symtab: a main file without rows or file entry takes
   the one other subfile of its base name; sort each table; the filetab
   order.  */
static int bt_lbuild_finish(struct bt_lbuild *b, int main_has_entry)
{
	struct bt_cu_lines *cl = b->cl;
	uint32_t *order, next = 1;
	size_t norder = 0;
	int errcode;

	if (!main_has_entry && !cl->subs[0].n) {
		const char *base = strrchr(cl->subs[0].name, '/');
		int alias = -1, matches = 0;

		base = base ? base + 1 : cl->subs[0].name;
		for (size_t i = 1; i < cl->nsubs; ++i) {
			const char *s = strrchr(cl->subs[i].name, '/');

			if (strcmp(s ? s + 1 : cl->subs[i].name, base) == 0) {
				matches += 1;
				alias = (int) i;
			}
		}
		if (matches == 1)
			cl->primary = (uint32_t) alias;
	}
	/* Symtabs in file-entry order, the primary moved to the head.  */
	for (size_t i = 0; i < b->h.nfiles; ++i) {
		struct bt_lsub *s = &cl->subs[b->h.files[i].sub];

		if (s->order == UINT32_MAX)
			s->order = next++;
	}
	cl->subs[cl->primary].order = 0;
	order = malloc((cl->nsubs ? cl->nsubs : 1) * sizeof(*order));
	if (!order)
		return -bte_nomem;
	for (uint32_t want = 0; want < next; ++want)
		for (size_t i = 0; i < cl->nsubs; ++i)
			if (cl->subs[i].order == want &&
			    (i != 0 || cl->primary == 0 || main_has_entry))
				order[norder++] = (uint32_t) i;
	for (size_t i = 0; i < cl->nsubs; ++i)
		if (cl->subs[i].n)
			qsort(cl->subs[i].v, cl->subs[i].n,
			      sizeof(*cl->subs[i].v), bt_lent_cmp);
	errcode = bt_lbuild_spans(cl, order, norder);
	free(order);
	return errcode;
}

static void bt_cu_lines_free(struct bt_cu_lines *cl)
{
	if (!cl)
		return;
	for (size_t i = 0; i < cl->nsubs; ++i)
		free(cl->subs[i].v);
	free(cl->subs);
	free(cl->spans);
	free(cl);
}

/* Read the line tables of CU.  */
static int bt_cu_lines_build(struct bt_symtab *st, Dwarf_Die *cu,
			     struct bt_cu_lines **out)
{
	struct bt_lbuild b;
	Dwarf_Attribute attr;
	Dwarf_Word stmt_list;
	const char *name = dwarf_diename(cu);
	char *id;
	int errcode = 0, main_has_entry = 0;
	uint8_t addr_size = 8, offset_size;
	Dwarf_Die cu_die;

	memset(&b, 0, sizeof(b));
	b.st = st;
	b.cl = calloc(1, sizeof(*b.cl));
	if (!b.cl)
		return -bte_nomem;
	b.comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	/* The main subfile, named after the CU (buildsym's constructor).  */
	if (!name)
		name = "";
	id = name[0] != '/' && b.comp_dir ? bt_path_join(b.comp_dir, name)
		: strdup(name);
	if (!id) {
		free(b.cl);
		return -bte_nomem;
	}
	errcode = bt_lbuild_new_sub(&b, name, id, id);
	if (errcode >= 0 &&
	    dwarf_formudata(dwarf_attr(cu, DW_AT_stmt_list, &attr),
			    &stmt_list) == 0 &&
	    dwarf_diecu(cu, &cu_die, &addr_size, &offset_size) != NULL &&
	    bt_lhdr_read(&b.h, &st->line_secs, stmt_list, addr_size) == 0) {
		errcode = bt_lbuild_program(&b);
		/* dwarf_decode_lines: a subfile for every file entry.  */
		for (size_t i = 0; errcode >= 0 && i < b.h.nfiles; ++i) {
			errcode = bt_lbuild_start_file(&b, &b.h.files[i]);
			if (errcode >= 0 && b.h.files[i].sub == 0)
				main_has_entry = 1;
		}
	}
	if (errcode >= 0)
		errcode = bt_lbuild_finish(&b, main_has_entry);
	for (size_t i = 0; i < b.cl->nsubs; ++i)
		free(b.ids[i]);
	free(b.ids);
	free(b.caps);
	bt_lhdr_fini(&b.h);
	if (errcode < 0) {
		bt_cu_lines_free(b.cl);
		return errcode;
	}
	*out = b.cl;
	return 0;
}

static const Elf_Data *bt_dsec(Elf *elf, size_t shstrndx, const char *want)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name;

		if (!sh || sh->sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && strcmp(name, want) == 0)
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

void bt_symtab_lines_open(struct bt_symtab *st)
{
	Elf *elf = st->debug_elf ? st->debug_elf : st->elf;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return;
	st->line_secs.line = bt_dsec(elf, shstrndx, ".debug_line");
	st->line_secs.line_str = bt_dsec(elf, shstrndx, ".debug_line_str");
	st->line_secs.str = bt_dsec(elf, shstrndx, ".debug_str");
}

static const struct bt_lspan *bt_cu_lines_find(const struct bt_cu_lines *cl,
					       uint64_t addr, size_t *k)
{
	size_t lo = 0, hi = cl->nspans;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cl->spans[mid].pc <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*k = lo;
	return lo ? &cl->spans[lo - 1] : NULL;
}

const struct bt_lspan *bt_symtab_line_span(struct bt_symtab *st,
					   uint64_t addr,
					   const struct bt_cu_lines **lines)
{
	uint64_t lo, hi;

	return bt_symtab_line_span_extent(st, addr, lines, &lo, &hi);
}

const struct bt_lspan *bt_symtab_line_span_extent(
	struct bt_symtab *st, uint64_t addr, const struct bt_cu_lines **lines,
	uint64_t *lo, uint64_t *hi)
{
	const struct bt_lspan *sp;
	struct bt_cu_lines **slot;
	Dwarf_Die cu;
	size_t k;
	long i;

	*lo = *hi = 0;
	/* Instructions come in runs: most lookups are the last one's.  */
	if (st->last_lines && addr >= st->last_lo && addr < st->last_hi) {
		*lines = st->last_lines;
		*lo = st->last_lo;
		*hi = st->last_hi;
		return st->last_span->line ? st->last_span : NULL;
	}
	if (bt_symtab_dwarf_open(st) < 0 || !st->dwarf ||
	    !dwarf_addrdie(st->dwarf, addr, &cu))
		return NULL;
	i = bt_cus_index_of(&st->cus, dwarf_dieoffset(&cu));
	if (i < 0)
		return NULL;
	slot = &st->cus.v[i].lines;
	if (!*slot && bt_cu_lines_build(st, &cu, slot) < 0)
		return NULL;
	sp = bt_cu_lines_find(*slot, addr, &k);
	if (!sp)
		return NULL;
	*lines = *slot;
	/* Between two rows of one CU the answer holds, within the CU's
	   range: another CU's code may lie between two of its rows.  */
	if (k < (*slot)->nspans &&
	    bt_cus_range_of(&st->cus, addr, (uint32_t) i, lo, hi) == 0) {
		st->last_lines = *slot;
		st->last_span = sp;
		st->last_lo = sp->pc > *lo ? sp->pc : *lo;
		st->last_hi = (*slot)->spans[k].pc < *hi ?
			(*slot)->spans[k].pc : *hi;
		*lo = st->last_lo;
		*hi = st->last_hi;
	} else
		*lo = *hi = 0;
	return sp->line ? sp : NULL;
}

void bt_cu_lines_release(struct bt_cu_lines *cl)
{
	bt_cu_lines_free(cl);
}
