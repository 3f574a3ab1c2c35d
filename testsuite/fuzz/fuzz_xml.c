/* Fuzz target: libptbtrace's readers of GDB's btrace and btrace-conf
   documents (what a stub sends for qXfer:btrace and btrace-conf).  */
#include "btrace/ptbtrace.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_xml_btrace trace;
	struct bt_diag diag;
	enum bt_format format;
	uint32_t buffer;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	memset(&trace, 0, sizeof(trace));
	bt_diag_init(&diag);
	if (bt_xml_parse_btrace(text, size, &trace, &diag) == 0)
		bt_xml_btrace_fini(&trace);
	bt_diag_init(&diag);
	bt_xml_parse_conf(text, size, &format, &buffer, &diag);
	free(text);
	return 0;
}
