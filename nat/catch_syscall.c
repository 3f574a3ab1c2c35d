#define _GNU_SOURCE
#include "nat/catch_syscall.h"
#include "common/ps_error.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>

int nat_catch_syscall_set(struct nat_catch_syscall *c, int on,
			  const uint64_t *nrs, size_t n)
{
	struct nat_catch_syscall next;

	memset(&next, 0, sizeof(next));
	next.enabled = on != 0;
	next.any = on && !n;
	for (size_t i = 0; on && i < n; i++) {
		if (nrs[i] >= NAT_CATCH_SYSCALL_MAX)
			return -pse_invalid;
		next.nr[nrs[i] / 8] |= (uint8_t) (1u << (nrs[i] % 8));
	}
	*c = next;
	return 0;
}

int nat_catch_syscall_wants(const struct nat_catch_syscall *c, uint64_t nr)
{
	if (!c->enabled)
		return 0;
	if (c->any)
		return 1;
	return nr < NAT_CATCH_SYSCALL_MAX && (c->nr[nr / 8] >> (nr % 8)) & 1;
}

int nat_syscall_stop_info(int tid, uint64_t *nr, int *entry)
{
	struct __ptrace_syscall_info info;
	long r;

	/* The kernel knows entry from return: no toggling to get wrong when
	   a thread was resumed without PTRACE_SYSCALL in between.  */
	memset(&info, 0, sizeof(info));
	r = ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *) sizeof(info), &info);
	if (r < 0)
		return errno == ESRCH ? -pse_nothread : -pse_io;
	if (info.op != PTRACE_SYSCALL_INFO_ENTRY &&
	    info.op != PTRACE_SYSCALL_INFO_EXIT)
		return -pse_invalid;
	*entry = info.op == PTRACE_SYSCALL_INFO_ENTRY;
	errno = 0;
	r = ptrace(PTRACE_PEEKUSER, tid,
		   (void *) offsetof(struct user_regs_struct, orig_rax), 0);
	if (r == -1 && errno)
		return -pse_nothread;
	*nr = (uint64_t) r;
	return 0;
}
