/* A GDB remote-protocol client, just enough to read a trace from a live
   stub (ptstub, gdbserver) with the packets GDB sends.  */
#ifndef BT_RSP_H
#define BT_RSP_H

#include "btrace/ptbtrace.h"

struct bt_rsp;

/* Connect to HOSTPORT ("HOST:PORT", or ":PORT" for localhost).  */
int bt_rsp_open(struct bt_rsp **rsp, const char *hostport,
		struct bt_diag *diag);
void bt_rsp_close(struct bt_rsp *rsp);

/* Send COMMAND and wait for its reply: *REPLY (NUL-terminated, escapes
   and repeats undone, *LEN bytes) holds until the next request.  */
int bt_rsp_request(struct bt_rsp *rsp, const char *command,
		   const char **reply, size_t *len, struct bt_diag *diag);

/* The whole of qXfer OBJECT with ANNEX, in a malloc'ed *DATA;
   -bte_notfound if the stub answers with an error.  */
int bt_rsp_qxfer(struct bt_rsp *rsp, const char *object, const char *annex,
		 char **data, size_t *size, struct bt_diag *diag);

/* The whole of the stub's file PATH (vFile), in a malloc'ed *DATA.  */
int bt_rsp_read_file(struct bt_rsp *rsp, const char *path, char **data,
		     size_t *size, struct bt_diag *diag);

#endif
