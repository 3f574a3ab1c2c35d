#define _GNU_SOURCE
#include "testsuite/exact/exact_check.h"
#include "nat/maps.h"
#include "common/ps_error.h"

#include <elf.h>
#include <errno.h>
#include <intel-pt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static void xc_ip(struct drv_proc *proc, struct xc_ip_check *check,
		  uint64_t ip)
{
	uint8_t byte;

	check->ips++;
	if (nat_mem_read(&proc->mem, ip, &byte, 1) == 1)
		return;
	if (!check->unmapped)
		check->first_unmapped = ip;
	check->unmapped++;
}

static int xc_event(struct pt_query_decoder *dec, struct drv_proc *proc,
		    struct xc_ip_check *check)
{
	struct pt_event ev;
	int status = pt_qry_event(dec, &ev, sizeof(ev));

	if (status < 0 || ev.ip_suppressed)
		return status;
	switch (ev.type) {
	case ptev_enabled: xc_ip(proc, check, ev.variant.enabled.ip); break;
	case ptev_disabled: xc_ip(proc, check, ev.variant.disabled.ip); break;
	case ptev_async_disabled:
		xc_ip(proc, check, ev.variant.async_disabled.at);
		break;
	case ptev_async_branch:
		xc_ip(proc, check, ev.variant.async_branch.from);
		xc_ip(proc, check, ev.variant.async_branch.to);
		break;
	case ptev_overflow: xc_ip(proc, check, ev.variant.overflow.ip); break;
	case ptev_exec_mode: xc_ip(proc, check, ev.variant.exec_mode.ip); break;
	default: break;
	}
	return status;
}

void xc_check_ips(struct drv_proc *proc, const struct ps_buf *pt,
		  struct xc_ip_check *check)
{
	struct pt_query_decoder *dec;
	struct pt_config config;
	uint64_t ip = 0;
	int status;

	memset(check, 0, sizeof(*check));
	pt_config_init(&config);
	config.begin = (uint8_t *) pt->data;
	config.end = (uint8_t *) pt->data + pt->len;
	dec = pt_qry_alloc_decoder(&config);
	if (!dec) {
		check->error = -pte_nomem;
		return;
	}
	status = pt_qry_sync_forward(dec, &ip);
	if (status >= 0 && !(status & pts_ip_suppressed))
		xc_ip(proc, check, ip);
	while (status >= 0 && !(status & pts_eos)) {
		int taken;

		if (status & pts_event_pending) {
			status = xc_event(dec, proc, check);
			continue;
		}
		status = pt_qry_cond_branch(dec, &taken);
		if (status != -pte_bad_query)
			continue;
		status = pt_qry_indirect_branch(dec, &ip);
		if (status >= 0 && !(status & pts_ip_suppressed))
			xc_ip(proc, check, ip);
	}
	if (status < 0 && status != -pte_eos)
		check->error = status;
	pt_qry_free_decoder(dec);
}

void xc_where(pid_t pid, uint64_t ip, char *out, size_t len)
{
	struct nat_maps maps;

	snprintf(out, len, "?");
	nat_maps_init(&maps);
	if (nat_maps_read(&maps, pid) == 0)
		for (size_t i = 0; i < maps.count; i++) {
			const struct nat_map *m = &maps.map[i];
			const char *base = strrchr(m->path, '/');

			if (ip < m->start || ip >= m->end)
				continue;
			snprintf(out, len, "%s+%#llx", base ? base + 1 :
				 *m->path ? m->path : "anon",
				 (unsigned long long) (ip - m->start + m->offset));
			break;
		}
	nat_maps_fini(&maps);
}

int xc_hide_vdso(struct drv_proc *proc)
{
	struct user_regs_struct regs;
	uint64_t sp, argc, word, pair[2], ignore = AT_IGNORE;

	if (!proc->whole ||
	    ptrace(PTRACE_GETREGS, proc->pid, 0, &regs) < 0 ||
	    nat_mem_read(&proc->mem, regs.rsp, &argc, 8) != 8)
		return -pse_invalid;
	/* The initial stack: argc, argv and NULL, envp and NULL, auxv.  */
	sp = regs.rsp + 8 + (argc + 1) * 8;
	do {
		if (nat_mem_read(&proc->mem, sp, &word, 8) != 8)
			return -pse_fault;
		sp += 8;
	} while (word);
	for (;; sp += 16) {
		if (nat_mem_read(&proc->mem, sp, pair, 16) != 16)
			return -pse_fault;
		if (pair[0] == AT_NULL)
			return -pse_notfound;
		if (pair[0] == AT_SYSINFO_EHDR)
			return nat_mem_write(&proc->mem, sp, &ignore, 8) < 0 ?
				-pse_fault : 0;
	}
}

bool xc_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *at = list; at && *at; ) {
		const char *end = strchr(at, ',');
		size_t len = end ? (size_t) (end - at) : strlen(at);

		if (len == n && !strncmp(at, name, n))
			return true;
		at = end ? end + 1 : NULL;
	}
	return false;
}

bool xc_ptrace_works(char *why, size_t len)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return false;
	}
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
			_exit(1);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		snprintf(why, len, "PTRACE_TRACEME refused (status %#x)",
			 status);
		return false;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return true;
}
