/* Fuzz target: the trace bundle reader (bt_bundle_parse), and, for a
   bundle it accepts, the packet list and the encoder round trip.  */
#include "btrace/ptbtrace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_bundle b;
	struct bt_diag diag;
	struct bt_packets *packets;
	uint8_t *again;
	size_t again_size;

	memset(&b, 0, sizeof(b));
	bt_diag_init(&diag);
	if (bt_bundle_parse(&b, data, size, &diag) < 0)
		return 0;
	if (bt_packets_alloc(&packets, &b, &diag) == 0)
		bt_packets_free(packets);
	if (bt_bundle_encode(&b, &again, &again_size) == 0)
		free(again);
	bt_bundle_fini(&b);
	return 0;
}
