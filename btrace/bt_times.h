/* The trace's time by instruction number: the TSC the decoder knew as
   it reached an instruction, kept only where it changed (a sorted list
   of first numbers), so that exports can turn instruction numbers into
   time without a timestamp per instruction.  Between two entries the
   earlier one holds: the trace gives no finer time.  */
#ifndef BT_TIMES_H
#define BT_TIMES_H

#include <stddef.h>
#include <stdint.h>

struct bt_times {
	uint32_t *number;         /* the first instruction number, rising */
	uint64_t *tsc;            /* the TSC from there on */
	size_t n, cap;
};

void bt_times_init(struct bt_times *t);
void bt_times_fini(struct bt_times *t);

/* From instruction NUMBER on (not below the last entry's), the time is
   TSC.  An unchanged TSC adds nothing; a second TSC at the same number
   replaces the first.  0, or -bte_nomem.  */
int bt_times_push(struct bt_times *t, uint32_t number, uint64_t tsc);

/* The TSC of instruction NUMBER: the last entry at or before it, else
   the first entry (instructions decoded before the first timing packet
   get the first time known).  0, or -bte_notfound when T is empty.  */
int bt_times_at(const struct bt_times *t, uint32_t number, uint64_t *tsc);

#endif
