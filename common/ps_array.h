/* common/ps_array.h: the one way ptstub and libptbtrace grow an array.

   A growing array is a pointer, a count its owner keeps and a capacity.
   It grows by doubling (from 16 items), so that appending N items costs
   O(N) copies; each owner keeps only its own count.

   Inline, in this header alone: the stub's archives and libptbtrace's
   position-independent objects both compile it, and libptbtrace (which
   may include this header of common/, and nothing else of the stub)
   links none of the stub's libraries.  */
#ifndef PS_ARRAY_H
#define PS_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Make room for NEED items of SIZE bytes in the array whose pointer is
   at ARRAY (a T **, passed as void *) and whose capacity is *CAP items.
   0, or -1 (out of memory) with the array and *CAP unchanged: each
   library says -pse_nomem or -bte_nomem itself.  */
static inline int ps_array_reserve(void *array, size_t *cap, size_t need,
				   size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *data, *grown;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return -1;
	/* The caller's pointer is a T *, read and written as bytes so that
	   no T ** is ever accessed as a void **.  */
	memcpy(&data, array, sizeof(data));
	grown = realloc(data, n * size);
	if (!grown)
		return -1;
	memcpy(array, &grown, sizeof(grown));
	*cap = n;
	return 0;
}

/* ps_array_reserve on an array named by its pointer lvalue ARR.  */
#define PS_ARRAY_RESERVE(arr, cap, need) \
	ps_array_reserve(&(arr), &(cap), (need), sizeof(*(arr)))

#endif
