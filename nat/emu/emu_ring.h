/* A bounded byte ring with hardware-like wrap semantics: new bytes
   overwrite the oldest; a full read starts at the oldest complete PSB so
   that what it returns decodes.  */
#ifndef NAT_EMU_EMU_RING_H
#define NAT_EMU_EMU_RING_H

#include <stddef.h>
#include <stdint.h>

struct ps_buf;

struct emu_ring {
	uint8_t *data;
	size_t size;
	uint64_t head;        /* bytes ever written */
	uint64_t read_mark;   /* head at the last read */
};

/* SIZE bytes, at least 64.  */
int emu_ring_init(struct emu_ring *ring, size_t size);
void emu_ring_fini(struct emu_ring *ring);

void emu_ring_write(struct emu_ring *ring, const void *data, size_t len);

/* One byte (a TNT packet): inline, as the drain writes one per six
   conditionals.  */
static inline void emu_ring_put(struct emu_ring *ring, uint8_t byte)
{
	ring->data[ring->head++ % ring->size] = byte;
}

/* How often the ring wrapped, and how many bytes it holds.  */
uint64_t emu_ring_wraps(const struct emu_ring *ring);
size_t emu_ring_fill(const struct emu_ring *ring);

/* Append everything still held, from its oldest complete PSB, to OUT
   (nothing if no PSB survives); sets the read mark.  */
int emu_ring_read_all(struct emu_ring *ring, struct ps_buf *out);

/* Append what was written since the last read to OUT; -pse_range if the
   ring overwrote some of it (the caller should read all).  */
int emu_ring_read_new(struct emu_ring *ring, struct ps_buf *out);

#endif
