/* The escape table of wide values: open addressing, linear probing.
   Entries are never removed; a field that becomes narrow again simply
   stops looking here.  */
#include "btrace/bt_wide.h"
#include "btrace/ptbtrace.h"

#include <stdlib.h>

void bt_wide_init(struct bt_wide *wide)
{
	wide->keys = NULL;
	wide->values = NULL;
	wide->size = 0;
	wide->count = 0;
}

void bt_wide_fini(struct bt_wide *wide)
{
	free(wide->keys);
	free(wide->values);
	bt_wide_init(wide);
}

static size_t bt_wide_slot(uint64_t key, size_t size)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;

	return (size_t) (h >> 32) & (size - 1);
}

/* The slot of KEY, or the empty slot where it would go.  */
static size_t bt_wide_find(const struct bt_wide *wide, uint64_t key)
{
	size_t at = bt_wide_slot(key, wide->size);

	while (wide->keys[at] && wide->keys[at] != key)
		at = (at + 1) & (wide->size - 1);
	return at;
}

static int bt_wide_grow(struct bt_wide *wide)
{
	struct bt_wide grown;

	grown.size = wide->size ? 2 * wide->size : 64;
	grown.count = wide->count;
	grown.keys = calloc(grown.size, sizeof(*grown.keys));
	grown.values = malloc(grown.size * sizeof(*grown.values));
	if (!grown.keys || !grown.values) {
		free(grown.keys);
		free(grown.values);
		return -bte_nomem;
	}
	for (size_t i = 0; i < wide->size; ++i) {
		size_t at;

		if (!wide->keys[i])
			continue;
		at = bt_wide_find(&grown, wide->keys[i]);
		grown.keys[at] = wide->keys[i];
		grown.values[at] = wide->values[i];
	}
	bt_wide_fini(wide);
	*wide = grown;
	return 0;
}

static uint64_t bt_wide_key(unsigned int field, uint32_t index)
{
	return (uint64_t) (field & 0xff) << 32 | index;
}

int bt_wide_set(struct bt_wide *wide, unsigned int field, uint32_t index,
		uint32_t value)
{
	uint64_t key = bt_wide_key(field, index);
	size_t at;

	if (!(field & 0xff))
		return -bte_invalid;
	/* At most half full, so probes stay short.  */
	if (2 * (wide->count + 1) > wide->size) {
		int errcode = bt_wide_grow(wide);

		if (errcode < 0)
			return errcode;
	}
	at = bt_wide_find(wide, key);
	if (!wide->keys[at]) {
		wide->keys[at] = key;
		wide->count += 1;
	}
	wide->values[at] = value;
	return 0;
}

uint32_t bt_wide_get(const struct bt_wide *wide, unsigned int field,
		     uint32_t index)
{
	size_t at;

	if (!wide->size)
		return 0;
	at = bt_wide_find(wide, bt_wide_key(field, index));
	return wide->keys[at] ? wide->values[at] : 0;
}

size_t bt_wide_memory(const struct bt_wide *wide)
{
	return wide->size * (sizeof(*wide->keys) + sizeof(*wide->values));
}
