/* ptstub's command line: both modes read the options they share alike
   (trace source and engine, randomization, a process ID), each with
   its own defaults and words for what is wrong.  */
#include "main/cmdline.h"
#include "nat/btrace.h"
#include "common/ps_buf.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <string.h>

static int stub(struct cmdline_stub *cmd, char **argv)
{
	static struct ps_buf wrapper;
	int argc = 0;

	while (argv[argc])
		argc++;
	ps_buf_init(&wrapper);
	return cmdline_parse_stub(argc, argv, cmd, &wrapper);
}

static int record(struct rec_command *cmd, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return cmdline_parse_record(argc, argv, cmd);
}

/* What the test wrote to stderr, redirected.  */
static const char *stderr_text(char *text, size_t size)
{
	FILE *f = cr_get_redirected_stderr();
	size_t n = fread(text, 1, size - 1, f);

	text[n] = 0;
	return text;
}

Test(cmdline, the_stub_s_defaults_and_program)
{
	char *argv[] = { "ptstub", ":1234", "./prog", "a", NULL };
	struct cmdline_stub cmd;

	cr_assert_eq(stub(&cmd, argv), -1);
	cr_assert_str_eq(cmd.run.comm, ":1234");
	cr_assert_eq(cmd.run.argv, &argv[2]);
	cr_assert_eq(cmd.run.startup_with_shell, 1);
	cr_assert_eq(cmd.run.disable_randomization, 1);
	cr_assert_eq(cmd.run.btrace_policy, nat_btrace_auto);
	cr_assert_eq(cmd.run.btrace_engine, nat_btrace_engine_auto);
	cr_assert_eq(cmd.run.attach_pid, 0);
	cr_assert_null(cmd.postmortem);
}

Test(cmdline, record_s_defaults_and_program)
{
	char *argv[] = { "record", "--", "./prog", NULL };
	struct rec_command cmd;

	cr_assert_eq(record(&cmd, argv), -1);
	cr_assert_str_eq(cmd.opts.output, "ptstub.ptb");
	cr_assert_eq(cmd.opts.size, 4u << 20);
	cr_assert_eq(cmd.opts.format, trace_format_pt);
	cr_assert_eq(cmd.disable_randomization, 0);
	cr_assert_eq(cmd.opts.policy, nat_btrace_auto);
	cr_assert_eq(cmd.opts.engine, nat_btrace_engine_auto);
	cr_assert_eq(cmd.argv, &argv[2]);
	cr_assert_eq(cmd.attach, 0);
}

Test(cmdline, shared_options_read_alike)
{
	char *s[] = { "ptstub", "--btrace-source=emulated",
		      "--btrace-engine=cache", "--no-disable-randomization",
		      "--attach", "-", "4242", NULL };
	char *r[] = { "record", "--btrace-source=emulated",
		      "--btrace-engine=cache", "--disable-randomization",
		      "--attach", "4242", NULL };
	struct cmdline_stub sc;
	struct rec_command rc;

	cr_assert_eq(stub(&sc, s), -1);
	cr_assert_eq(record(&rc, r), -1);
	cr_assert_eq(sc.run.btrace_policy, nat_btrace_emulated);
	cr_assert_eq(rc.opts.policy, nat_btrace_emulated);
	cr_assert_eq(sc.run.btrace_engine, nat_btrace_engine_cache);
	cr_assert_eq(rc.opts.engine, nat_btrace_engine_cache);
	cr_assert_eq(sc.run.disable_randomization, 0);
	cr_assert_eq(rc.disable_randomization, 1);
	cr_assert_eq(sc.run.attach_pid, 4242);
	cr_assert(rc.attach);
	cr_assert_eq(rc.pid, 4242);
}

Test(cmdline, the_stub_s_errors_exit_1, .init = cr_redirect_stderr)
{
	char *a[] = { "ptstub", "--btrace-source=magic", "-", "p", NULL };
	char *b[] = { "ptstub", "--attach", "-", "12x", NULL };
	char *c[] = { "ptstub", NULL };
	const char *expect =
		"Bad --btrace-source magic: use auto, hardware or emulated.\n"
		"Bad process ID: 12x\n"
		"Usage:\tptstub [OPTIONS] COMM PROG [ARGS ...]\n";
	struct cmdline_stub cmd;
	char text[4096];
	const char *said;

	cr_assert_eq(stub(&cmd, a), 1);
	cr_assert_eq(stub(&cmd, b), 1);
	cr_assert_eq(stub(&cmd, c), 1);
	fflush(stderr);
	said = stderr_text(text, sizeof(text));
	cr_assert_eq(strncmp(said, expect, strlen(expect)), 0, "%s", said);
}

Test(cmdline, record_s_errors_exit_2, .init = cr_redirect_stderr)
{
	char *a[] = { "record", "--btrace-engine=magic", "--", "p", NULL };
	char *b[] = { "record", "--attach", "0", NULL };
	char *c[] = { "record", "--trigger-count=2", "--", "p", NULL };
	char *d[] = { "record", "--size=12X", "--", "p", NULL };
	char *e[] = { "record", "--format=lbr", "--", "p", NULL };
	char *f[] = { "record", "--format=bts", "--", "p", NULL };
	struct rec_command cmd;

	cr_assert_eq(record(&cmd, a), 2);
	cr_assert_eq(record(&cmd, b), 2);
	cr_assert_eq(record(&cmd, c), 2);
	cr_assert_eq(record(&cmd, d), 2);
	cr_assert_eq(record(&cmd, e), 2);
	cr_assert_eq(record(&cmd, f), -1);
	cr_assert_eq(cmd.opts.format, trace_format_bts);
	fflush(stderr);
	cr_assert_stderr_eq_str(
		"ptstub record: bad --btrace-engine magic: use auto, ptrace "
		"or cache\n"
		"ptstub record: bad process ID: 0\n"
		"ptstub record: --trigger-count needs --trigger\n"
		"ptstub record: bad --size 12X: use BYTES, with K, M or G\n"
		"ptstub record: bad --format lbr: use pt or bts\n",
		"");
}

Test(cmdline, postmortem_takes_a_bundle_and_comm)
{
	char *argv[] = { "ptstub", "--once", "--postmortem", "b.ptb", ":9",
			 NULL };
	struct cmdline_stub cmd;

	cr_assert_eq(stub(&cmd, argv), -1);
	cr_assert_str_eq(cmd.postmortem, "b.ptb");
	cr_assert_str_eq(cmd.run.comm, ":9");
	cr_assert(cmd.run.srv.once);
}
