/* A session of ptstub (srv_run.h): the connection loop main hands the
   command line's options to.  */
#include "server/srv_run.h"
#include "server/rsp_listen.h"
#include "server/srv_postmortem.h"
#include "nat/btrace.h"
#include "common/ps_error.h"

#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ptstub runs what any client asks, as its own user: say so when the
   network can reach it (a host was named that is not loopback).  */
static void ptstub_warn_exposure(const struct rsp_listener *l,
				 const char *comm)
{
	int exposure = rsp_listen_exposure(l);
	const struct passwd *pw = getpwuid(geteuid());
	char user[64];

	if (exposure == rsp_exposed_none)
		return;
	if (pw)
		snprintf(user, sizeof(user), "%s", pw->pw_name);
	else
		snprintf(user, sizeof(user), "uid %d", (int) geteuid());
	fprintf(stderr, "Warning: listening on %s (%s): anyone who can "
		"reach port %d can run programs and read or write files as "
		"user %s.  Use :%d for this machine only (an SSH tunnel "
		"reaches it from elsewhere).\n",
		exposure == rsp_exposed_all ? "every network interface"
		: "a network address", comm, rsp_listen_port(l), user,
		rsp_listen_port(l));
}

/* SIGTERM, SIGHUP: end the way a client's leaving ends the session, so
   that release_all runs (an attached process is detached with its
   breakpoints and the emulator's traps taken out, not left to die of
   SIGTRAP).  The handler only records the signal and shuts the sockets
   down: every wait ptstub blocks in then sees the connection end.  The
   one global state of ptstub, because a handler needs it.  */
static volatile sig_atomic_t term_signal, term_conn_fd = -1,
	term_listen_fd = -1;

static void on_terminate(int sig)
{
	term_signal = sig;
	if (term_conn_fd >= 0 && shutdown(term_conn_fd, SHUT_RDWR) < 0)
		close(term_conn_fd);   /* stdio: not a socket */
	if (term_listen_fd >= 0)
		shutdown(term_listen_fd, SHUT_RDWR);
}

static void catch_terminate(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_terminate;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked accept or poll returns at once.  */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* A process ptstub started dies with the session; one it attached to
   is let go, as gdbserver does.  */
static void release_all(struct nat_target *target)
{
	struct nat_process *proc;

	while ((proc = nat_first_process(target))) {
		if (nat_process_attached(proc))
			nat_detach(target, nat_process_pid(proc));
		else
			nat_kill(target, nat_process_pid(proc));
	}
}

/* The next client: ptstub's stdin and stdout (STDIO), or a connection
   accepted on L and said on stderr; CONN set up, with --remote-debug's
   log.  *FD is the socket (0 for stdio).  */
static int srv_run_connect(struct rsp_listener *l, int stdio,
			   const struct srv_options *opts,
			   struct rsp_conn *conn, int *fd)
{
	char host[256];
	int port = 0, err;

	*fd = 0;
	if (stdio) {
		rsp_conn_init(conn, 0, 1);
	} else {
		err = rsp_listen_accept(l, fd, host, sizeof(host), &port);
		if (err < 0)
			return err;
		fprintf(stderr, "Remote debugging from host %s, port %d\n",
			host, port);
		rsp_conn_init(conn, *fd, *fd);
	}
	if (opts->remote_debug)
		rsp_conn_set_debug(conn, opts->debug_file ? opts->debug_file
				   : stderr);
	return 0;
}

int srv_run_postmortem(const char *file, const char *comm,
		       const struct srv_options *opts)
{
	struct rsp_listener listener;
	struct srv_pm pm;
	int stdio = !strcmp(comm, "-") || !strcmp(comm, "stdio"), err = 0;

	signal(SIGPIPE, SIG_IGN);
	if (srv_pm_init(&pm, file) < 0)
		return 1;
	rsp_listen_init(&listener);
	if (!stdio && rsp_listen_open(&listener, comm) < 0) {
		fprintf(stderr, "%s\nExiting\n", rsp_listen_error(&listener));
		srv_pm_fini(&pm);
		return 1;
	}
	fprintf(stderr, "Post-mortem image of process %d from %s\n",
		(int) pm.image.bundle.pid, file);
	if (!stdio)
		fprintf(stderr, "Listening on port %d\n",
			rsp_listen_port(&listener));
	while (!pm.done) {
		struct rsp_conn conn;
		int fd;

		err = srv_run_connect(&listener, stdio, opts, &conn, &fd);
		if (err < 0)
			break;
		err = srv_pm_serve(&pm, &conn);
		rsp_conn_fini(&conn);
		if (!stdio)
			close(fd);
		if (stdio || opts->once)
			break;
	}
	rsp_listen_fini(&listener);
	srv_pm_fini(&pm);
	return err < 0 ? 1 : 0;
}

int srv_run(struct srv_run_options *run)
{
	struct srv_options *opts = &run->srv;
	struct rsp_listener listener;
	struct nat_target target;
	struct nat_start_opts *start;
	struct srv srv;
	const char *comm = run->comm;
	int err, status = 0;

	/* The client leaving must not kill us through a broken pipe.  */
	signal(SIGPIPE, SIG_IGN);
	if (nat_target_init(&target) < 0) {
		fprintf(stderr, "Cannot set up ptrace: %s\n", strerror(errno));
		return 1;
	}
	start = nat_target_start_opts(&target);
	start->startup_with_shell = run->startup_with_shell;
	start->disable_randomization = run->disable_randomization;
	nat_target_set_btrace(&target, run->btrace_policy,
			      run->btrace_engine);
	start->wrapper = run->wrapper;
	if (opts->debug)
		nat_target_set_debug(&target, opts->debug_file ?
				     opts->debug_file : stderr);
	opts->stdio = !strcmp(comm, "-") || !strcmp(comm, "stdio");
	start->keep_stdio_free = opts->stdio;
	srv_init(&srv, &target, opts);
	srv.program_argv = run->argv;

	/* Like gdbserver: a COMM that cannot be listened on is reported
	   before any program starts.  */
	rsp_listen_init(&listener);
	err = rsp_listen_open(&listener, comm);
	if (err < 0) {
		fprintf(stderr, "%s\n", rsp_listen_error(&listener));
		fprintf(stderr, "Exiting\n");
		return 1;
	}

	ptstub_warn_exposure(&listener, comm);
	term_listen_fd = listener.fd;
	catch_terminate();
	/* A wait that may last (a step in a blocking system call) ends on
	   it too.  */
	nat_target_set_quit(&target, &term_signal);
	if (run->attach_pid)
		err = srv_attach_program(&srv, run->attach_pid);
	else if (run->argv)
		err = srv_start_program(&srv, run->argv);
	else
		err = 0;
	if (err < 0) {
		fprintf(stderr, "Exiting\n");
		status = 1;
		goto out;
	}
	if (!opts->stdio)
		fprintf(stderr, "Listening on port %d\n", rsp_listen_port(&listener));

	for (;;) {
		struct rsp_conn conn;
		int fd;

		if (opts->stdio)
			fprintf(stderr, "Remote debugging using stdio\n");
		err = srv_run_connect(&listener, opts->stdio, opts, &conn,
				      &fd);
		if (err < 0)
			break;
		/* Like gdbserver: with --once nobody else may connect.  */
		if (opts->once && !opts->stdio) {
			term_listen_fd = -1;
			rsp_listen_close(&listener);
		}
		term_conn_fd = opts->stdio ? 0 : fd;
		if (!term_signal)
			err = srv_serve(&srv, &conn);
		term_conn_fd = -1;
		rsp_conn_fini(&conn);
		if (!opts->stdio)
			close(fd);
		if (srv.exit_server || opts->once || opts->stdio || term_signal)
			break;
		if (!opts->multi && !nat_first_process(&target))
			break;
		fprintf(stderr, "Remote side has terminated connection.  "
			"ptstub will reopen the connection.\n");
		fprintf(stderr, "Listening on port %d\n", rsp_listen_port(&listener));
	}

	if (term_signal) {
		fprintf(stderr, "ptstub: %s: killing the programs it started, "
			"detaching from those it attached to.\n",
			strsignal(term_signal));
		status = 128 + term_signal;
	}
out:
	release_all(&target);
	srv_process_fini(&srv);
	srv_monitor_fini(&srv);
	srv_fini(&srv);
	rsp_listen_fini(&listener);
	nat_target_fini(&target);
	return status;
}
