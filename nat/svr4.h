/* The dynamic linker's list of loaded objects (the svr4 r_debug /
   link_map protocol), as the XML document of qXfer:libraries-svr4:read,
   produced the way gdbserver produces it.  */
#ifndef NAT_SVR4_H
#define NAT_SVR4_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ps_buf;

/* Read up to LEN bytes of the inferior at ADDR: the count read (short
   at the first unreadable byte) or a negative ps_error_code.  The server
   passes its breakpoint-shadowing reader.  */
typedef long (*svr4_read_fn)(void *ctx, uint64_t addr, void *buf,
			     size_t len);

/* Append the whole <library-list-svr4> document of stopped process PID
   (64-bit) to XML.  ANNEX is the qXfer annex, "" or GDB's
   "lmid=HEX;start=HEX;prev=HEX" (only the namespace from start= is
   walked then).  Before the dynamic linker sets up r_debug the list is
   empty.  -pse_notfound when the executable has no DT_DEBUG at all
   (static): gdbserver answers E01 then, and GDB falls back.  -pse_badhex
   for a malformed annex, -pse_noproc when the auxv cannot be read.  */
int svr4_library_list(pid_t pid, svr4_read_fn read, void *ctx,
		      const char *annex, struct ps_buf *xml);

/* Where the main executable's DT_DEBUG value (the pointer to r_debug)
   is in PID's memory, for LLDB's qShlibInfoAddr; -pse_notfound without
   DT_DEBUG.  */
int svr4_debug_slot(pid_t pid, svr4_read_fn read, void *ctx,
		    uint64_t *slot);

#endif
