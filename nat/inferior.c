/* Starting, attaching to, detaching from and killing inferiors.  */
#define _GNU_SOURCE
#include "nat/process.h"
#include "nat/wait_status.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int nat_target_init(struct nat_target *target)
{
	sigset_t mask;

	memset(target, 0, sizeof(*target));
	target->tty_old_pgrp = -1;
	target->start.startup_with_shell = 1;
	target->start.disable_randomization = 1;
	nat_tsc_clock_init(&target->tsc_clock);

	/* SIGCHLD only through the signalfd, so waiting can also poll the
	   client's socket.  */
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -pse_io;
	target->sigchld_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	return target->sigchld_fd < 0 ? -pse_io : 0;
}

void nat_target_fini(struct nat_target *target)
{
	while (target->procs)
		nat_kill(target, target->procs->pid);
	if (target->sigchld_fd >= 0)
		close(target->sigchld_fd);
	if (target->tty_old_pgrp > 0)
		tcsetpgrp(2, target->tty_old_pgrp);
}

/* Make PID's group the foreground of ptstub's terminal (stderr), as
   gdbserver does after fork: the program may then read and set the
   terminal without SIGTTIN/SIGTTOU stops.  ptstub ignores those two
   itself from now on, being in the background.  */
static void nat_give_terminal(struct nat_target *target, pid_t pid)
{
	pid_t old;

	if (target->start.keep_stdio_free || !isatty(2))
		return;
	signal(SIGTTOU, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	old = tcgetpgrp(2);
	if (old > 0 && tcsetpgrp(2, pid) == 0 && target->tty_old_pgrp < 0)
		target->tty_old_pgrp = old;
}

/* Options for every traced thread; EXITKILL only for processes ptstub
   started, so an attached one outlives a crashed stub.  */
static long nat_ptrace_options(const struct nat_target *target, int started)
{
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
		    PTRACE_O_TRACEVFORK | PTRACE_O_TRACEVFORKDONE |
		    PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD;

	if (target->report_exit)
		opts |= PTRACE_O_TRACEEXIT;
	return started ? opts | PTRACE_O_EXITKILL : opts;
}

/* Quote ARG for the shell the way gdbserver's startup-with-shell does:
   a backslash before each character the shell would interpret, and a
   newline inside single quotes (after a backslash it would vanish, a
   line continuation).  */
static int nat_shell_quote(struct ps_buf *cmd, const char *arg)
{
	static const char special[] = " \t\n'\"\\$`()<>|;&*?[]#~=%!{}^";
	int err = 0;

	if (!*arg)
		return ps_buf_puts(cmd, "''");
	for (; *arg && !err; arg++) {
		if (*arg == '\n') {
			err = ps_buf_puts(cmd, "'\n'");
			continue;
		}
		if (strchr(special, *arg))
			err = ps_buf_putc(cmd, '\\');
		if (!err)
			err = ps_buf_putc(cmd, *arg);
	}
	return err;
}

/* Without a shell, the wrapper's words (split at blanks) come before
   ARGV; NULL when out of memory.  */
static char **nat_wrapper_argv(const char *wrapper, char *const argv[])
{
	size_t nwords = 0, nargs = 0, i = 0;
	char *copy = strdup(wrapper), *save = NULL, *word, **out;

	if (!copy)
		return NULL;
	for (const char *p = wrapper; *p; p++)
		if (*p != ' ' && *p != '\t' && (p == wrapper || p[-1] == ' ' ||
						 p[-1] == '\t'))
			nwords++;
	while (argv[nargs])
		nargs++;
	out = calloc(nwords + nargs + 1, sizeof(*out));
	if (!out) {
		free(copy);
		return NULL;
	}
	for (word = strtok_r(copy, " \t", &save); word;
	     word = strtok_r(NULL, " \t", &save))
		out[i++] = word;
	for (size_t j = 0; j < nargs; j++)
		out[i++] = argv[j];
	return out;
}

/* chdir to DIR with a leading ~ or ~USER expanded, as gdbserver
   expands GDB's `set cwd ~/...`.  */
static int nat_chdir_expanded(const char *dir)
{
	char path[PATH_MAX], user[256];
	const char *rest, *home = NULL;
	size_t len;

	if (dir[0] != '~')
		return chdir(dir);
	rest = dir + 1 + strcspn(dir + 1, "/");
	len = (size_t) (rest - dir - 1);
	if (!len) {
		home = getenv("HOME");
	} else if (len < sizeof(user)) {
		struct passwd *pw;

		memcpy(user, dir + 1, len);
		user[len] = '\0';
		pw = getpwnam(user);
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || snprintf(path, sizeof(path), "%s%s", home, rest) >=
		     (int) sizeof(path))
		return chdir(dir);   /* fails, with the directory's errno */
	return chdir(path);
}

static void nat_child_exec(const struct nat_start_opts *opts,
			   char *const argv[], int errfd)
{
	char *const *envp = opts->envp ? opts->envp : environ;
	int err;

	setpgid(0, 0);
	/* The program starts with default dispositions, whatever ptstub
	   ignores (SIGPIPE; SIGTTOU and SIGTTIN once it gave the terminal
	   away).  */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
	signal(SIGTTIN, SIG_DFL);
	if (opts->keep_stdio_free) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0) {
			dup2(null, 0);
			close(null);
		}
		dup2(2, 1);
		if (write(2, "stdin/stdout redirected\n", 24) < 0)
			_exit(126);
	}
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
		goto fail;
	if (opts->disable_randomization)
		personality(personality(0xffffffff) | ADDR_NO_RANDOMIZE);
	if (opts->cwd && nat_chdir_expanded(opts->cwd) < 0)
		goto fail;

	if (opts->startup_with_shell) {
		const char *shell = opts->shell ? opts->shell : getenv("SHELL");
		struct ps_buf cmd;
		char *sh_argv[4];

		if (!shell || !*shell)
			shell = "/bin/sh";
		ps_buf_init(&cmd);
		ps_buf_puts(&cmd, "exec ");
		/* The wrapper as the user wrote it: its quoting is theirs.  */
		if (opts->wrapper) {
			ps_buf_puts(&cmd, opts->wrapper);
			ps_buf_putc(&cmd, ' ');
		}
		for (int i = 0; argv[i]; i++) {
			if (i)
				ps_buf_putc(&cmd, ' ');
			nat_shell_quote(&cmd, argv[i]);
		}
		sh_argv[0] = (char *) shell;
		sh_argv[1] = "-c";
		sh_argv[2] = cmd.data;
		sh_argv[3] = NULL;
		execve(shell, sh_argv, envp);
	} else if (opts->wrapper) {
		char **wargv = nat_wrapper_argv(opts->wrapper, argv);

		if (wargv)
			execvpe(wargv[0], wargv, envp);
		errno = wargv ? errno : ENOMEM;
	} else if (opts->exec_path) {
		execve(opts->exec_path, argv, envp);
	} else {
		execvpe(argv[0], argv, envp);
	}
fail:
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0)
		_exit(126);
	_exit(127);
}

int nat_create_inferior(struct nat_target *target, char *const argv[],
			pid_t *pidp, int *status)
{
	int pipefd[2], child_errno = 0, traps, ws;
	struct nat_process *proc;
	struct nat_thread *thread;
	pid_t pid;
	ssize_t n;

	*status = 0;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -pse_io;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -pse_io;
	}
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(pipefd[0]);
		nat_child_exec(&target->start, argv, pipefd[1]);
	}
	close(pipefd[1]);
	n = read(pipefd[0], &child_errno, sizeof(child_errno));
	close(pipefd[0]);

	/* The shell's exec, the wrapper's, then the program's, each stop
	   with SIGTRAP.  */
	traps = 1 + (target->start.startup_with_shell ? 1 : 0) +
		(target->start.wrapper ? 1 : 0);
	for (int seen = 0; seen < traps;) {
		if (nat_waitpid(pid, &ws, 0) < 0)
			return -pse_io;
		if (WIFEXITED(ws) || WIFSIGNALED(ws)) {
			*status = WIFEXITED(ws) ? WEXITSTATUS(ws)
						: 128 + WTERMSIG(ws);
			errno = n == sizeof(child_errno) ? child_errno : 0;
			return -pse_noproc;
		}
		/* No options until the program itself runs: with
		   TRACEEXEC the shell's exec would stop inside execve, where
		   register writes are lost to the syscall's return.  */
		if (WSTOPSIG(ws) == SIGTRAP && ++seen == traps)
			break;
		/* Anything else during startup goes back to the program.  */
		ptrace(PTRACE_CONT, pid, 0,
		       WSTOPSIG(ws) == SIGTRAP ? 0 : WSTOPSIG(ws));
	}

	ptrace(PTRACE_SETOPTIONS, pid, 0, nat_ptrace_options(target, 1));
	proc = nat_add_process(target, pid);
	thread = proc ? nat_add_thread(proc, pid) : NULL;
	if (!thread) {
		kill(pid, SIGKILL);
		return -pse_nomem;
	}
	thread->stop_known = 1;
	thread->last_sig = SIGTRAP;
	nat_give_terminal(target, pid);
	target->interrupt_pid = pid;
	nat_debug(target, "created process %d", (int) pid);
	*pidp = pid;
	return 0;
}

/* Attach to thread TID and collect its SIGSTOP; a different stop is
   kept pending, to be reported.  */
static int nat_attach_thread(const struct nat_target *target,
			     struct nat_process *proc, pid_t tid)
{
	struct nat_thread *thread;
	int ws;

	if (ptrace(PTRACE_ATTACH, tid, 0, 0) < 0)
		return errno == EPERM ? -pse_perm : -pse_noproc;
	thread = nat_add_thread(proc, tid);
	if (!thread)
		return -pse_nomem;
	/* A thread that exits as we attach is no thread of ours.  */
	if (nat_waitpid(tid, &ws, 0) < 0 || !WIFSTOPPED(ws)) {
		if (tid != proc->pid)
			nat_remove_thread(proc, thread);
		return -pse_noproc;
	}
	/* A signal that arrived as we attached is the client's news, as
	   with gdbserver: the thread stays in that stop (its siginfo says
	   so), and our SIGSTOP, still queued, is swallowed later.  */
	if (WSTOPSIG(ws) != SIGSTOP) {
		thread->has_pending = 1;
		thread->pending_status = ws;
		thread->pending_reason = nat_stop_none;
		thread->stop_expected = 1;
	}
	ptrace(PTRACE_SETOPTIONS, tid, 0, nat_ptrace_options(target, 0));
	return 0;
}

/* How many threads the kernel counts in PID (exiting ones too), or -1.  */
static int nat_task_count(pid_t pid)
{
	char path[64], line[256];
	int n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int) pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	fclose(f);
	return n;
}

static int nat_thread_count(const struct nat_process *proc)
{
	int n = 0;

	for (const struct nat_thread *t = proc->threads; t; t = t->next)
		n++;
	return n;
}

int nat_attach(struct nat_target *target, pid_t pid)
{
	struct nat_process *proc;
	int err, added, clean = 0, recheck = 0;
	char path[64];

	if (nat_find_process(target, pid))
		return -pse_exists;
	proc = nat_add_process(target, pid);
	if (!proc)
		return -pse_nomem;
	proc->attached = 1;

	err = nat_attach_thread(target, proc, pid);
	if (err < 0) {
		int saved = errno;

		nat_remove_process(target, proc);
		errno = saved;
		return err;
	}

	/* Threads may be created while we attach: rescan until stable.
	   Two clean passes, as gdbserver: a readdir of /proc/PID/task can
	   skip an entry while other threads exit, and a thread missed is a
	   thread that dies of the first int3 it meets.  */
	snprintf(path, sizeof(path), "/proc/%d/task", (int) pid);
	do {
		DIR *dir = opendir(path);
		struct dirent *ent;

		added = 0;
		if (!dir)
			break;
		while ((ent = readdir(dir))) {
			pid_t tid = (pid_t) atoi(ent->d_name);

			if (tid <= 0 || nat_find_thread(target, pid, tid))
				continue;
			err = nat_attach_thread(target, proc, tid);
			if (err == 0)
				added = 1;
			else
				nat_debug(target, "thread %d: not attached (%s)",
					  (int) tid, ps_errstr(err));
		}
		closedir(dir);
		clean = added ? 0 : clean + 1;
		/* The kernel's count says whether the passes still missed
		   one (a few more tries: an exiting thread counts too).  */
		if (clean == 2 && recheck < 20 &&
		    nat_task_count(pid) > nat_thread_count(proc)) {
			recheck++;
			clean = 1;
		}
	} while (clean < 2);

	/* The first stop the client hears of is the leader's.  */
	proc->threads->stop_known = 1;
	target->interrupt_pid = pid;
	nat_debug(target, "attached to process %d", (int) pid);
	return 0;
}

/* Undo everything ptstub changed in PROC's memory and registers.  */
static void nat_clean_process(struct nat_process *proc)
{
	int3_remove_all(&proc->int3s, &proc->mem, ~0u);
	for (struct nat_thread *t = proc->threads; t; t = t->next)
		nat_debugregs_clear(t->tid);
}

/* The fork children of PID the client has not heard of (their parent's
   event still pending): the client cannot let them go or kill them
   itself, so they go with their parent, as in gdbserver.  */
static pid_t nat_unreported_child(struct nat_target *target, pid_t pid)
{
	for (struct nat_process *p = target->procs; p; p = p->next)
		if (p->fork_unreported && p->fork_parent == pid)
			return p->pid;
	return 0;
}

int nat_detach(struct nat_target *target, pid_t pid)
{
	struct nat_process *proc = nat_find_process(target, pid);
	pid_t child;

	if (!proc)
		return -pse_noproc;
	while ((child = nat_unreported_child(target, pid)))
		if (nat_detach(target, child) < 0)
			break;
	/* Non-stop: threads may run; stop them so each can be let go.  */
	nat_stop_process(target, proc);
	if (nat_find_process(target, pid) != proc)
		return 0;  /* it exited meanwhile */
	nat_clean_process(proc);
	for (struct nat_thread *t = proc->threads; t; t = t->next) {
		int sig = t->deliver_sig;

		nat_thread_flush_regs(t);
		/* A signal it stopped with that the client never saw is
		   still the program's.  */
		if (t->has_pending && nat_status_signal_stop(t->pending_status) &&
		    WSTOPSIG(t->pending_status) != SIGTRAP &&
		    WSTOPSIG(t->pending_status) != SIGSTOP)
			sig = WSTOPSIG(t->pending_status);
		/* The signal it stopped with, which the client saw and did
		   not resume it with, is the program's again (a SIGALRM the
		   program relies on must not be lost), as gdbserver does.  */
		else if (!sig && t->last_sig > 0 && t->last_sig < 65 &&
			 t->last_sig != SIGSTOP &&
			 (target->program_signals_set ?
			  target->program_signals[t->last_sig] :
			  t->last_sig != SIGTRAP && t->last_sig != SIGINT))
			sig = t->last_sig;
		/* Our SIGSTOP still queued would leave it stopped.  */
		if (t->stop_expected)
			syscall(SYS_tgkill, pid, t->tid, SIGCONT);
		if (ptrace(PTRACE_DETACH, t->tid, 0, sig) < 0)
			nat_debug(target, "thread %d: detach failed (%s)",
				  (int) t->tid, strerror(errno));
	}
	nat_debug(target, "detached from process %d", (int) pid);
	nat_remove_process(target, proc);
	return 0;
}

int nat_kill(struct nat_target *target, pid_t pid)
{
	struct nat_process *proc = nat_find_process(target, pid);
	pid_t child;
	int ws;

	if (!proc)
		return -pse_noproc;
	while ((child = nat_unreported_child(target, pid)))
		if (nat_kill(target, child) < 0)
			break;
	kill(pid, SIGKILL);
	/* Reap every thread, the leader last, so no zombie is left.  */
	for (struct nat_thread *t = proc->threads; t; t = t->next) {
		if (t->tid == pid)
			continue;
		while (nat_waitpid(t->tid, &ws, 0) == 0 && WIFSTOPPED(ws))
			;
	}
	/* The leader's end comes only once every thread of it is reaped,
	   one not known yet too (a clone whose event was not taken): a
	   blocking wait on the leader alone could never end, so whatever
	   comes meanwhile is taken as it comes (another process's threads
	   go on as their resume said).  */
	for (;;) {
		pid_t r = nat_waitpid(pid, &ws, WNOHANG);

		if (r < 0 || (r == pid && !WIFSTOPPED(ws)))
			break;
		if (r == 0 && nat_wait_round(target, pid, &ws, 0) == 1 &&
		    !WIFSTOPPED(ws))
			break;
	}
	nat_debug(target, "killed process %d", (int) pid);
	nat_remove_process(target, proc);
	return 0;
}

int nat_interrupt(struct nat_target *target)
{
	struct nat_process *proc = nat_find_process(target,
						    target->interrupt_pid);

	if (!proc)
		proc = target->procs;
	if (!proc)
		return -pse_noproc;
	/* As gdbserver: the whole process group of a program we started.  */
	if (!proc->attached && kill(-proc->pid, SIGINT) == 0)
		return 0;
	return kill(proc->pid, SIGINT) < 0 ? -pse_noproc : 0;
}

void nat_hold_stopped(struct nat_target *target, pid_t pid, int all)
{
	for (struct nat_process *p = target->procs; p; p = p->next) {
		if (pid != -1 && p->pid != pid)
			continue;
		for (struct nat_thread *t = p->threads; t; t = t->next) {
			if (t->resumed || t->has_pending ||
			    (t->stop_known && !all))
				continue;
			t->resumed = 1;
			t->resume_kind = nat_resume_cont;
			t->stop_known = 0;
		}
	}
}
