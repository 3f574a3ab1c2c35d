/* Values too wide for a compact field, by field and index: the escape
   table behind struct bt_segs's 8- and 16-bit fields.  Few entries in
   practice (a link that spans more than 32767 segments, a level beyond
   16 bits), so a hash is cheaper than wider fields everywhere.  */
#ifndef BT_WIDE_H
#define BT_WIDE_H

#include <stddef.h>
#include <stdint.h>

struct bt_wide {
	uint64_t *keys;           /* field << 32 | index; 0 = empty */
	uint32_t *values;
	size_t size;              /* slots, a power of two or 0 */
	size_t count;
};

void bt_wide_init(struct bt_wide *wide);
void bt_wide_fini(struct bt_wide *wide);

/* Set FIELD (1..255) of INDEX to VALUE; -bte_nomem if it cannot grow.  */
int bt_wide_set(struct bt_wide *wide, unsigned int field, uint32_t index,
		uint32_t value);

/* The value of FIELD of INDEX, 0 if it was never set.  */
uint32_t bt_wide_get(const struct bt_wide *wide, unsigned int field,
		     uint32_t index);

/* The bytes it holds.  */
size_t bt_wide_memory(const struct bt_wide *wide);

#endif
