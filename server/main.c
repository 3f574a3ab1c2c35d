/* ptstub: the command line, gdbserver's, and the connection loop.  */
#include "config.h"
#include "server/server.h"
#include "server/rsp_listen.h"
#include "rec/recorder.h"
#include "server/srv_postmortem.h"
#include "nat/btrace.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void usage(FILE *out)
{
	fputs("Usage:\tptstub [OPTIONS] COMM PROG [ARGS ...]\n"
	      "\tptstub record [OPTIONS] -- PROG [ARGS ...]  (see record --help)\n"
	      "\tptstub [--once] --postmortem BUNDLE COMM\n"
	      "\tptstub [OPTIONS] --attach COMM PID\n"
	      "\tptstub [OPTIONS] --multi COMM\n"
	      "\n"
	      "COMM is HOST:PORT to listen for a TCP connection (:PORT listens on\n"
	      "the loopback interface only), or '-' or 'stdio' to use ptstub's\n"
	      "stdin/stdout.\n"
	      "PROG is the executable program.  ARGS are arguments passed to it.\n"
	      "PID is the process ID to attach to, when --attach is specified.\n"
	      "\n"
	      "Operating modes:\n"
	      "  --attach              Attach to the running process PID.\n"
	      "  --multi               Start without a process; the client runs or\n"
	      "                        attaches (target extended-remote).\n"
	      "  --once                Exit after the first connection closes.\n"
	      "  --postmortem BUNDLE   Serve the crash bundle BUNDLE (written by\n"
	      "                        ptstub record) as a stopped process, its\n"
	      "                        saved trace for record btrace.\n"
	      "\n"
	      "Other options:\n"
	      "  --startup-with-shell  Start PROG through $SHELL (the default).\n"
	      "  --no-startup-with-shell\n"
	      "                        Exec PROG directly.\n"
	      "  --disable-randomization\n"
	      "  --no-disable-randomization\n"
	      "                        Run PROG with address randomization off (the\n"
	      "                        default) or on.\n"
	      "  --wrapper WRAPPER --  Run new programs through WRAPPER (a command\n"
	      "                        and its arguments, e.g. env A=1).\n"
	      "  --btrace-source=SRC   Where branch traces come from: auto (the\n"
	      "                        default: the hardware when present, else\n"
	      "                        the trace emulator), hardware or emulated.\n"
	      "  --btrace-engine=ENG   How the emulator records a running thread:\n"
	      "                        ptrace (breakpoint-and-emulate), cache (the\n"
	      "                        in-process code cache, every traced\n"
	      "                        thread; falls back to ptrace) or auto\n"
	      "                        (the default: ptrace for now).\n"
	      "  --disable-packet=LIST Act as an older stub (for GDB's testsuite):\n"
	      "                        vCont, Tthread, qC, qfThreadInfo, T, threads.\n"
	      "  --debug               Log what the native layer does.\n"
	      "  --remote-debug        Log every packet.\n"
	      "  --debug-file=FILE     Write the logs to FILE instead of stderr.\n"
	      "  --selftest            Say that ptstub has no built-in self tests\n"
	      "                        (its unit tests are `make check`).\n"
	      "  --help                Print this message and exit.\n"
	      "  --version             Print the version and exit.\n", out);
}

enum {
	opt_once = 256, opt_multi, opt_attach, opt_debug, opt_remote_debug,
	opt_debug_file, opt_help, opt_version, opt_shell, opt_no_shell,
	opt_norandom, opt_random, opt_btrace_source, opt_wrapper, opt_selftest,
	opt_disable_packet, opt_postmortem, opt_btrace_engine,
};

static const struct option options[] = {
	{ "once", no_argument, NULL, opt_once },
	{ "multi", no_argument, NULL, opt_multi },
	{ "attach", no_argument, NULL, opt_attach },
	{ "debug", no_argument, NULL, opt_debug },
	{ "remote-debug", no_argument, NULL, opt_remote_debug },
	{ "debug-file", required_argument, NULL, opt_debug_file },
	{ "help", no_argument, NULL, opt_help },
	{ "version", no_argument, NULL, opt_version },
	{ "startup-with-shell", no_argument, NULL, opt_shell },
	{ "no-startup-with-shell", no_argument, NULL, opt_no_shell },
	{ "disable-randomization", no_argument, NULL, opt_norandom },
	{ "no-disable-randomization", no_argument, NULL, opt_random },
	{ "btrace-source", required_argument, NULL, opt_btrace_source },
	{ "btrace-engine", required_argument, NULL, opt_btrace_engine },
	{ "disable-packet", required_argument, NULL, opt_disable_packet },
	{ "wrapper", no_argument, NULL, opt_wrapper },
	{ "selftest", no_argument, NULL, opt_selftest },
	{ "postmortem", required_argument, NULL, opt_postmortem },
	{ NULL, 0, NULL, 0 },
};

/* --wrapper takes the words up to "--", as gdbserver's does; joined with
   blanks into WRAPPER for the shell.  Returns the index after "--", or
   -1 for no words or no "--".  */
static int parse_wrapper(int argc, char **argv, int i, struct ps_buf *wrapper)
{
	int first = i;

	ps_buf_reset(wrapper);
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (i > first)
			ps_buf_putc(wrapper, ' ');
		ps_buf_puts(wrapper, argv[i]);
	}
	if (i == first || i == argc)
		return -1;
	return i + 1;
}

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

/* --postmortem: the bundle served until the client kills, detaches or
   (with --once, or over stdio) leaves.  */
static int serve_postmortem(const char *file, const char *comm,
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
		char host[256];
		int fd = 0, port = 0;

		if (stdio) {
			rsp_conn_init(&conn, 0, 1);
		} else {
			err = rsp_listen_accept(&listener, &fd, host,
						sizeof(host), &port);
			if (err < 0)
				break;
			fprintf(stderr, "Remote debugging from host %s, port "
				"%d\n", host, port);
			rsp_conn_init(&conn, fd, fd);
		}
		if (opts->remote_debug)
			rsp_conn_set_debug(&conn, opts->debug_file ?
					   opts->debug_file : stderr);
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

int main(int argc, char **argv)
{
	struct srv_options opts = { 0 };
	struct rsp_listener listener;
	struct nat_target target;
	struct nat_start_opts *start;
	struct srv srv;
	int attach = 0, c, err, shell = 1, norandom = 1, status = 0;
	int btrace_policy = nat_btrace_auto;
	int btrace_engine = nat_btrace_engine_auto;
	const char *comm, *postmortem = NULL;
	pid_t attach_pid = 0;
	struct ps_buf wrapper;

	/* `ptstub record`: the flight recorder, no client.  */
	if (argc > 1 && !strcmp(argv[1], "record"))
		return rec_main(argc - 1, argv + 1);

	ps_buf_init(&wrapper);

	while ((c = getopt_long(argc, argv, "+", options, NULL)) != -1) {
		switch (c) {
		case opt_once: opts.once = 1; break;
		case opt_multi: opts.multi = 1; break;
		case opt_attach: attach = 1; break;
		case opt_debug: opts.debug = 1; break;
		case opt_remote_debug: opts.remote_debug = 1; break;
		case opt_debug_file:
			opts.debug_file = fopen(optarg, "w");
			if (!opts.debug_file) {
				fprintf(stderr, "Cannot open %s: %s\n", optarg,
					strerror(errno));
				return 1;
			}
			setvbuf(opts.debug_file, NULL, _IOLBF, 0);
			break;
		case opt_help: usage(stdout); return 0;
		case opt_version:
			printf("ptstub %s\n", PACKAGE_VERSION);
			return 0;
		case opt_shell: shell = 1; break;
		case opt_no_shell: shell = 0; break;
		case opt_norandom: norandom = 1; break;
		case opt_random: norandom = 0; break;
		case opt_btrace_source:
			if (!strcmp(optarg, "auto"))
				btrace_policy = nat_btrace_auto;
			else if (!strcmp(optarg, "hardware"))
				btrace_policy = nat_btrace_hardware;
			else if (!strcmp(optarg, "emulated"))
				btrace_policy = nat_btrace_emulated;
			else {
				fprintf(stderr, "Bad --btrace-source %s: "
					"use auto, hardware or emulated.\n", optarg);
				return 1;
			}
			break;
		case opt_btrace_engine:
			if (!strcmp(optarg, "auto"))
				btrace_engine = nat_btrace_engine_auto;
			else if (!strcmp(optarg, "ptrace"))
				btrace_engine = nat_btrace_engine_ptrace;
			else if (!strcmp(optarg, "cache"))
				btrace_engine = nat_btrace_engine_cache;
			else {
				fprintf(stderr, "Bad --btrace-engine %s: "
					"use auto, ptrace or cache.\n", optarg);
				return 1;
			}
			break;
		case opt_selftest:
			/* gdbserver's answer when built without self tests:
			   ptstub's are the unit tests `make check` runs.  */
			puts("Selftests have been disabled for this build.");
			return 1;
		case opt_wrapper:
			optind = parse_wrapper(argc, argv, optind, &wrapper);
			if (optind < 0) {
				usage(stderr);
				return 1;
			}
			break;
		case opt_disable_packet: {
			const char *bad;
			size_t n;

			/* GDB's testsuite emulates old stubs with this.  */
			if (srv_parse_disable(optarg, &opts.disabled, &bad,
					      &n) < 0) {
				fprintf(stderr, "Don't know how to disable "
					"\"%.*s\".\n", (int) n, bad);
				return 1;
			}
			break;
		}
		case opt_postmortem: postmortem = optarg; break;
		default: usage(stderr); return 1;
		}
	}
	if (postmortem) {
		if (optind != argc - 1) {
			usage(stderr);
			return 1;
		}
		return serve_postmortem(postmortem, argv[optind], &opts);
	}
	if (optind >= argc) {
		usage(stderr);
		return 1;
	}
	comm = argv[optind++];
	/* gdbserver still takes --attach after COMM, its old place.  */
	if (optind < argc && !strcmp(argv[optind], "--attach")) {
		attach = 1;
		optind++;
	}
	if (attach) {
		char *end;
		long pid;

		if (optind != argc - 1) {
			usage(stderr);
			return 1;
		}
		pid = strtol(argv[optind], &end, 10);
		if (*end || pid <= 0 || pid > 0x7fffffff) {
			fprintf(stderr, "Bad process ID: %s\n", argv[optind]);
			return 1;
		}
		attach_pid = (pid_t) pid;
	} else if (optind == argc && !opts.multi) {
		usage(stderr);
		return 1;
	}

	/* The client leaving must not kill us through a broken pipe.  */
	signal(SIGPIPE, SIG_IGN);
	if (nat_target_init(&target) < 0) {
		fprintf(stderr, "Cannot set up ptrace: %s\n", strerror(errno));
		return 1;
	}
	start = nat_target_start_opts(&target);
	start->startup_with_shell = shell;
	start->disable_randomization = norandom;
	nat_target_set_btrace(&target, btrace_policy, btrace_engine);
	start->wrapper = wrapper.len ? wrapper.data : NULL;
	if (opts.debug)
		nat_target_set_debug(&target,
				     opts.debug_file ? opts.debug_file : stderr);
	opts.stdio = !strcmp(comm, "-") || !strcmp(comm, "stdio");
	start->keep_stdio_free = opts.stdio;
	srv_init(&srv, &target, &opts);
	srv.program_argv = optind < argc ? &argv[optind] : NULL;

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
	if (attach)
		err = srv_attach_program(&srv, attach_pid);
	else if (optind < argc)
		err = srv_start_program(&srv, &argv[optind]);
	else
		err = 0;
	if (err < 0) {
		fprintf(stderr, "Exiting\n");
		status = 1;
		goto out;
	}
	if (!opts.stdio)
		fprintf(stderr, "Listening on port %d\n", rsp_listen_port(&listener));

	for (;;) {
		struct rsp_conn conn;
		char host[256];
		int fd = 0, port = 0;

		if (opts.stdio) {
			fprintf(stderr, "Remote debugging using stdio\n");
			rsp_conn_init(&conn, 0, 1);
		} else {
			err = rsp_listen_accept(&listener, &fd, host, sizeof(host),
						&port);
			if (err < 0)
				break;
			fprintf(stderr, "Remote debugging from host %s, port %d\n",
				host, port);
			rsp_conn_init(&conn, fd, fd);
		}
		if (opts.remote_debug)
			rsp_conn_set_debug(&conn, opts.debug_file ? opts.debug_file
								 : stderr);
		/* Like gdbserver: with --once nobody else may connect.  */
		if (opts.once && !opts.stdio) {
			term_listen_fd = -1;
			rsp_listen_close(&listener);
		}
		term_conn_fd = opts.stdio ? 0 : fd;
		if (!term_signal)
			err = srv_serve(&srv, &conn);
		term_conn_fd = -1;
		rsp_conn_fini(&conn);
		if (!opts.stdio)
			close(fd);
		if (srv.exit_server || opts.once || opts.stdio || term_signal)
			break;
		if (!opts.multi && !nat_first_process(&target))
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
	ps_buf_fini(&wrapper);
	return status;
}
