/* common/ps_array.h: the one way the stub grows an array.

   A growing array is a pointer, a count its owner keeps and a capacity.
   It grows by doubling (from 16 items), so that appending N items costs
   O(N) copies; each owner keeps only its own count.  */
#ifndef PS_ARRAY_H
#define PS_ARRAY_H

#include <stddef.h>

/* Make room for NEED items of SIZE bytes in the array whose pointer is
   at ARRAY (a T **, passed as void *) and whose capacity is *CAP items.
   0, or -pse_nomem with the array and *CAP unchanged.  */
int ps_array_reserve(void *array, size_t *cap, size_t need, size_t size);

/* ps_array_reserve on an array named by its pointer lvalue ARR.  */
#define PS_ARRAY_RESERVE(arr, cap, need) \
	ps_array_reserve(&(arr), &(cap), (need), sizeof(*(arr)))

#endif
