/* Breakpoint conditions by address (see agent_cond.h).  */
#include "server/agent_cond.h"
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

void ax_conds_reset(struct ax_cond_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		ax_free_exprs(list->entries[i].exprs, list->entries[i].count);
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
	ax_free_exprs(e->exprs, e->count);
	/* Order does not matter: move the last entry into the hole.  */
	*e = list->entries[--list->count];
}

static int ax_conds_grow(struct ax_cond_list *list)
{
	size_t cap = list->cap ? 2 * list->cap : 8;
	struct ax_cond_entry *grown;

	grown = realloc(list->entries, cap * sizeof(*grown));
	if (!grown)
		return -pse_nomem;
	list->entries = grown;
	list->cap = cap;
	return 0;
}

int ax_conds_set(struct ax_cond_list *list, uint64_t addr,
		 struct ax_expr **exprs, size_t count)
{
	struct ax_expr **copy;
	struct ax_cond_entry *e;
	int err = -pse_invalid;

	if (count && !exprs)
		return -pse_invalid;
	if (!list)
		goto drop;
	if (!count) {
		ax_conds_clear(list, addr);
		return 0;
	}
	err = -pse_nomem;
	e = ax_conds_find(list, addr);
	if (!e && list->count == list->cap && ax_conds_grow(list) < 0)
		goto drop;
	copy = malloc(count * sizeof(*copy));
	if (!copy)
		goto drop;
	memcpy(copy, exprs, count * sizeof(*copy));
	if (e) {
		ax_free_exprs(e->exprs, e->count);
	} else {
		e = &list->entries[list->count++];
		e->addr = addr;
	}
	e->exprs = copy;
	e->count = count;
	return 0;

drop:
	for (size_t i = 0; i < count; i++)
		ax_free(exprs[i]);
	return err;
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

	if (!e)
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

int ax_conds_parse_z(struct ax_cond_list *list, uint64_t addr,
		     const char *text, const char *end)
{
	struct ax_expr **exprs = NULL;
	size_t count = 0, cap = 0;
	const char *p = text;
	int err;

	if (!list || !text || !end || end < text)
		return -pse_invalid;
	if (p < end && *p != ';')
		return -pse_invalid;

	while (p < end) {
		if (*p == ';') {
			p++;
			continue;
		}
		if (*p != 'X') {
			const char *semi = memchr(p, ';', (size_t) (end - p));

			p = semi ? semi : end;
			continue;
		}
		if (count == cap) {
			size_t ncap = cap ? 2 * cap : 4;
			struct ax_expr **grown;

			grown = realloc(exprs, ncap * sizeof(*grown));
			if (!grown) {
				err = -pse_nomem;
				goto fail;
			}
			exprs = grown;
			cap = ncap;
		}
		err = ax_parse(&p, end, &exprs[count]);
		if (err < 0)
			goto fail;
		count++;
	}
	err = ax_conds_set(list, addr, exprs, count);
	free(exprs);
	return err;

fail:
	ax_free_exprs(exprs, count);
	return err;
}
