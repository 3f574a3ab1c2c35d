/* The per-thread single-step run (xt_truth.h).  */
#define _GNU_SOURCE
#include "testsuite/exact/xt_truth.h"
#include "common/ps_error.h"

#include <signal.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

/* TID's index, added at its first sight (a clone event names the child
   before its first stop, so creation order is kept).  */
static long xt_truth_index(struct xt_truth *truth, pid_t *tids, pid_t tid)
{
	for (size_t i = 0; i < truth->count; i++)
		if (tids[i] == tid)
			return (long) i;
	if (truth->count == xt_truth_max)
		return -1;
	tids[truth->count] = tid;
	drv_ips_init(&truth->ips[truth->count]);
	return (long) truth->count++;
}

static void xt_truth_push(struct xt_truth *truth, long i, pid_t tid)
{
	struct user_regs_struct regs;

	if (i >= 0 && ptrace(PTRACE_GETREGS, tid, 0, &regs) == 0) {
		drv_ips_push(&truth->ips[i], regs.rip);
		truth->total++;
	}
}

int xt_truth_run(struct xt_truth *truth, char *const argv[],
		 size_t max_insns)
{
	pid_t tids[xt_truth_max] = { 0 }, pid;
	int status;

	memset(truth, 0, sizeof(*truth));
	pid = fork();
	if (pid < 0)
		return -pse_noproc;
	if (!pid) {
		personality(ADDR_NO_RANDOMIZE);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	truth->proc.pid = pid;
	truth->proc.whole = true;
	nat_mem_init(&truth->proc.mem, pid);
	int3_table_init(&truth->proc.sites);
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -pse_noproc;
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACECLONE |
	       PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL);
	emu_pin_cpu(pid);
	xt_truth_push(truth, xt_truth_index(truth, tids, pid), pid);
	ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);
		long i;
		int sig, event;

		if (tid < 0)
			return -pse_noproc;
		if (!WIFSTOPPED(status)) {
			if (tid == pid)
				return -pse_noproc;   /* no exit stop seen */
			continue;
		}
		i = xt_truth_index(truth, tids, tid);
		sig = WSTOPSIG(status);
		event = status >> 16;
		if (event == PTRACE_EVENT_EXIT && tid == pid)
			return 0;                     /* held here */
		if (event == PTRACE_EVENT_CLONE) {
			unsigned long msg = 0;

			ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg);
			xt_truth_index(truth, tids, (pid_t) msg);
		}
		if (event) {
			sig = 0;
		} else if (sig == SIGTRAP || sig == SIGSTOP) {
			/* A step's end, or a new thread's first stop: the
			   instruction it runs next.  */
			xt_truth_push(truth, i, tid);
			sig = 0;
		}
		if (max_insns && truth->total > max_insns)
			return -pse_range;
		ptrace(PTRACE_SINGLESTEP, tid, 0, sig);
	}
}

void xt_truth_fini(struct xt_truth *truth)
{
	if (truth->proc.pid > 0) {
		int status;

		/* A SIGKILL does not end an exit stop: it is resumed.  */
		kill(truth->proc.pid, SIGKILL);
		ptrace(PTRACE_CONT, truth->proc.pid, 0, 0);
		while (waitpid(truth->proc.pid, &status, __WALL) ==
		       truth->proc.pid && WIFSTOPPED(status))
			ptrace(PTRACE_CONT, truth->proc.pid, 0, 0);
	}
	for (size_t i = 0; i < truth->count; i++)
		drv_ips_fini(&truth->ips[i]);
	nat_mem_fini(&truth->proc.mem);
	int3_table_fini(&truth->proc.sites);
}
