/* `ptstub record`: the recording main's command line asks for (its
   options are parsed with the stub's, main/cmdline.c), and the
   program's exit status passed on as ptstub's own.  */
#include "rec/recorder.h"
#include "nat/btrace.h"
#include "common/ps_error.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* Die as the program died, so that whoever waits for ptstub sees the
   same status; no core of ptstub (the bundle has the program's).  */
static int rec_pass_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		struct rlimit none = { 0, 0 };
		sigset_t mask;
		int sig = WTERMSIG(status);

		fflush(NULL);
		setrlimit(RLIMIT_CORE, &none);
		signal(sig, SIG_DFL);
		sigemptyset(&mask);
		sigaddset(&mask, sig);
		sigprocmask(SIG_UNBLOCK, &mask, NULL);
		raise(sig);
		return 128 + sig;
	}
	return 0;
}

int rec_main(struct rec_command *cmd)
{
	struct rec_options o = cmd->opts;
	struct nat_target target;
	struct recorder rec;
	int attach = cmd->attach, status = 0, err;

	if (!o.trigger_count)
		o.trigger_count = 1;
	/* The code cache drains its log into the ring at stops and when
	   the log fills, which can wrap a small ring before --full takes
	   it: a whole trace is the ptrace engine's until the ring is
	   drained as it fills.  */
	if (o.full && o.engine == nat_btrace_engine_auto) {
		o.engine = nat_btrace_engine_ptrace;
		fprintf(o.log, "ptstub record: --full records with the ptrace "
			"engine (--btrace-engine=cache may lose what wraps "
			"the ring between drains)\n");
	}
	/* Room for sixteen ended threads' whole rings.  */
	if (!o.ended_size)
		o.ended_size = 16 * o.size;
	signal(SIGPIPE, SIG_IGN);
	if (nat_target_init(&target) < 0) {
		fprintf(stderr, "ptstub record: cannot set up ptrace: %s\n",
			strerror(errno));
		return 1;
	}
	target.start.startup_with_shell = 0;
	target.start.disable_randomization = cmd->disable_randomization;
	if (rec_init(&rec, &target, &o) < 0) {
		fprintf(stderr, "ptstub record: cannot set up: %s\n",
			strerror(errno));
		return 1;
	}
	if (attach)
		err = rec_attach(&rec, cmd->pid);
	else
		err = rec_start(&rec, cmd->argv);
	/* rec_start, rec_attach and the trigger's lookup say why they
	   failed themselves.  */
	if (!err) {
		err = rec_run(&rec, &status);
		if (err < 0 && err != -pse_notfound)
			fprintf(stderr, "ptstub record: %s\n", ps_errstr(err));
	}
	rec_full_report(&rec);
	/* Whatever is still traced (fork children, a failed start) goes.  */
	while (target.procs) {
		if (target.procs->attached || err >= 0)
			nat_detach(&target, target.procs->pid);
		else
			nat_kill(&target, target.procs->pid);
	}
	/* The recording ended before the program we started: it is still
	   our child, and its status is still ours to pass on.  */
	if (!attach && err >= 0 && rec.want_detach && rec.pid > 0 &&
	    waitpid(rec.pid, &status, 0) < 0)
		status = 0;
	rec_fini(&rec);
	nat_target_fini(&target);
	if (err < 0)
		return rec.start_status ? rec.start_status : 1;
	return rec_pass_status(status);
}
