/* The vFile: packet family (GDB's host I/O): GDB reads the program and
   its shared libraries through it under its default `sysroot target:`.
   Replies follow gdbserver's byte for byte, with GDB's File-I/O encoding
   of open flags, modes, errno values and struct stat.  */
#ifndef SERVER_HOSTIO_H
#define SERVER_HOSTIO_H

#include <stddef.h>
#include <sys/types.h>

struct ps_buf;

/* The files GDB opened through this connection, and whose filesystem
   paths refer to.  Only these fds may be read, written or closed.  */
struct hostio {
	int *fds;
	size_t count;
	size_t cap;
	pid_t fs_pid;     /* vFile:setfs: 0 = the stub's own filesystem */
};

void hostio_init(struct hostio *hio);

/* Close every file still open.  */
void hostio_fini(struct hostio *hio);

/* Handle one vFile packet: PACKET, LEN bytes starting at "vFile:", with
   binary parts still escaped as received.  Appends the reply, at most
   MAX_REPLY bytes, to REPLY; appends nothing for an operation it does not
   know (vFile:stat, say: the empty reply).  Failures of the operation
   itself are replies (F-1,ERRNO); returns 0, or -pse_invalid when PACKET
   is not a vFile packet, -pse_nomem.  With MAX_REPLY 0x4800 (gdbserver's
   buffer; it advertises PacketSize=47ff) replies equal gdbserver's.
   A new GDB connection starts afresh: hostio_fini, then hostio_init.  */
int hostio_handle(struct hostio *hio, const char *packet, size_t len,
		  size_t max_reply, struct ps_buf *reply);

/* GDB's File-I/O number for a host errno value (9999, EUNKNOWN, for one
   it has none for).  */
int hostio_fileio_errno(int host_errno);

#endif
