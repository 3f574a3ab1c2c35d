#include "common/trace.h"
#include "common/ps_array.h"
#include "common/ps_error.h"

#include <stdlib.h>

void trace_blocks_init(struct trace_blocks *blocks)
{
	blocks->block = NULL;
	blocks->len = 0;
	blocks->cap = 0;
}

void trace_blocks_fini(struct trace_blocks *blocks)
{
	free(blocks->block);
	trace_blocks_init(blocks);
}

void trace_blocks_reset(struct trace_blocks *blocks)
{
	blocks->len = 0;
}

int trace_blocks_reserve(struct trace_blocks *blocks, size_t n)
{
	if (n > SIZE_MAX - blocks->len)
		return -pse_nomem;
	return PS_ARRAY_RESERVE(blocks->block, blocks->cap, blocks->len + n)
		? -pse_nomem : 0;
}

int trace_blocks_push(struct trace_blocks *blocks, uint64_t begin,
		      uint64_t end)
{
	int err = trace_blocks_reserve(blocks, 1);

	if (err < 0)
		return err;
	blocks->block[blocks->len].begin = begin;
	blocks->block[blocks->len].end = end;
	blocks->len++;
	return 0;
}
