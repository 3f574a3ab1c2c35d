/* The packet history, library-internal side (see ptbtrace.h).  */
#ifndef BT_PACKETS_H
#define BT_PACKETS_H

#include "btrace/ptbtrace.h"

#include <intel-pt.h>

/* A decoded PT packet or the error that stopped decoding at OFFSET.  */
struct bt_packet {
	uint64_t offset;
	struct pt_packet packet;
	int errcode;              /* enum pt_error_code, positive; 0 = ok */
};

struct bt_packets {
	enum bt_format format;
	struct bt_packet *packets;   /* PT */
	const uint8_t *blocks;       /* BTS: the bundle's 16-byte records */
	size_t count;
};

#endif
