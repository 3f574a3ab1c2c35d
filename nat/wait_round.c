/* nat/wait_round.c: waiting for one thread's stop without ever blocking
   on its pid.  A blocking waitpid on one thread hangs for good when that
   thread is a thread-group leader that has exited while other threads
   live (the kernel reports a leader's end only with its group's last
   thread, and those may sit in a tracing stop that only we can end), so
   every wait of stop_all.c and of a kill takes whatever status comes,
   marks such a leader as a zombie and sleeps on the SIGCHLD signalfd.  */
#define _GNU_SOURCE
#include "nat/process.h"
#include "nat/wait_status.h"
#include "common/ps_error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

int nat_proc_state(pid_t tid)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int) tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? -1 : 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? (unsigned char) paren[2] : 0;
}

/* Whether /proc says PID is a zombie (or already reaped).  */
static int nat_pid_is_zombie(pid_t pid)
{
	int state = nat_proc_state(pid);

	return state < 0 || state == 'Z' || state == 'X';
}

int nat_mark_zombie_leaders(struct nat_target *target)
{
	int marked = 0;

	for (struct nat_process *p = target->procs; p; p = p->next) {
		struct nat_thread *leader = NULL;
		int others = 0;

		for (struct nat_thread *t = p->threads; t; t = t->next) {
			if (t->tid == p->pid)
				leader = t;
			else
				others++;
		}
		if (!leader || leader->zombie || !others ||
		    leader->state != nat_thread_running ||
		    !nat_pid_is_zombie(p->pid))
			continue;
		/* Its SIGSTOP never comes: it is done, and its exit (the
		   process's) comes with its last thread's.  */
		leader->zombie = 1;
		leader->state = nat_thread_stopped;
		leader->stop_expected = 0;
		leader->regs_valid = 0;
		nat_debug(target, "leader %d is a zombie", (int) p->pid);
		marked++;
	}
	return marked;
}

int nat_quitting(const struct nat_target *target)
{
	return target->quit && *target->quit;
}

/* A SIGCHLD this file took from the signalfd is owed back once a status
   was taken after it: the statuses it announced may not all be taken,
   and the non-stop wait polls the fd for them.  */
static void nat_repay_sigchld(struct nat_target *target)
{
	if (!target->sigchld_owed)
		return;
	target->sigchld_owed = 0;
	kill(getpid(), SIGCHLD);
}

int nat_wait_round(struct nat_target *target, pid_t own, int *status,
		   int stopping)
{
	struct pollfd pfd = { .fd = target->sigchld_fd, .events = POLLIN };
	struct signalfd_siginfo info[4];
	int ws;
	pid_t pid = nat_waitpid(-1, &ws, WNOHANG);

	if (pid > 0) {
		struct nat_thread *thread;

		nat_repay_sigchld(target);
		if (pid == own) {
			*status = ws;
			return 1;
		}
		thread = nat_lookup_tid(target, pid);
		if (thread)
			nat_handle_status(target, thread, ws, stopping);
		else
			nat_stash_orphan(target, pid, ws);
		return 0;
	}
	if (pid < 0)
		return -pse_noproc;
	if (nat_mark_zombie_leaders(target)) {
		nat_repay_sigchld(target);
		return 0;
	}
	/* Nothing yet: sleep until a SIGCHLD, a tick at most (the zombie
	   check and the quit flag are looked at again then).  */
	if (poll(&pfd, 1, nat_wait_round_tick_ms) > 0 &&
	    read(target->sigchld_fd, info, sizeof(info)) > 0)
		target->sigchld_owed = 1;
	return 0;
}
