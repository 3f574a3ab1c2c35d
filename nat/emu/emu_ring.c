#define _GNU_SOURCE
#include "nat/emu/emu_ring.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <stdlib.h>
#include <string.h>

/* The PSB packet: 02 82 repeated eight times.  */
static const uint8_t emu_psb[16] = {
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
};

int emu_ring_init(struct emu_ring *ring, size_t size)
{
	if (size < 64)
		return -pse_invalid;
	ring->data = malloc(size);
	if (!ring->data)
		return -pse_nomem;
	ring->size = size;
	ring->head = 0;
	ring->read_mark = 0;
	return 0;
}

void emu_ring_fini(struct emu_ring *ring)
{
	free(ring->data);
	ring->data = NULL;
	ring->size = 0;
}

void emu_ring_write(struct emu_ring *ring, const void *data, size_t len)
{
	const uint8_t *bytes = data;

	/* Only the last SIZE bytes of a huge write can survive.  */
	if (len > ring->size) {
		ring->head += len - ring->size;
		bytes += len - ring->size;
		len = ring->size;
	}
	while (len) {
		size_t at = ring->head % ring->size;
		size_t chunk = ring->size - at < len ? ring->size - at : len;

		memcpy(ring->data + at, bytes, chunk);
		ring->head += chunk;
		bytes += chunk;
		len -= chunk;
	}
}

uint64_t emu_ring_wraps(const struct emu_ring *ring)
{
	return ring->head ? (ring->head - 1) / ring->size : 0;
}

size_t emu_ring_fill(const struct emu_ring *ring)
{
	return ring->head < ring->size ? ring->head : ring->size;
}

/* Append the bytes written at [FROM, head) to OUT; FROM must be held.  */
static int emu_ring_copy(const struct emu_ring *ring, uint64_t from,
			 struct ps_buf *out)
{
	while (from < ring->head) {
		size_t at = from % ring->size;
		size_t chunk = ring->size - at;
		int err;

		if (chunk > ring->head - from)
			chunk = ring->head - from;
		err = ps_buf_append(out, ring->data + at, chunk);
		if (err < 0)
			return err;
		from += chunk;
	}
	return 0;
}

int emu_ring_read_all(struct emu_ring *ring, struct ps_buf *out)
{
	uint64_t oldest = ring->head - emu_ring_fill(ring);
	size_t start = out->len;
	const uint8_t *psb;
	int err;

	err = emu_ring_copy(ring, oldest, out);
	if (err < 0)
		return err;
	ring->read_mark = ring->head;
	if (oldest == 0)
		return 0;

	/* The oldest bytes of a wrapped ring start mid-packet.  */
	psb = memmem(out->data + start, out->len - start, emu_psb,
		     sizeof(emu_psb));
	if (!psb) {
		out->len = start;
	} else {
		size_t skip = (size_t) (psb - (const uint8_t *) out->data) -
			start;

		memmove(out->data + start, psb, out->len - start - skip);
		out->len -= skip;
	}
	out->data[out->len] = 0;
	return 0;
}

int emu_ring_read_new(struct emu_ring *ring, struct ps_buf *out)
{
	uint64_t oldest = ring->head - emu_ring_fill(ring);
	int err;

	if (ring->read_mark < oldest)
		return -pse_range;
	err = emu_ring_copy(ring, ring->read_mark, out);
	if (err < 0)
		return err;
	ring->read_mark = ring->head;
	return 0;
}
