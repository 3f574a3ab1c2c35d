/* Compact storage of function segments and blocks (bt_segs.h).  */
#define _GNU_SOURCE               /* mremap */
#include "btrace/bt_segs.h"
#include "btrace/ptbtrace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23    /* Linux 5.14; older kernels say EINVAL */
#endif

void bt_segs_init(struct bt_segs *segs)
{
	memset(segs, 0, sizeof(*segs));
	bt_wide_init(&segs->wide);
	/* The sanitized build keeps the heap, whose bounds it checks.  */
#if !defined(__SANITIZE_ADDRESS__)
	segs->reserve = bt_segs_reserve;
#endif
}

/* The arrays are mappings of their own, not heap blocks, each in a
   reservation of address space (bt_segs.reserve) it grows into without
   moving: realloc in the heap copied them, and moving a mapping (mremap)
   flushes the TLB of the decoder's core too.  */
static size_t bt_pages(size_t bytes)
{
	return (bytes + 4095) & ~(size_t) 4095;
}

/* The size of the mapping that holds COUNT elements of SIZE bytes.  */
static size_t bt_mapped(const struct bt_segs *s, size_t count, size_t size)
{
	size_t bytes = bt_pages(count * size);

	return bytes > s->reserve ? bytes : s->reserve;
}

/* Free an array of COUNT elements of SIZE bytes.  */
static void bt_array_free(const struct bt_segs *s, void *array, size_t count,
			  size_t size)
{
	if (!s->reserve)
		free(array);
	else if (array)
		munmap(array, bt_mapped(s, count, size));
}

/* Fault in [FROM, TO) of ARRAY (page-aligned) about to be filled, in one
   call: a page fault each was a third of a 10M-instruction decode's
   time in a VM.  A refusal is harmless.  */
static void bt_prefault(uint8_t *array, size_t from, size_t to)
{
	if (to > from)
		(void) madvise(array + from, to - from, MADV_POPULATE_WRITE);
}

/* Resize *ARRAY from OLD to COUNT elements of SIZE bytes.  On failure
   *ARRAY is left as it was (a larger array in a smaller capacity is
   harmless).  */
static int bt_resize(const struct bt_segs *s, void *array, size_t old,
		     size_t count, size_t size)
{
	void **p = array;
	size_t from = bt_mapped(s, old, size), to = bt_mapped(s, count, size);
	void *resized;

	if (!s->reserve) {
		resized = realloc(*p, count * size);
		if (!resized)
			return -bte_nomem;
		*p = resized;
		return 0;
	}
	if (!*p)
		resized = mmap(NULL, to, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);
	else if (from != to)
		resized = mremap(*p, from, to, MREMAP_MAYMOVE);
	else
		resized = *p;
	if (resized == MAP_FAILED)
		return -bte_nomem;
	*p = resized;
	if (count > old)
		bt_prefault(resized, bt_pages(old * size),
			    bt_pages(count * size));
	else
		/* Shrinking gives the memory back, not the addresses.  */
		(void) madvise((uint8_t *) resized + bt_pages(count * size),
			       to - bt_pages(count * size), MADV_DONTNEED);
	return 0;
}

void bt_segs_fini(struct bt_segs *segs)
{
	size_t cap = segs->cap, strides = (cap + bt_segs_stride - 1) /
		bt_segs_stride, reserve;

	bt_array_free(segs, segs->key, cap, sizeof(*segs->key));
	bt_array_free(segs, segs->dlevel, cap, sizeof(*segs->dlevel));
	bt_array_free(segs, segs->up, cap, sizeof(*segs->up));
	bt_array_free(segs, segs->prev, cap, sizeof(*segs->prev));
	bt_array_free(segs, segs->next, cap, sizeof(*segs->next));
	bt_array_free(segs, segs->nnum, cap, sizeof(*segs->nnum));
	bt_array_free(segs, segs->nblk, cap, sizeof(*segs->nblk));
	bt_array_free(segs, segs->bits, cap, sizeof(*segs->bits));
	bt_array_free(segs, segs->first_insn, strides, sizeof(*segs->first_insn));
	bt_array_free(segs, segs->first_block, strides,
		      sizeof(*segs->first_block));
	bt_array_free(segs, segs->first_level, strides,
		      sizeof(*segs->first_level));
	bt_array_free(segs, segs->block_ip, segs->blocks_cap,
		      sizeof(*segs->block_ip));
	bt_array_free(segs, segs->block_ninsn, segs->blocks_cap,
		      sizeof(*segs->block_ninsn));
	bt_array_free(segs, segs->gaps, segs->gaps_cap, sizeof(*segs->gaps));
	bt_array_free(segs, segs->gap_errcode, segs->gaps_cap,
		      sizeof(*segs->gap_errcode));
	bt_wide_fini(&segs->wide);
	reserve = segs->reserve;
	bt_segs_init(segs);
	segs->reserve = reserve;
}

static size_t bt_strides(size_t count)
{
	return (count + bt_segs_stride - 1) / bt_segs_stride;
}

/* Every per-segment array at CAP segments.  */
static int bt_segs_resize(struct bt_segs *s, size_t cap)
{
	if (bt_resize(s, &s->key, s->cap, cap, sizeof(*s->key)) < 0 ||
	    bt_resize(s, &s->dlevel, s->cap, cap, sizeof(*s->dlevel)) < 0 ||
	    bt_resize(s, &s->up, s->cap, cap, sizeof(*s->up)) < 0 ||
	    bt_resize(s, &s->prev, s->cap, cap, sizeof(*s->prev)) < 0 ||
	    bt_resize(s, &s->next, s->cap, cap, sizeof(*s->next)) < 0 ||
	    bt_resize(s, &s->nnum, s->cap, cap, sizeof(*s->nnum)) < 0 ||
	    bt_resize(s, &s->nblk, s->cap, cap, sizeof(*s->nblk)) < 0 ||
	    bt_resize(s, &s->bits, s->cap, cap, sizeof(*s->bits)) < 0 ||
	    bt_resize(s, &s->first_insn, bt_strides(s->cap),
		      bt_strides(cap), sizeof(*s->first_insn)) < 0 ||
	    bt_resize(s, &s->first_block, bt_strides(s->cap),
		      bt_strides(cap), sizeof(*s->first_block)) < 0 ||
	    bt_resize(s, &s->first_level, bt_strides(s->cap),
		      bt_strides(cap), sizeof(*s->first_level)) < 0)
		return -bte_nomem;
	s->cap = cap;
	return 0;
}

/* Store a count of the segment at INDEX in a byte, or escape it.  */
static void bt_segs_put8(struct bt_segs *s, uint8_t *field, unsigned int id,
			 uint32_t index, uint32_t value)
{
	if (value < BT_SEGS_WIDE8) {
		field[index] = (uint8_t) value;
		return;
	}
	field[index] = BT_SEGS_WIDE8;
	if (bt_wide_set(&s->wide, id, index, value) < 0)
		s->error = -bte_nomem;
}

int bt_segs_append(struct bt_segs *s)
{
	size_t i = s->count;
	uint32_t first_insn = 1, first_block = 0;

	if (s->count == s->cap) {
		int errcode = bt_segs_resize(s, s->cap ? 2 * s->cap : 256);

		if (errcode < 0)
			return errcode;
	}
	if (i) {
		/* The last segment is complete: its counts go to the bytes.  */
		first_insn = s->last_first_insn + s->last_nnum;
		first_block = s->last_first_block + s->last_nblk;
		bt_segs_put8(s, s->nnum, bt_sf_nnum, (uint32_t) i - 1,
			     s->last_nnum);
		bt_segs_put8(s, s->nblk, bt_sf_nblk, (uint32_t) i - 1,
			     s->last_nblk);
	}
	if (i % bt_segs_stride == 0) {
		s->first_insn[i / bt_segs_stride] = first_insn;
		s->first_block[i / bt_segs_stride] = first_block;
		s->first_level[i / bt_segs_stride] = s->last_level;
	}
	s->key[i] = 0;
	s->dlevel[i] = 0;
	s->up[i] = s->prev[i] = s->next[i] = 0;
	s->nnum[i] = s->nblk[i] = 0;
	s->bits[i] = 0;
	s->last_first_insn = first_insn;
	s->last_first_block = first_block;
	s->last_nnum = s->last_nblk = 0;
	s->count = i + 1;
	return 0;
}

/* Two arrays that share the capacity *CAP, A of ASIZE-byte elements and
   B of BSIZE, doubled (FIRST if empty).  */
static int bt_grow_pair(struct bt_segs *s, void *a, size_t asize, void *b,
			size_t bsize, size_t *cap, size_t first)
{
	size_t n = *cap ? 2 * *cap : first;

	if (bt_resize(s, a, *cap, n, asize) < 0 ||
	    bt_resize(s, b, *cap, n, bsize) < 0)
		return -bte_nomem;
	*cap = n;
	return 0;
}

/* The same two arrays cut to COUNT; see bt_segs_shrink.  */
static void bt_shrink_pair(struct bt_segs *s, void *a, size_t asize, void *b,
			   size_t bsize, size_t *cap, size_t count)
{
	if (!count || count >= *cap)
		return;
	(void) bt_resize(s, a, *cap, count, asize);
	(void) bt_resize(s, b, *cap, count, bsize);
	*cap = count;
}

int bt_segs_grow_blocks(struct bt_segs *s)
{
	return bt_grow_pair(s, &s->block_ip, sizeof(*s->block_ip),
			    &s->block_ninsn, sizeof(*s->block_ninsn),
			    &s->blocks_cap, 256);
}

int bt_segs_make_gap(struct bt_segs *s, int errcode)
{
	uint32_t number = (uint32_t) s->count;

	if (!number || s->last_nnum || bt_segs_is_gap(s, number))
		return -bte_invalid;
	if (s->ngaps == s->gaps_cap &&
	    bt_grow_pair(s, &s->gaps, sizeof(*s->gaps), &s->gap_errcode,
			 sizeof(*s->gap_errcode), &s->gaps_cap, 16) < 0)
		return -bte_nomem;
	s->gaps[s->ngaps] = number;
	s->gap_errcode[s->ngaps] = errcode;
	s->ngaps += 1;
	s->bits[number - 1] |= bt_segs_gap;
	s->last_nnum = 1;
	return 0;
}

int bt_segs_hi_index(struct bt_segs *s, uint32_t hi)
{
	for (uint32_t i = 0; i < s->nhis; ++i)
		if (s->his[i] == hi)
			return (int) i;
	if (s->nhis == bt_segs_nhis)
		return -1;
	s->his[s->nhis] = hi;
	return (int) s->nhis++;
}

uint32_t bt_segs_link_wide(const struct bt_segs *s, unsigned int field,
			   uint32_t number)
{
	return bt_wide_get(&s->wide, field, number - 1);
}

void bt_segs_set_link_wide(struct bt_segs *s, unsigned int field,
			   uint32_t number, uint32_t value)
{
	int16_t *links = field == bt_sf_up ? s->up
		: field == bt_sf_prev ? s->prev : s->next;

	links[number - 1] = BT_SEGS_WIDE16;
	if (bt_wide_set(&s->wide, field, number - 1, value) < 0)
		s->error = -bte_nomem;
}

/* The level difference of the segment at INDEX to its predecessor.  */
static int32_t bt_segs_dlevel(const struct bt_segs *s, uint32_t index)
{
	int8_t d = s->dlevel[index];

	if (d == BT_SEGS_WIDE8S)
		return (int32_t) bt_wide_get(&s->wide, bt_sf_level, index);
	return d;
}

static void bt_segs_put_dlevel(struct bt_segs *s, uint32_t index, int64_t d)
{
	if (d > INT8_MIN && d <= INT8_MAX) {
		s->dlevel[index] = (int8_t) d;
		return;
	}
	s->dlevel[index] = BT_SEGS_WIDE8S;
	if (bt_wide_set(&s->wide, bt_sf_level, index,
			(uint32_t) (int32_t) d) < 0)
		s->error = -bte_nomem;
}

int bt_segs_level_at(const struct bt_segs *s, uint32_t number)
{
	uint32_t i = number - 1, j = i - i % bt_segs_stride;
	int64_t level = s->first_level[j / bt_segs_stride];
	int32_t sum = 0;
	int wide = 0;

	/* Branch-free over the bytes; an escape is rare.  */
	for (uint32_t k = j + 1; k <= i; ++k) {
		sum += s->dlevel[k];
		wide |= s->dlevel[k] == BT_SEGS_WIDE8S;
	}
	if (!wide)
		return (int) (level + sum);
	while (++j <= i)
		level += bt_segs_dlevel(s, j);
	return (int) level;
}

int bt_segs_level_next(const struct bt_segs *s, uint32_t number, int prev)
{
	uint32_t i = number - 1;

	if (number == s->count)
		return s->last_level;
	if (i % bt_segs_stride == 0)
		return s->first_level[i / bt_segs_stride];
	return prev + bt_segs_dlevel(s, i);
}

void bt_segs_set_level_slow(struct bt_segs *s, uint32_t number, int level)
{
	uint32_t i = number - 1;

	if (number != s->count)
		return;
	if (i % bt_segs_stride == 0)
		s->first_level[i / bt_segs_stride] = level;
	else
		/* The predecessor's level, from the last one's own.  */
		bt_segs_put_dlevel(s, i, (int64_t) level - s->last_level +
				   bt_segs_dlevel(s, i));
	s->last_level = level;
}

void bt_segs_add_level(struct bt_segs *s, uint32_t number, int adjustment)
{
	uint32_t i = number - 1;

	if (!number || number > s->count || !adjustment)
		return;
	if (i % bt_segs_stride == 0)
		s->first_level[i / bt_segs_stride] += adjustment;
	else
		bt_segs_put_dlevel(s, i, (int64_t) bt_segs_dlevel(s, i) +
				   adjustment);
	for (size_t k = i / bt_segs_stride + 1; k < bt_strides(s->count); ++k)
		s->first_level[k] += adjustment;
	s->last_level += adjustment;
}

void bt_segs_set_key(struct bt_segs *s, uint32_t number, uint32_t key)
{
	if (key < UINT16_MAX) {
		s->key[number - 1] = (uint16_t) key;
		return;
	}
	s->key[number - 1] = UINT16_MAX;
	if (bt_wide_set(&s->wide, bt_sf_key, number - 1, key) < 0)
		s->error = -bte_nomem;
}

/* FIRST's entry for NUMBER's stride plus the byte counts FIELD (escaped
   under ID) of the segments before NUMBER in that stride.  */
static uint32_t bt_segs_first(const struct bt_segs *s, const uint32_t *first,
			      const uint8_t *field, unsigned int id,
			      uint32_t number)
{
	uint32_t i = number - 1, j = i - i % bt_segs_stride;
	uint32_t sum = first[j / bt_segs_stride];

	for (; j < i; ++j)
		sum += field[j] == BT_SEGS_WIDE8 ? bt_wide_get(&s->wide, id, j)
			: field[j];
	return sum;
}

uint32_t bt_segs_first_insn(const struct bt_segs *s, uint32_t number)
{
	return bt_segs_first(s, s->first_insn, s->nnum, bt_sf_nnum, number);
}

uint32_t bt_segs_first_block(const struct bt_segs *s, uint32_t number)
{
	return bt_segs_first(s, s->first_block, s->nblk, bt_sf_nblk, number);
}

int bt_segs_errcode(const struct bt_segs *s, uint32_t number)
{
	size_t lo = 0, hi = s->ngaps;

	if (!bt_segs_is_gap(s, number))
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->gaps[mid] < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->ngaps && s->gaps[lo] == number ? s->gap_errcode[lo]
		: 0;
}

/* Shrinking never fails for good: an array realloc could not shrink is
   merely larger than its capacity says.  */
void bt_segs_shrink(struct bt_segs *s)
{
	if (s->count && s->count < s->cap) {
		(void) bt_segs_resize(s, s->count);
		s->cap = s->count;
	}
	bt_shrink_pair(s, &s->block_ip, sizeof(*s->block_ip), &s->block_ninsn,
		       sizeof(*s->block_ninsn), &s->blocks_cap, s->nblocks);
	bt_shrink_pair(s, &s->gaps, sizeof(*s->gaps), &s->gap_errcode,
		       sizeof(*s->gap_errcode), &s->gaps_cap, s->ngaps);
}

size_t bt_segs_memory(const struct bt_segs *s)
{
	size_t per_seg = sizeof(*s->key) + sizeof(*s->dlevel) +
		sizeof(*s->up) + sizeof(*s->prev) + sizeof(*s->next) +
		sizeof(*s->nnum) + sizeof(*s->nblk) + sizeof(*s->bits);

	return s->cap * per_seg
		+ bt_strides(s->cap) * (sizeof(*s->first_insn) +
					sizeof(*s->first_block) +
					sizeof(*s->first_level))
		+ s->blocks_cap * (sizeof(*s->block_ip) +
				   sizeof(*s->block_ninsn))
		+ s->gaps_cap * (sizeof(*s->gaps) + sizeof(*s->gap_errcode))
		+ bt_wide_memory(&s->wide);
}
