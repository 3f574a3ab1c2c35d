/* btrace/bt_array.h: the one way libptbtrace grows an array (the stub's
   common/ps_array.h is the same rule; the library includes nothing from
   the stub).

   An array is a pointer, a count its owner keeps and a capacity; it
   grows by doubling from 16 items, so appending N items costs O(N).  */
#ifndef BT_ARRAY_H
#define BT_ARRAY_H

#include <stddef.h>

/* Make room for NEED items of SIZE bytes in the array whose pointer is
   at ARRAY (a T **, passed as void *) and whose capacity is *CAP items.
   0, or -bte_nomem with the array and *CAP unchanged.  */
int bt_array_reserve(void *array, size_t *cap, size_t need, size_t size);

/* bt_array_reserve on an array named by its pointer lvalue ARR.  */
#define BT_ARRAY_RESERVE(arr, cap, need) \
	bt_array_reserve(&(arr), &(cap), (need), sizeof(*(arr)))

#endif
