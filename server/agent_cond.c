/* Breakpoint conditions and commands by address (see agent_cond.h).  */
#include "server/agent_cond.h"
#include "common/ps_array.h"
#include "common/ps_error.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ax_cond_list_init(struct ax_cond_list *list)
{
	list->entries = NULL;
	list->count = 0;
	list->cap = 0;
}

static void ax_free_exprs(struct ax_expr **exprs, size_t count)
{
	for (size_t i = 0; i < count; i++)
		ax_free(exprs[i]);
	free(exprs);
}

static void ax_entry_free(struct ax_cond_entry *e)
{
	ax_free_exprs(e->exprs, e->count);
	ax_free_exprs(e->cmds, e->ncmds);
}

void ax_conds_reset(struct ax_cond_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		ax_entry_free(&list->entries[i]);
	list->count = 0;
}

void ax_cond_list_fini(struct ax_cond_list *list)
{
	ax_conds_reset(list);
	free(list->entries);
	ax_cond_list_init(list);
}

static struct ax_cond_entry *ax_conds_find(const struct ax_cond_list *list,
					   uint64_t addr)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->entries[i].addr == addr)
			return &list->entries[i];
	return NULL;
}

void ax_conds_clear(struct ax_cond_list *list, uint64_t addr)
{
	struct ax_cond_entry *e = ax_conds_find(list, addr);

	if (!e)
		return;
	ax_entry_free(e);
	/* Order does not matter: move the last entry into the hole.  */
	*e = list->entries[--list->count];
}

/* An entry with neither conditions nor commands is no entry.  */
static void ax_entry_drop_if_empty(struct ax_cond_list *list,
				   struct ax_cond_entry *e)
{
	if (!e->count && !e->ncmds)
		ax_conds_clear(list, e->addr);
}

/* Replace the conditions (CMDS 0) or the commands (CMDS 1) at ADDR.  */
static int ax_entry_set(struct ax_cond_list *list, uint64_t addr, int cmds,
			struct ax_expr **exprs, size_t count, int persist)
{
	struct ax_expr **copy = NULL;
	struct ax_cond_entry *e;
	int err = -pse_invalid;

	if (count && !exprs)
		return -pse_invalid;
	if (!list)
		goto drop;
	e = ax_conds_find(list, addr);
	if (!e && !count)
		return 0;
	err = -pse_nomem;
	if (!e && PS_ARRAY_RESERVE(list->entries, list->cap, list->count + 1))
		goto drop;
	if (count) {
		copy = malloc(count * sizeof(*copy));
		if (!copy)
			goto drop;
		memcpy(copy, exprs, count * sizeof(*copy));
	}
	if (!e) {
		e = &list->entries[list->count++];
		memset(e, 0, sizeof(*e));
		e->addr = addr;
	}
	if (cmds) {
		ax_free_exprs(e->cmds, e->ncmds);
		e->cmds = copy;
		e->ncmds = count;
		e->persist = persist;
	} else {
		ax_free_exprs(e->exprs, e->count);
		e->exprs = copy;
		e->count = count;
	}
	ax_entry_drop_if_empty(list, e);
	return 0;

drop:
	for (size_t i = 0; i < count; i++)
		ax_free(exprs[i]);
	return err;
}

int ax_conds_set(struct ax_cond_list *list, uint64_t addr,
		 struct ax_expr **exprs, size_t count)
{
	return ax_entry_set(list, addr, 0, exprs, count, 0);
}

int ax_cmds_set(struct ax_cond_list *list, uint64_t addr,
		struct ax_expr **cmds, size_t count, int persist)
{
	return ax_entry_set(list, addr, 1, cmds, count, persist);
}

size_t ax_cmds_count(const struct ax_cond_list *list, uint64_t addr)
{
	const struct ax_cond_entry *e = ax_conds_find(list, addr);

	return e ? e->ncmds : 0;
}

int ax_cmds_run(const struct ax_cond_list *list, uint64_t addr,
		const struct ax_context *ctx)
{
	const struct ax_cond_entry *e = ax_conds_find(list, addr);

	for (size_t i = 0; e && i < e->ncmds; i++) {
		int err = ax_eval(e->cmds[i], ctx, NULL);

		if (err < 0)
			return err;
	}
	return 0;
}

size_t ax_conds_count(const struct ax_cond_list *list, uint64_t addr)
{
	const struct ax_cond_entry *e = ax_conds_find(list, addr);

	return e ? e->count : 0;
}

int ax_conds_eval(const struct ax_cond_list *list, uint64_t addr,
		  const struct ax_context *ctx)
{
	const struct ax_cond_entry *e = ax_conds_find(list, addr);

	if (!e || !e->count)
		return 1;
	for (size_t i = 0; i < e->count; i++) {
		int64_t value = 0;

		/* An error is a stop too: GDB trusts the target's verdict and
		   would otherwise never show the user this breakpoint.  */
		if (ax_eval(e->exprs[i], ctx, &value) < 0 || value)
			return 1;
	}
	return 0;
}

/* A growing array of parsed expressions.  */
struct ax_expr_vec {
	struct ax_expr **v;
	size_t n, cap;
};

/* Parse one "X..." item at *P onto VEC.  */
static int ax_vec_parse(struct ax_expr_vec *vec, const char **p,
			const char *end)
{
	int err;

	if (PS_ARRAY_RESERVE(vec->v, vec->cap, vec->n + 1))
		return -pse_nomem;
	err = ax_parse(p, end, &vec->v[vec->n]);
	if (err < 0)
		return err;
	vec->n++;
	return 0;
}

int ax_conds_parse_z(struct ax_cond_list *list, uint64_t addr,
		     const char *text, const char *end)
{
	static const char cmds_tag[] = "cmds:";
	const size_t tag_len = sizeof(cmds_tag) - 1;
	struct ax_expr_vec conds = { 0 }, cmds = { 0 };
	const char *p = text;
	int persist = 0;
	int err = 0;

	if (!list || !text || !end || end < text)
		return -pse_invalid;
	if (p < end && *p != ';')
		return -pse_invalid;

	while (p < end && err == 0) {
		if (*p == ';') {
			p++;
		} else if (*p == 'X') {
			err = ax_vec_parse(&conds, &p, end);
		} else if ((size_t) (end - p) >= tag_len &&
			   !memcmp(p, cmds_tag, tag_len)) {
			/* "cmds:P," then the commands run together.  */
			p += tag_len;
			if (end - p < 2 || (p[0] != '0' && p[0] != '1') ||
			    p[1] != ',') {
				err = -pse_invalid;
				break;
			}
			persist = p[0] == '1';
			p += 2;
			while (p < end && *p == 'X' && err == 0)
				err = ax_vec_parse(&cmds, &p, end);
		} else {
			const char *semi = memchr(p, ';', (size_t) (end - p));

			p = semi ? semi : end;
		}
	}
	if (err < 0) {
		ax_free_exprs(conds.v, conds.n);
		ax_free_exprs(cmds.v, cmds.n);
		return err;
	}
	/* Both lists hand their expressions over, on failure too.  */
	err = ax_conds_set(list, addr, conds.v, conds.n);
	free(conds.v);
	if (err < 0) {
		ax_free_exprs(cmds.v, cmds.n);
		return err;
	}
	err = ax_cmds_set(list, addr, cmds.v, cmds.n, persist);
	free(cmds.v);
	return err;
}
