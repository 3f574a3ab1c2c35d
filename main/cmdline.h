/* ptstub's command line, both modes parsed here once: the stub's
   (gdbserver's options and its own) into server/srv_run.h's options,
   `ptstub record`'s into rec/recorder.h's.  What both modes take
   (--btrace-source, --btrace-engine, --[no-]disable-randomization, a
   process ID) is read by the same code.  */
#ifndef MAIN_CMDLINE_H
#define MAIN_CMDLINE_H

#include "server/srv_run.h"
#include "rec/recorder.h"

/* What the stub's command line asks for.  */
struct cmdline_stub {
	struct srv_run_options run;
	const char *postmortem;    /* --postmortem BUNDLE, or NULL */
};

/* Parse the stub's command line (ARGV[0] is ptstub) into CMD: -1 to go
   on, or the status to exit with now (--help, --version, --selftest, a
   bad word, said on stdout or stderr).  CMD->run.srv.debug_file is
   open if set: the caller's to close.  */
int cmdline_parse_stub(int argc, char **argv, struct cmdline_stub *cmd,
		       struct ps_buf *wrapper);

/* Parse `ptstub record`'s (ARGV[0] is "record") into CMD, defaults
   filled in: -1 to go on, or the status to exit with now (--help: 0;
   a bad word: 2).  */
int cmdline_parse_record(int argc, char **argv, struct rec_command *cmd);

#endif
