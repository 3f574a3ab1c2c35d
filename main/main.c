/* ptstub: the command line read once (cmdline.c), then either front
   end: the stub serving a client (server/srv_run.h) or `ptstub record`
   recording without one (rec/recorder.h), side by side below main.  */
#include "main/cmdline.h"
#include "common/ps_buf.h"

#include <stdio.h>
#include <string.h>

/* The stub: a session, or --postmortem's.  */
static int main_stub(int argc, char **argv)
{
	struct cmdline_stub cmd;
	struct ps_buf wrapper;
	int status;

	ps_buf_init(&wrapper);
	status = cmdline_parse_stub(argc, argv, &cmd, &wrapper);
	if (status < 0 && cmd.postmortem)
		status = srv_run_postmortem(cmd.postmortem, cmd.run.comm,
					    &cmd.run.srv);
	else if (status < 0)
		status = srv_run(&cmd.run);
	if (cmd.run.srv.debug_file)
		fclose(cmd.run.srv.debug_file);
	ps_buf_fini(&wrapper);
	return status;
}

static int main_record(int argc, char **argv)
{
	struct rec_command cmd;
	int status = cmdline_parse_record(argc, argv, &cmd);

	return status < 0 ? rec_main(&cmd) : status;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "record"))
		return main_record(argc - 1, argv + 1);
	return main_stub(argc, argv);
}
