/* The remote protocol's binary escaping: '}' followed by the byte XOR
   0x20 stands for each of '$', '#', '}' and '*' (the last because GDB
   reads '*' in a reply as run-length encoding).  Binary packets (X,
   vFile:pwrite, qXfer replies) carry their data this way.  */
#ifndef SERVER_RSP_ESCAPE_H
#define SERVER_RSP_ESCAPE_H

#include <stddef.h>

struct ps_buf;

/* Whether byte C must be sent escaped.  */
int rsp_needs_escape(unsigned char c);

/* Append to OUT as much of DATA's LEN bytes as fits in MAX_OUT escaped
   bytes, never splitting an escape pair, and return how many input
   bytes that took; a qXfer reply uses this to fill its chunk exactly.
   Returns 0 with nothing appended if OUT cannot grow.  */
size_t rsp_escape(struct ps_buf *out, const void *data, size_t len,
		  size_t max_out);

/* Decode LEN escaped bytes at IN into OUT (room for LEN bytes; OUT may
   be IN itself) and return the decoded length, or -pse_invalid if IN
   ends in a lone '}' (OUT's contents are then unspecified).  */
long rsp_unescape(void *out, const char *in, size_t len);

#endif
