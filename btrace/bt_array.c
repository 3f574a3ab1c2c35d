#include "btrace/bt_array.h"
#include "btrace/ptbtrace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int bt_array_reserve(void *array, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *data, *grown;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -bte_nomem;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		return -bte_nomem;
	/* The caller's pointer is a T *, read and written as bytes so that
	   no T ** is ever accessed as a void **.  */
	memcpy(&data, array, sizeof(data));
	grown = realloc(data, n * size);
	if (!grown)
		return -bte_nomem;
	memcpy(array, &grown, sizeof(grown));
	*cap = n;
	return 0;
}
