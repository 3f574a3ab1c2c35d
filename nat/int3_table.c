#include "nat/int3_table.h"
#include "common/ps_array.h"
#include "nat/mem.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t int3_byte = 0xcc;

void int3_table_init(struct int3_table *table)
{
	table->sites = NULL;
	table->count = 0;
	table->cap = 0;
}

void int3_table_fini(struct int3_table *table)
{
	free(table->sites);
	int3_table_init(table);
}

void int3_table_clear(struct int3_table *table)
{
	table->count = 0;
}

int int3_table_copy(struct int3_table *to, const struct int3_table *from)
{
	size_t size = from->count * sizeof(*from->sites);

	if (!from->count)
		return 0;
	to->sites = malloc(size);
	if (!to->sites)
		return -pse_nomem;
	memcpy(to->sites, from->sites, size);
	to->count = to->cap = from->count;
	return 0;
}

/* The index of the first site at or above ADDR.  */
static size_t int3_lower_bound(const struct int3_table *table, uint64_t addr)
{
	size_t lo = 0, hi = table->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table->sites[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct int3_site *int3_lookup(const struct int3_table *table,
				    uint64_t addr)
{
	size_t i = int3_lower_bound(table, addr);

	if (i < table->count && table->sites[i].addr == addr)
		return &table->sites[i];
	return NULL;
}

int int3_insert(struct int3_table *table, struct nat_mem *mem, uint64_t addr,
		unsigned owner)
{
	size_t i = int3_lower_bound(table, addr);
	struct int3_site site;
	long n;
	int err;

	if (i < table->count && table->sites[i].addr == addr) {
		uint8_t now;

		/* The code under a site can be replaced behind our back (a
		   library unloaded, another mapped at the same address): the
		   int3 is gone, and the byte there is the new original.  */
		if (nat_mem_read(mem, addr, &now, 1) == 1 && now != int3_byte) {
			err = nat_mem_write(mem, addr, &int3_byte, 1);
			if (err < 0)
				return err;
			table->sites[i].orig = now;
		}
		table->sites[i].owners |= owner;
		return 0;
	}

	if (PS_ARRAY_RESERVE(table->sites, table->cap, table->count + 1))
		return -pse_nomem;

	n = nat_mem_read(mem, addr, &site.orig, 1);
	if (n != 1)
		return -pse_fault;
	err = nat_mem_write(mem, addr, &int3_byte, 1);
	if (err < 0)
		return err;

	site.addr = addr;
	site.owners = owner;
	memmove(&table->sites[i + 1], &table->sites[i],
		(table->count - i) * sizeof(site));
	table->sites[i] = site;
	table->count++;
	return 0;
}

static int int3_drop(struct int3_table *table, struct nat_mem *mem, size_t i)
{
	int err = nat_mem_write(mem, table->sites[i].addr,
				&table->sites[i].orig, 1);

	memmove(&table->sites[i], &table->sites[i + 1],
		(table->count - i - 1) * sizeof(table->sites[0]));
	table->count--;
	return err;
}

int int3_remove(struct int3_table *table, struct nat_mem *mem, uint64_t addr,
		unsigned owner)
{
	size_t i = int3_lower_bound(table, addr);
	struct int3_site *site;

	if (i >= table->count || table->sites[i].addr != addr)
		return -pse_notfound;
	site = &table->sites[i];
	if (!(site->owners & owner))
		return -pse_notfound;
	site->owners &= ~owner;
	return site->owners ? 0 : int3_drop(table, mem, i);
}

int int3_remove_all(struct int3_table *table, struct nat_mem *mem,
		    unsigned owner)
{
	int result = 0;
	size_t i = 0;

	while (i < table->count) {
		struct int3_site *site = &table->sites[i];

		site->owners &= ~owner;
		if (site->owners) {
			i++;
			continue;
		}
		int err = int3_drop(table, mem, i);
		if (err < 0)
			result = err;
	}
	return result;
}

void int3_table_forget(struct int3_table *table, unsigned owner)
{
	size_t kept = 0;

	for (size_t i = 0; i < table->count; i++) {
		table->sites[i].owners &= ~owner;
		if (table->sites[i].owners)
			table->sites[kept++] = table->sites[i];
	}
	table->count = kept;
}

void int3_shadow(const struct int3_table *table, uint64_t addr, void *buf,
		 size_t len)
{
	uint8_t *bytes = buf;

	for (size_t i = int3_lower_bound(table, addr);
	     i < table->count && table->sites[i].addr - addr < len; i++)
		bytes[table->sites[i].addr - addr] = table->sites[i].orig;
}

int int3_write_through(struct int3_table *table, struct nat_mem *mem,
		       uint64_t addr, const void *buf, size_t len)
{
	size_t first = int3_lower_bound(table, addr), i;
	uint8_t stack[256], *copy = stack;
	int err;

	if (first >= table->count || table->sites[first].addr - addr >= len)
		return nat_mem_write(mem, addr, buf, len);

	if (len > sizeof(stack)) {
		copy = malloc(len);
		if (!copy)
			return -pse_nomem;
	}
	memcpy(copy, buf, len);
	for (i = first; i < table->count && table->sites[i].addr - addr < len;
	     i++) {
		table->sites[i].orig = copy[table->sites[i].addr - addr];
		copy[table->sites[i].addr - addr] = int3_byte;
	}
	err = nat_mem_write(mem, addr, copy, len);
	if (copy != stack)
		free(copy);
	return err;
}
