/* A session of ptstub as main starts it: the target set up as the
   command line says, the program started or attached to, then one
   client's connection after another until the last one ends, the
   client asks ptstub to exit or a signal (SIGTERM, SIGHUP) ends it;
   and the same for a crash bundle served post-mortem.  */
#ifndef SERVER_SRV_RUN_H
#define SERVER_SRV_RUN_H

#include "server/server.h"

#include <sys/types.h>

struct srv_run_options {
	struct srv_options srv;     /* what the server keeps for itself */
	const char *comm;           /* HOST:PORT, :PORT, "-" or "stdio" */
	char **argv;                /* PROG ARGS, or NULL (none, --attach) */
	pid_t attach_pid;           /* --attach, or 0 */
	int startup_with_shell;
	int disable_randomization;
	int btrace_policy;          /* enum nat_btrace_policy */
	int btrace_engine;          /* enum nat_btrace_engine */
	const char *wrapper;        /* --wrapper's words, or NULL */
};

/* Run the session OPTS describes; ptstub's exit status.  */
int srv_run(struct srv_run_options *opts);

/* --postmortem: the crash bundle FILE served at COMM until the client
   kills, detaches or (with --once, or over stdio) leaves; ptstub's exit
   status.  */
int srv_run_postmortem(const char *file, const char *comm,
		       const struct srv_options *opts);

#endif
