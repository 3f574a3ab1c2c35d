/* Server-side writers for GDB's branch trace documents: qXfer:btrace:read
   (btrace.dtd) and qXfer:btrace-conf:read (btrace-conf.dtd).  The output
   is byte for byte what gdbserver 13.1 sends, DOCTYPE line included.  */
#ifndef BTRACE_XML_H
#define BTRACE_XML_H

#include "common/trace.h"

#include <stddef.h>
#include <stdint.h>

struct ps_buf;

/* Append a BTS trace to OUT.  BLOCKS are in execution order (oldest
   first, the last one holding the current PC); they are written newest
   first, the order GDB reads them in.  */
int btrace_xml_bts(struct ps_buf *out, const struct trace_block *blocks,
		   size_t n);

/* Append a PT trace to OUT: CPU (NULL or an empty vendor: none) and LEN
   bytes of RAW trace as hex.  LEN 0 writes no <raw>, as for a "new" read
   that found nothing new.  */
int btrace_xml_pt(struct ps_buf *out, const struct trace_cpu *cpu,
		  const void *raw, size_t len);

/* Append a btrace-conf document for FORMAT with buffer SIZE in bytes
   (ignored for trace_format_none, which writes an empty configuration).  */
int btrace_xml_conf(struct ps_buf *out, enum trace_format format,
		    unsigned int size);

#endif
