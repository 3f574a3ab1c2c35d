/* ptstub's error codes: functions return 0 (or a count) on success and a
   negative ps_error_code on failure, as libipt does with pt_error_code.  */
#ifndef PS_ERROR_H
#define PS_ERROR_H

enum ps_error_code {
	pse_ok,
	pse_internal,     /* a bug in ptstub */
	pse_invalid,      /* a malformed argument or packet */
	pse_nomem,
	pse_io,           /* a system call failed; errno says more */
	pse_eof,          /* the peer closed the connection */
	pse_checksum,     /* a packet's checksum did not match */
	pse_toolong,      /* a packet or object larger than allowed */
	pse_badhex,       /* a character that is not a hex digit */
	pse_nothread,     /* no such thread */
	pse_noproc,       /* no such process, or none running */
	pse_range,        /* a register number or offset out of range */
	pse_fault,        /* memory that cannot be read or written */
	pse_unsupported,  /* not supported by this target or build */
	pse_exists,       /* already there (breakpoint, enabled trace) */
	pse_notfound,     /* not there (breakpoint, trace, file) */
	pse_perm,         /* the kernel refused (permissions, ptrace) */
	pse_busy,         /* the resource is in use */
	pse_interrupted,  /* stopped by a Ctrl-C from the client */
	pse_running,      /* the thread is running, not stopped */
	pse_nospace,      /* a fixed-size table or buffer is full */
};

/* A short text for CODE (negative or not); never NULL.  */
const char *ps_errstr(int code);

/* The negative code for ERR, an errno from a /proc file of a process or
   a call aimed at one: gone (ENOENT, ESRCH), refused (EACCES, EPERM),
   out of memory, else an I/O error.  */
int ps_error_proc(int err);

#endif
