/* Process lifecycle packets: !, vRun, R, vAttach, vKill, k and D.  */
#define _GNU_SOURCE
#include "server/server.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int srv_ok(struct srv *srv)
{
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

/* The first stop of a process just started or attached is SIGTRAP, as
   gdbserver pretends for attach too.  */
static void srv_first_stop(struct srv *srv, pid_t pid)
{
	memset(&srv->last, 0, sizeof(srv->last));
	srv->last.kind = nat_ev_stopped;
	srv->last.pid = pid;
	srv->last.tid = pid;
	srv->last.sig = 5;  /* SIGTRAP on Linux and on the wire alike */
	srv->have_last = 1;
	srv->general.pid = pid;
	srv->general.tid = pid;
}

/* All-stop: the leader stopped with a signal as we attached (not our
   SIGSTOP): that signal is the attach's stop, as gdbserver reports it.  */
static void srv_attach_signal(struct srv *srv, pid_t pid)
{
	struct nat_thread *t = nat_find_thread(srv->target, pid, pid);

	int sig;

	if (srv->non_stop || !t)
		return;
	sig = nat_thread_take_signal_stop(t);
	if (sig)
		srv->last.sig = sig;
}

/* gdbserver's rule: a bare name that is a file in ptstub's working
   directory means that file, by absolute path (else PATH decides).
   Returns the path to use, malloc'd, or NULL to use NAME as is.  */
static char *srv_absolute_program(const char *name)
{
	struct stat st;
	char *cwd, *path;

	if (strchr(name, '/') || stat(name, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	if (asprintf(&path, "%s/%s", cwd, name) < 0)
		path = NULL;
	free(cwd);
	return path;
}

static void srv_free_argv(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* A deep copy of ARGV with PROGRAM as its first element.  */
static char **srv_copy_argv(const char *program, char *const argv[])
{
	size_t n = 0;
	char **copy;

	while (argv[n])
		n++;
	copy = calloc(n + 1, sizeof(*copy));
	if (!copy)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		copy[i] = strdup(i ? argv[i] : program);
		if (!copy[i]) {
			srv_free_argv(copy);
			return NULL;
		}
	}
	return copy;
}

void srv_process_fini(struct srv *srv)
{
	srv_free_argv(srv->last_argv);
	srv->last_argv = NULL;
}

int srv_start_program(struct srv *srv, char *const argv[])
{
	int status = 0, err;
	char *abs = srv_absolute_program(argv[0]);
	char **run = srv_copy_argv(abs ? abs : argv[0], argv);
	pid_t pid;

	free(abs);
	if (!run)
		return -pse_nomem;
	/* Remembered even if it fails to start: R and an empty vRun name
	   mean what the client last asked for, as with gdbserver.  */
	srv_free_argv(srv->last_argv);
	srv->last_argv = run;
	err = nat_create_inferior(srv->target, run, &pid, &status);
	if (err == -pse_noproc) {
		/* errno: why the child's own exec failed, 0 if it did not.  */
		if (errno)
			fprintf(stderr, "ptstub: Cannot exec %s\nptstub: Error: %s\n",
				run[0], strerror(errno));
		fprintf(stderr, "During startup program exited with code %d.\n",
			status);
		return err;
	}
	if (err < 0) {
		fprintf(stderr, "Cannot start %s: %s.\n", run[0],
			ps_errstr(err));
		return err;
	}
	fprintf(stderr, "Process %s created; pid = %d\n", run[0], (int) pid);
	srv_first_stop(srv, pid);
	return 0;
}

/* One process at a time unless the client handles several.  */
static int srv_busy(struct srv *srv)
{
	if ((srv->extended && srv->multiprocess) ||
	    !nat_first_process(srv->target))
		return 0;
	fprintf(stderr, "Already debugging a process\n");
	ps_buf_puts(&srv->reply, "E01");
	return 1;
}

static int srv_vrun(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("vRun;"), *end = pkt + len;
	struct ps_buf args;
	char **argv = NULL;
	size_t argc = 0;
	int err = 0;

	if (srv_busy(srv))
		return srv_reply;
	ps_buf_init(&args);
	/* Arguments are hex, separated by ';'; keep them NUL-separated.  */
	for (;;) {
		const char *field;
		size_t flen;
		int more = rsp_next_field(&p, end, ';', &field, &flen);
		const char *q = field;

		if (more != 1)
			break;
		if (rsp_parse_hex_string(&q, field + flen, &args) < 0 ||
		    q != field + flen) {
			err = -pse_invalid;
			goto out;
		}
		ps_buf_putc(&args, '\0');
		argc++;
	}
	/* "vRun;" alone: an empty name and no arguments (GDB's second
	   inferior without a remote exec-file).  */
	if (!argc && p == end && end == pkt + strlen("vRun;")) {
		ps_buf_putc(&args, '\0');
		argc = 1;
	}
	if (!argc) {
		err = -pse_invalid;
		goto out;
	}
	argv = calloc(argc + 1, sizeof(*argv));
	if (!argv) {
		err = -pse_nomem;
		goto out;
	}
	for (size_t i = 0, off = 0; i < argc; i++) {
		argv[i] = args.data + off;
		off += strlen(argv[i]) + 1;
	}
	/* An empty name means the program last run, or the one ptstub
	   was started with.  */
	if (!*argv[0]) {
		if (srv->last_argv)
			argv[0] = srv->last_argv[0];
		else if (srv->program_argv && srv->program_argv[0])
			argv[0] = srv->program_argv[0];
		else {
			err = srv_error_text(srv, "No program to run.");
			goto out;
		}
	}
	ps_buf_reset(&srv->reply);
	err = srv_start_program(srv, argv);
	if (err < 0)
		err = srv_error_text(srv, "Failed to start program.");
	else
		err = srv_stop_reply(srv, &srv->last) < 0 ? -pse_internal
							   : srv_reply;
out:
	free(argv);
	ps_buf_fini(&args);
	return err;
}

static int srv_parse_pid(const char *p, const char *end, pid_t *pid)
{
	uint64_t v;

	if (ps_hex_parse_u64(&p, end, &v) < 0 || p != end || !v ||
	    v > 0x7fffffff)
		return -pse_invalid;
	*pid = (pid_t) v;
	return 0;
}

int srv_attach_program(struct srv *srv, pid_t pid)
{
	int err = nat_attach(srv->target, pid);

	if (err < 0) {
		fprintf(stderr, "Cannot attach to process %d: %s (%d)\n",
			(int) pid, strerror(errno), errno);
		return err;
	}
	fprintf(stderr, "Attached; pid = %d\n", (int) pid);
	srv_first_stop(srv, pid);
	srv_attach_signal(srv, pid);
	return 0;
}

static int srv_vattach(struct srv *srv, const char *pkt, size_t len)
{
	pid_t pid;

	if (srv_parse_pid(pkt + strlen("vAttach;"), pkt + len, &pid) < 0)
		return -pse_invalid;
	if (srv_busy(srv))
		return srv_reply;
	if (srv_attach_program(srv, pid) < 0)
		return srv_error_text(srv, "Cannot attach to process.");
	if (srv_stop_reply(srv, &srv->last) < 0)
		return -pse_internal;
	/* Non-stop: GDB takes the threads as running and stops them; the
	   stops follow as notifications.  */
	if (srv->non_stop && srv->reply.len) {
		nat_hold_stopped(srv->target, srv->last.pid, 1);
		ps_buf_reset(&srv->reply);
		ps_buf_puts(&srv->reply, "OK");
	}
	return srv_reply;
}

/* With no process left and no extended protocol, there is nothing more
   to debug: gdbserver exits then too.  */
static void srv_maybe_exit(struct srv *srv)
{
	if (!srv->extended && !nat_first_process(srv->target))
		srv->exit_server = 1;
}

static int srv_detach(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + 1, *end = pkt + len;
	pid_t pid = 0;

	if (p < end) {
		if (*p != ';' || srv_parse_pid(p + 1, end, &pid) < 0)
			return -pse_invalid;
	}
	if (!pid) {
		struct nat_process *proc = srv_general_process(srv);

		if (!proc)
			return srv_error_text(srv, "No process.");
		pid = nat_process_pid(proc);
	}
	fprintf(stderr, "Detaching from process %d\n", (int) pid);
	if (nat_detach(srv->target, pid) < 0)
		return srv_error_text(srv, "No such process.");
	srv_maybe_exit(srv);
	return srv_ok(srv);
}

/* R (extended-remote, when vRun is off): kill everything and start
   the last program again, stopped at its first instruction.  GDB reads
   no reply; its '?' then finds the new process.  */
static int srv_restart(struct srv *srv)
{
	char **argv;

	if (!srv->extended)
		return srv_reply;
	while (nat_first_process(srv->target))
		nat_kill(srv->target, nat_process_pid(nat_first_process(srv->target)));
	srv->have_last = 0;
	fprintf(stderr, "ptstub restarting\n");
	argv = srv->last_argv ? srv->last_argv : srv->program_argv;
	if (!argv || !argv[0])
		return srv_no_reply;
	/* srv_start_program replaces last_argv: run from a copy.  */
	argv = srv_copy_argv(argv[0], argv);
	if (!argv)
		return srv_no_reply;
	srv_start_program(srv, argv);
	srv_free_argv(argv);
	return srv_no_reply;
}

int srv_handle_process(struct srv *srv, const char *pkt, size_t len)
{
	switch (pkt[0]) {
	case 'R':
		return srv_restart(srv);
	case '!':
		srv->extended = 1;
		return srv_ok(srv);
	case 'k':
		while (nat_first_process(srv->target))
			nat_kill(srv->target, nat_process_pid(nat_first_process(srv->target)));
		srv->have_last = 0;
		/* k is never answered (GDB reads no reply); in plain remote
		   it also ends the session.  */
		if (!srv->extended)
			srv->exit_server = 1;
		return srv_no_reply;
	case 'D':
		return srv_detach(srv, pkt, len);
	}
	if (srv_prefix(pkt, len, "vRun;"))
		return srv_vrun(srv, pkt, len);
	if (srv_prefix(pkt, len, "vAttach;"))
		return srv_vattach(srv, pkt, len);
	if (srv_prefix(pkt, len, "vKill;")) {
		pid_t pid;

		if (srv_parse_pid(pkt + strlen("vKill;"), pkt + len, &pid) < 0)
			return -pse_invalid;
		if (nat_kill(srv->target, pid) < 0)
			return srv_error_text(srv, "No such process.");
		return srv_ok(srv);
	}
	return srv_reply;
}
