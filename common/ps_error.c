#include "common/ps_error.h"

#include <errno.h>

const char *ps_errstr(int code)
{
	if (code < 0)
		code = -code;

	switch ((enum ps_error_code) code) {
	case pse_ok: return "success";
	case pse_internal: return "internal error";
	case pse_invalid: return "invalid argument";
	case pse_nomem: return "out of memory";
	case pse_io: return "input/output error";
	case pse_eof: return "connection closed";
	case pse_checksum: return "bad checksum";
	case pse_toolong: return "too long";
	case pse_badhex: return "bad hex digit";
	case pse_nothread: return "no such thread";
	case pse_noproc: return "no such process";
	case pse_range: return "out of range";
	case pse_fault: return "cannot access memory";
	case pse_unsupported: return "not supported";
	case pse_exists: return "already exists";
	case pse_notfound: return "not found";
	case pse_perm: return "permission denied";
	case pse_busy: return "busy";
	case pse_interrupted: return "interrupted";
	case pse_running: return "thread is running";
	case pse_nospace: return "no space left";
	}
	return "unknown error";
}

int ps_error_proc(int err)
{
	switch (err) {
	case ENOENT: case ESRCH: return -pse_noproc;
	case EACCES: case EPERM: return -pse_perm;
	case ENOMEM: return -pse_nomem;
	default: return -pse_io;
	}
}
