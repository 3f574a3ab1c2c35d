/* A process's auxiliary vector, as the kernel gave it at exec: the raw
   bytes for qXfer:auxv:read, and a lookup of one entry.  */
#ifndef NAT_AUXV_H
#define NAT_AUXV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ps_buf;

/* Append /proc/PID/auxv, whole, to AUXV.  -pse_noproc when the process
   is gone (or a zombie), -pse_perm when we may not read it.  */
int auxv_read(pid_t pid, struct ps_buf *auxv);

/* The value of the first entry of TYPE in LEN bytes of a 64-bit auxv
   (pairs of 64-bit type and value, ending at AT_NULL); -pse_notfound
   when there is none.  */
int auxv_lookup(const void *auxv, size_t len, uint64_t type,
		uint64_t *value);

#endif
