/* Function segments and their blocks in compact storage, a few bytes a
   segment: one array per field (no padding), links stored relative to
   the segment, counts in a byte, with the rare wide value in an escape
   table (bt_wide.h).  Segment numbers count from 1; 0 means "none".  */
#ifndef BT_SEGS_H
#define BT_SEGS_H

#include "btrace/bt_wide.h"
#include "btrace/ptbtrace.h"

#include <stddef.h>
#include <stdint.h>

/* Every bt_segs_stride-th segment keeps its first instruction number and
   first block in full; the others sum the byte counts since.  */
enum { bt_segs_stride = 16 };

/* The packing of struct bt_segs's bits.  */
enum {
	bt_segs_flags_mask = 0x3,  /* enum bt_function_flag */
	bt_segs_gap = 1 << 2,
	bt_segs_iclass_shift = 3,  /* enum bt_insn_class of the last insn */
	bt_segs_iclass_mask = 0x7,
	bt_segs_size_shift = 6,    /* its length, 0 if not known */
	bt_segs_size_mask = 0xf,
	bt_segs_hi_shift = 10,     /* index of its blocks' high half */
	bt_segs_hi_mask = 0x3f,
	bt_segs_nhis = bt_segs_hi_mask + 1
};

/* Fields whose wide values go to the escape table.  */
enum bt_segs_field {
	bt_sf_up = 1,
	bt_sf_prev,
	bt_sf_next,
	bt_sf_level,
	bt_sf_key,
	bt_sf_nnum,
	bt_sf_nblk
};

/* Escapes: the value is in the escape table.  */
#define BT_SEGS_WIDE16 INT16_MIN
#define BT_SEGS_WIDE8 UINT8_MAX
#define BT_SEGS_WIDE8S INT8_MIN

/* The address space each array takes at first (see bt_segs.c).  */
enum { bt_segs_reserve = 32 << 20 };

struct bt_segs {
	size_t count, cap;
	/* Each array a mapping of at least this size, 0: on the heap.  Set
	   before the first segment, if at all.  */
	size_t reserve;
	uint16_t *key;            /* index into the caller's key table */
	int8_t *dlevel;           /* level minus the previous segment's */
	int16_t *up, *prev, *next; /* linked number minus own number */
	uint8_t *nnum;            /* instruction numbers: ninsn, 1 for a gap */
	uint8_t *nblk;            /* blocks, markers included */
	/* The last segment's counts, which grow with every block, in full
	   (its nnum and nblk entries are not used).  */
	uint32_t last_nnum, last_nblk;
	uint16_t *bits;           /* the bt_segs_* packing above */
	uint32_t *first_insn;     /* per stride: the first instruction number */
	uint32_t *first_block;    /* and the first block */
	int32_t *first_level;     /* and the level */
	int last_level;           /* the last segment's level */
	uint32_t last_first_insn, last_first_block; /* the last segment's */

	/* Blocks of sequential instructions; only the last may branch.  The
	   high half of their address is the segment's (his[hi]) until a
	   marker block (no instructions) sets another.  */
	uint32_t *block_ip;       /* low half; a marker's: the new high half */
	uint8_t *block_ninsn;     /* at most 255, 0 for a marker */
	size_t nblocks, blocks_cap;
	uint32_t his[bt_segs_nhis];
	uint32_t nhis;

	/* Gap segments, in order, and their error codes.  */
	uint32_t *gaps;
	int32_t *gap_errcode;
	size_t ngaps, gaps_cap;

	struct bt_wide wide;
	int error;                /* -bte_nomem once a wide value was lost */
};

void bt_segs_init(struct bt_segs *segs);
void bt_segs_fini(struct bt_segs *segs);

/* Append a segment on its predecessor's level, every other field 0; its
   number is SEGS->count.  */
int bt_segs_append(struct bt_segs *segs);


/* Make the last segment a gap for ERRCODE.  */
int bt_segs_make_gap(struct bt_segs *segs, int errcode);

/* The index of HI in the table of high halves, added if there is room;
   -1 if it is full.  */
int bt_segs_hi_index(struct bt_segs *segs, uint32_t hi);

/* Release what growing reserved.  */
void bt_segs_shrink(struct bt_segs *segs);

/* The bytes all of it takes.  */
size_t bt_segs_memory(const struct bt_segs *segs);

/* Out-of-line halves of the accessors below.  */
uint32_t bt_segs_link_wide(const struct bt_segs *segs, unsigned int field,
			   uint32_t number);
int bt_segs_grow_blocks(struct bt_segs *segs);
void bt_segs_set_link_wide(struct bt_segs *segs, unsigned int field,
			   uint32_t number, uint32_t value);
int bt_segs_level_at(const struct bt_segs *segs, uint32_t number);

void bt_segs_set_level_slow(struct bt_segs *segs, uint32_t number,
			    int level);

/* Add ADJUSTMENT to the level of NUMBER and of every later segment.  */
void bt_segs_add_level(struct bt_segs *segs, uint32_t number, int adjustment);
void bt_segs_set_key(struct bt_segs *segs, uint32_t number, uint32_t key);
uint32_t bt_segs_first_insn(const struct bt_segs *segs, uint32_t number);
uint32_t bt_segs_first_block(const struct bt_segs *segs, uint32_t number);
int bt_segs_errcode(const struct bt_segs *segs, uint32_t number);

static inline uint32_t bt_segs_link(const struct bt_segs *segs,
				    const int16_t *field, unsigned int id,
				    uint32_t number)
{
	int16_t d = field[number - 1];

	if (d == BT_SEGS_WIDE16)
		return bt_segs_link_wide(segs, id, number);
	return d ? (uint32_t) ((int64_t) number + d) : 0;
}

/* Append a block of NINSN (1..255) instructions at IP_LO, or a marker
   (NINSN 0, IP_LO the new high half), to the last segment.  Inline: it
   runs for every block.  */
static inline int bt_segs_push_block(struct bt_segs *s, uint32_t ip_lo,
				     uint32_t ninsn)
{
	size_t i = s->nblocks;

	if (!s->count || ninsn > UINT8_MAX)
		return -bte_invalid;
	if (i == s->blocks_cap && bt_segs_grow_blocks(s) < 0)
		return -bte_nomem;
	s->block_ip[i] = ip_lo;
	s->block_ninsn[i] = (uint8_t) ninsn;
	s->nblocks = i + 1;
	s->last_nblk += 1;
	s->last_nnum += ninsn;
	return 0;
}

/* Set link FIELD (bt_sf_up, _prev, _next) of NUMBER to VALUE.  */
static inline void bt_segs_set_link(struct bt_segs *s, unsigned int field,
				    uint32_t number, uint32_t value)
{
	int16_t *links = field == bt_sf_up ? s->up
		: field == bt_sf_prev ? s->prev : s->next;
	int64_t d = (int64_t) value - number;

	if (!value)
		links[number - 1] = 0;
	else if (d != 0 && d > INT16_MIN && d <= INT16_MAX)
		links[number - 1] = (int16_t) d;
	else
		bt_segs_set_link_wide(s, field, number, value);
}

static inline uint32_t bt_segs_up(const struct bt_segs *s, uint32_t number)
{
	return bt_segs_link(s, s->up, bt_sf_up, number);
}

static inline uint32_t bt_segs_prev(const struct bt_segs *s, uint32_t number)
{
	return bt_segs_link(s, s->prev, bt_sf_prev, number);
}

static inline uint32_t bt_segs_next(const struct bt_segs *s, uint32_t number)
{
	return bt_segs_link(s, s->next, bt_sf_next, number);
}

static inline void bt_segs_set_up(struct bt_segs *s, uint32_t number,
				  uint32_t up)
{
	bt_segs_set_link(s, bt_sf_up, number, up);
}

static inline void bt_segs_set_prev(struct bt_segs *s, uint32_t number,
				    uint32_t prev)
{
	bt_segs_set_link(s, bt_sf_prev, number, prev);
}

static inline void bt_segs_set_next(struct bt_segs *s, uint32_t number,
				    uint32_t next)
{
	bt_segs_set_link(s, bt_sf_next, number, next);
}

/* Set the level of the last segment, NUMBER: inline for the common
   case, a small step from its predecessor's level.  */
static inline void bt_segs_set_level(struct bt_segs *s, uint32_t number,
				     int level)
{
	uint32_t i = number - 1;

	if (number == s->count && i % bt_segs_stride &&
	    s->dlevel[i] != BT_SEGS_WIDE8S) {
		int64_t d = (int64_t) level - s->last_level + s->dlevel[i];

		if (d > INT8_MIN && d <= INT8_MAX) {
			s->dlevel[i] = (int8_t) d;
			s->last_level = level;
			return;
		}
	}
	bt_segs_set_level_slow(s, number, level);
}

/* The level of segment NUMBER given PREV, that of NUMBER - 1: one step,
   for walks in order.  */
int bt_segs_level_next(const struct bt_segs *s, uint32_t number, int prev);

static inline int bt_segs_level(const struct bt_segs *s, uint32_t number)
{
	if (number == s->count)
		return s->last_level;
	return bt_segs_level_at(s, number);
}

static inline uint32_t bt_segs_key(const struct bt_segs *s, uint32_t number)
{
	uint16_t key = s->key[number - 1];

	if (key == UINT16_MAX)
		return bt_wide_get(&s->wide, bt_sf_key, number - 1);
	return key;
}

/* Instruction numbers the segment takes: its instructions, 1 for a gap
   (GDB numbers a gap as one instruction).  */
static inline uint32_t bt_segs_nnum(const struct bt_segs *s, uint32_t number)
{
	uint8_t n = s->nnum[number - 1];

	if (number == s->count)
		return s->last_nnum;
	return n == BT_SEGS_WIDE8 ? bt_wide_get(&s->wide, bt_sf_nnum,
						number - 1) : n;
}

static inline uint32_t bt_segs_nblocks(const struct bt_segs *s,
				       uint32_t number)
{
	uint8_t n = s->nblk[number - 1];

	if (number == s->count)
		return s->last_nblk;
	return n == BT_SEGS_WIDE8 ? bt_wide_get(&s->wide, bt_sf_nblk,
						number - 1) : n;
}

static inline unsigned int bt_segs_bits(const struct bt_segs *s,
					uint32_t number, unsigned int shift,
					unsigned int mask)
{
	return (s->bits[number - 1] >> shift) & mask;
}

static inline void bt_segs_set_bits(struct bt_segs *s, uint32_t number,
				    unsigned int shift, unsigned int mask,
				    unsigned int value)
{
	uint16_t *bits = &s->bits[number - 1];

	*bits = (uint16_t) ((*bits & ~(mask << shift)) |
			    ((value & mask) << shift));
}

/* The class and size (0 if not known) of NUMBER's last instruction, in
   one write: this runs for every block.  */
static inline void bt_segs_set_last_insn(struct bt_segs *s, uint32_t number,
					 unsigned int iclass,
					 unsigned int size)
{
	uint16_t *bits = &s->bits[number - 1];
	unsigned int mask = bt_segs_iclass_mask << bt_segs_iclass_shift |
		bt_segs_size_mask << bt_segs_size_shift;

	unsigned int value = (iclass & bt_segs_iclass_mask)
		<< bt_segs_iclass_shift
		| (size & bt_segs_size_mask) << bt_segs_size_shift;

	*bits = (uint16_t) ((*bits & ~mask) | value);
}

static inline int bt_segs_is_gap(const struct bt_segs *s, uint32_t number)
{
	return (s->bits[number - 1] & bt_segs_gap) != 0;
}

/* The instructions of a block.  */
static inline uint32_t bt_segs_block_ninsn(const struct bt_segs *s,
					   size_t block)
{
	return s->block_ninsn[block];
}

#endif
