/* One connection to GDB: packet framing ($payload#xx), acks, and the
   out-of-band interrupt byte, over an input and an output fd (one TCP
   socket twice, or stdin and stdout for "target remote | ptstub - ...").
   Packet payloads are passed as sent: binary escapes are left in
   (rsp_escape.h undoes them) and no run-length encoding is applied.  */
#ifndef SERVER_RSP_CONN_H
#define SERVER_RSP_CONN_H

#include <stddef.h>
#include <stdio.h>

#include "common/ps_buf.h"

/* The largest payload rsp_read_packet accepts: 1 MiB plus room for a
   command and framing overhead.  The server should advertise at most
   PacketSize=100000 (hex, 1 MiB) so that GDB never sends more.  */
#define RSP_MAX_PAYLOAD ((size_t) (1u << 20) + 4096)

/* How many times rsp_send_packet resends a packet GDB rejects with '-'
   before giving up.  */
#define RSP_MAX_RESEND 8

/* rsp_read_packet's positive result: GDB sent the interrupt byte 0x03
   (Ctrl-C) outside a packet.  */
enum { RSP_INTERRUPT = 1 };

struct rsp_conn {
	int in_fd;
	int out_fd;
	int noack;              /* QStartNoAckMode is in effect */
	int interrupt_pending;  /* a 0x03 was seen while waiting for an ack */
	int out_is_socket;      /* -1 until the first write tells */
	size_t max_payload;     /* RSP_MAX_PAYLOAD; tests may lower it */
	FILE *debug;            /* --remote-debug log, or NULL */
	struct ps_buf frame;    /* the outgoing packet, kept for resends */
	size_t in_pos;          /* unread input is in[in_pos .. in_len) */
	size_t in_len;
	unsigned char in[16384];
};

/* Use IN_FD and OUT_FD (they may be equal).  The fds stay the caller's:
   rsp_conn_fini does not close them.  -pse_invalid for a negative fd.  */
int rsp_conn_init(struct rsp_conn *conn, int in_fd, int out_fd);
void rsp_conn_fini(struct rsp_conn *conn);

/* Log every packet in and out to LOG (NULL stops), in gdbserver's
   --remote-debug style.  */
void rsp_conn_set_debug(struct rsp_conn *conn, FILE *log);

/* Read the next packet into PAYLOAD (reset first; NUL-terminated after
   its data) and acknowledge it.  Returns 0 for a packet, RSP_INTERRUPT
   for a 0x03 between packets (or one remembered by rsp_send_packet),
   -pse_eof when GDB closed the connection (also mid-packet), -pse_io on
   a read or write error.  A bad checksum or an oversized packet is
   answered '-' and skipped; stray bytes between packets are skipped.
   In no-ack mode a packet with a bad checksum is taken as it is, as
   gdbserver does: GDB would not resend it and the medium is reliable.  */
int rsp_read_packet(struct rsp_conn *conn, struct ps_buf *payload);

/* Frame and send LEN bytes of PAYLOAD (the caller escapes binary data),
   then, unless in no-ack mode, wait for GDB's '+', resending on '-' up
   to RSP_MAX_RESEND times (then -pse_checksum).  A 0x03 that arrives
   meanwhile is kept for the next read; a '$' (GDB moved on to a new
   packet) ends the wait and is kept too.  Returns 0, -pse_eof (GDB
   closed the connection), -pse_io, or -pse_nomem.  */
int rsp_send_packet(struct rsp_conn *conn, const void *payload, size_t len);

/* Send an asynchronous notification "%NAME:PAYLOAD#xx" (non-stop's
   %Stop).  GDB acks none: nothing is awaited.  */
int rsp_send_notification(struct rsp_conn *conn, const char *name,
			  const void *payload, size_t len);

/* rsp_send_packet of a NUL-terminated string.  */
int rsp_send_str(struct rsp_conn *conn, const char *payload);

/* Turn no-ack mode on or off.  For QStartNoAckMode call it after
   sending the "OK" reply (rsp_read_packet already acked the request);
   calling it before is harmless too, as a late '+' from GDB is skipped
   as a stray byte.  */
void rsp_conn_set_noack(struct rsp_conn *conn, int on);

/* The fd to poll for input while the inferior runs.  */
int rsp_conn_poll_fd(const struct rsp_conn *conn);

/* Take in whatever is readable now without blocking and look for an
   interrupt between packets.  Returns 1 if a 0x03 was seen (including
   one remembered by rsp_send_packet; it is consumed), 0 if not,
   -pse_eof if GDB closed the connection, -pse_io on error.  Bytes of a
   packet stay buffered for rsp_read_packet.  Call it once right after
   resuming, before polling: bytes already buffered here do not make
   the fd readable.  */
int rsp_conn_check_interrupt(struct rsp_conn *conn);

#endif
