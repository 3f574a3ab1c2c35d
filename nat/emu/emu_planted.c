#include "nat/emu/emu_planted.h"
#include "common/ps_array.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

void emu_planted_init(struct emu_planted *set)
{
	memset(set, 0, sizeof(*set));
}

void emu_planted_fini(struct emu_planted *set)
{
	free(set->addrs);
	memset(set, 0, sizeof(*set));
}

/* The index of the first address not below ADDR.  */
static size_t emu_planted_lower(const struct emu_planted *set, uint64_t addr)
{
	size_t lo = 0, hi = set->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set->addrs[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int emu_planted_add(struct emu_planted *set, uint64_t addr)
{
	size_t at = emu_planted_lower(set, addr);

	if (at < set->count && set->addrs[at] == addr)
		return 0;
	if (PS_ARRAY_RESERVE(set->addrs, set->cap, set->count + 1))
		return -pse_nomem;
	memmove(&set->addrs[at + 1], &set->addrs[at],
		(set->count - at) * sizeof(*set->addrs));
	set->addrs[at] = addr;
	set->count++;
	return 0;
}

bool emu_planted_has(const struct emu_planted *set, uint64_t addr)
{
	size_t at = emu_planted_lower(set, addr);

	return at < set->count && set->addrs[at] == addr;
}

void emu_planted_clear(struct emu_planted *set)
{
	set->count = 0;
}
