/* ptstub's command line (cmdline.h): the stub's and `ptstub record`'s
   options, what both take read by the same code.  */
#include "config.h"
#include "main/cmdline.h"
#include "nat/btrace.h"
#include "common/ps_buf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void stub_usage(FILE *out)
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

static void record_usage(FILE *out)
{
	fputs("Usage:\tptstub record [OPTIONS] -- PROG [ARGS ...]\n"
	      "\tptstub record [OPTIONS] --attach PID\n"
	      "\n"
	      "Run PROG (or attach to PID) with every thread's branches traced\n"
	      "into a ring, and write a trace bundle for ptbtrace or\n"
	      "`ptstub --postmortem` when a trigger fires: SIGUSR2 sent to\n"
	      "ptstub, the program dying of SIGSEGV, SIGBUS, SIGILL, SIGFPE or\n"
	      "SIGABRT (the bundle then holds its core), --trigger, --at-exit.\n"
	      "Snapshots go to FILE, FILE.1, FILE.2, ...; ptstub exits with\n"
	      "the program's status.\n"
	      "\n"
	      "  -o, --output=FILE     The first snapshot's file (ptstub.ptb).\n"
	      "  --size=BYTES          Each thread's ring (4M; K, M, G suffixes).\n"
	      "  --ended-size=BYTES    The traces of threads that ended, kept\n"
	      "                        for later snapshots (each its ring's\n"
	      "                        last), at most BYTES in all (16 rings:\n"
	      "                        64M); past it the oldest go first.\n"
	      "  --format=pt|bts       The trace format (pt).\n"
	      "  --full                Keep the whole trace, not the last ring's\n"
	      "                        worth; one bundle at the end.  What the\n"
	      "                        rings lost before they were drained is\n"
	      "                        reported.\n"
	      "  --inherit             Trace fork children too.\n"
	      "  --trigger=FUNC        A snapshot when the program enters FUNC.\n"
	      "  --trigger-count=N     ... on its Nth entry (1).\n"
	      "  --at-exit             A snapshot when the program exits.\n"
	      "  --stats               When the program exits (or --attach\n"
	      "                        ends), what each thread's engine\n"
	      "                        recorded and how (the code cache's\n"
	      "                        exits by cause), as `monitor btrace\n"
	      "                        status` says it.\n"
	      "  --attach              Record the running process PID; SIGINT or\n"
	      "                        SIGTERM to ptstub ends the recording.\n"
	      "  --btrace-source=SRC   auto, hardware or emulated (auto).\n"
	      "  --btrace-engine=ENG   The emulator's engine: auto, ptrace or\n"
	      "                        cache (auto: the code cache; with\n"
	      "                        --full, ptrace).\n"
	      "  --disable-randomization\n"
	      "  --no-disable-randomization\n"
	      "                        Run PROG with address randomization off or\n"
	      "                        on (on: as it runs without ptstub).\n"
	      "  --help                Print this message.\n", out);
}

/* Both modes' options: one code each, the shared ones alike.  */
enum {
	/* Both.  */
	opt_attach = 256, opt_help, opt_btrace_source, opt_btrace_engine,
	opt_norandom, opt_random,
	/* The stub.  */
	opt_once, opt_multi, opt_debug, opt_remote_debug, opt_debug_file,
	opt_version, opt_shell, opt_no_shell, opt_wrapper, opt_selftest,
	opt_disable_packet, opt_postmortem,
	/* ptstub record.  */
	opt_size, opt_ended_size, opt_format, opt_full, opt_inherit,
	opt_trigger, opt_trigger_count, opt_at_exit, opt_stats,
};

#define BOTH_OPTIONS \
	{ "attach", no_argument, NULL, opt_attach }, \
	{ "help", no_argument, NULL, opt_help }, \
	{ "btrace-source", required_argument, NULL, opt_btrace_source }, \
	{ "btrace-engine", required_argument, NULL, opt_btrace_engine }, \
	{ "disable-randomization", no_argument, NULL, opt_norandom }, \
	{ "no-disable-randomization", no_argument, NULL, opt_random }

static const struct option stub_options[] = {
	BOTH_OPTIONS,
	{ "once", no_argument, NULL, opt_once },
	{ "multi", no_argument, NULL, opt_multi },
	{ "debug", no_argument, NULL, opt_debug },
	{ "remote-debug", no_argument, NULL, opt_remote_debug },
	{ "debug-file", required_argument, NULL, opt_debug_file },
	{ "version", no_argument, NULL, opt_version },
	{ "startup-with-shell", no_argument, NULL, opt_shell },
	{ "no-startup-with-shell", no_argument, NULL, opt_no_shell },
	{ "disable-packet", required_argument, NULL, opt_disable_packet },
	{ "wrapper", no_argument, NULL, opt_wrapper },
	{ "selftest", no_argument, NULL, opt_selftest },
	{ "postmortem", required_argument, NULL, opt_postmortem },
	{ NULL, 0, NULL, 0 },
};

static const struct option record_options[] = {
	BOTH_OPTIONS,
	{ "output", required_argument, NULL, 'o' },
	{ "size", required_argument, NULL, opt_size },
	{ "ended-size", required_argument, NULL, opt_ended_size },
	{ "format", required_argument, NULL, opt_format },
	{ "full", no_argument, NULL, opt_full },
	{ "inherit", no_argument, NULL, opt_inherit },
	{ "trigger", required_argument, NULL, opt_trigger },
	{ "trigger-count", required_argument, NULL, opt_trigger_count },
	{ "at-exit", no_argument, NULL, opt_at_exit },
	{ "stats", no_argument, NULL, opt_stats },
	{ NULL, 0, NULL, 0 },
};

/* What both modes take.  */
struct both {
	int attach;
	int policy;               /* enum nat_btrace_policy */
	int engine;               /* enum nat_btrace_engine */
	int norandom;
};

/* An option's words and what each means, up to a NULL name.  */
struct word {
	const char *name;
	int value;
};

static const struct word sources[] = {
	{ "auto", nat_btrace_auto }, { "hardware", nat_btrace_hardware },
	{ "emulated", nat_btrace_emulated }, { NULL, 0 },
};

static const struct word engines[] = {
	{ "auto", nat_btrace_engine_auto },
	{ "ptrace", nat_btrace_engine_ptrace },
	{ "cache", nat_btrace_engine_cache }, { NULL, 0 },
};

static const struct word formats[] = {
	{ "pt", trace_format_pt }, { "bts", trace_format_bts }, { NULL, 0 },
};

/* TEXT's meaning among WORDS into *VALUE; -1 if it is none of them.  */
static int parse_word(const struct word *words, const char *text,
		      int *value)
{
	for (; words->name; words++)
		if (!strcmp(words->name, text)) {
			*value = words->value;
			return 0;
		}
	return -1;
}

/* One of the options both modes take, C with its argument TEXT, into
   B: 1 if it was one, 0 if not, -1 if its argument is bad (said on
   stderr, prefixed by PREFIX, with END after the text: each mode keeps
   its own wording).  */
static int parse_both(int c, const char *text, struct both *b,
		      const char *prefix, const char *end)
{
	switch (c) {
	case opt_attach: b->attach = 1; return 1;
	case opt_norandom: b->norandom = 1; return 1;
	case opt_random: b->norandom = 0; return 1;
	case opt_btrace_source:
		if (parse_word(sources, text, &b->policy) < 0) {
			fprintf(stderr, "%s --btrace-source %s: use auto, "
				"hardware or emulated%s\n", prefix, text, end);
			return -1;
		}
		return 1;
	case opt_btrace_engine:
		if (parse_word(engines, text, &b->engine) < 0) {
			fprintf(stderr, "%s --btrace-engine %s: use auto, "
				"ptrace or cache%s\n", prefix, text, end);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* A process ID as both modes take it; 0 if TEXT is none.  */
static pid_t parse_pid(const char *text)
{
	char *end;
	long pid = strtol(text, &end, 10);

	if (*end || end == text || pid <= 0 || pid > 0x7fffffff)
		return 0;
	return (pid_t) pid;
}

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

/* BYTES with an optional K, M or G suffix.  */
static int parse_size(const char *text, size_t *size)
{
	unsigned long long n, mult = 1;
	char *end;

	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno || end == text)
		return -1;
	if (*end == 'K' || *end == 'k')
		mult = 1ull << 10, end++;
	else if (*end == 'M' || *end == 'm')
		mult = 1ull << 20, end++;
	else if (*end == 'G' || *end == 'g')
		mult = 1ull << 30, end++;
	if (*end || !n || n > (1ull << 32) / mult)
		return -1;
	*size = (size_t) (n * mult);
	return 0;
}

int cmdline_parse_stub(int argc, char **argv, struct cmdline_stub *cmd,
		       struct ps_buf *wrapper)
{
	struct srv_options *opts = &cmd->run.srv;
	struct both both = {
		.policy = nat_btrace_auto, .engine = nat_btrace_engine_auto,
		.norandom = 1,
	};
	int c, shell = 1, r;

	memset(cmd, 0, sizeof(*cmd));
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", stub_options, NULL)) != -1) {
		r = parse_both(c, optarg, &both, "Bad", ".");
		if (r < 0)
			return 1;
		if (r)
			continue;
		switch (c) {
		case opt_once: opts->once = 1; break;
		case opt_multi: opts->multi = 1; break;
		case opt_debug: opts->debug = 1; break;
		case opt_remote_debug: opts->remote_debug = 1; break;
		case opt_debug_file:
			if (opts->debug_file)
				fclose(opts->debug_file);
			opts->debug_file = fopen(optarg, "w");
			if (!opts->debug_file) {
				fprintf(stderr, "Cannot open %s: %s\n", optarg,
					strerror(errno));
				return 1;
			}
			setvbuf(opts->debug_file, NULL, _IOLBF, 0);
			break;
		case opt_help: stub_usage(stdout); return 0;
		case opt_version:
			printf("ptstub %s\n", PACKAGE_VERSION);
			return 0;
		case opt_shell: shell = 1; break;
		case opt_no_shell: shell = 0; break;
		case opt_selftest:
			/* gdbserver's answer when built without self tests:
			   ptstub's are the unit tests `make check` runs.  */
			puts("Selftests have been disabled for this build.");
			return 1;
		case opt_wrapper:
			optind = parse_wrapper(argc, argv, optind, wrapper);
			if (optind < 0) {
				stub_usage(stderr);
				return 1;
			}
			break;
		case opt_disable_packet: {
			const char *bad;
			size_t n;

			/* GDB's testsuite emulates old stubs with this.  */
			if (srv_parse_disable(optarg, &opts->disabled, &bad,
					      &n) < 0) {
				fprintf(stderr, "Don't know how to disable "
					"\"%.*s\".\n", (int) n, bad);
				return 1;
			}
			break;
		}
		case opt_postmortem: cmd->postmortem = optarg; break;
		default: stub_usage(stderr); return 1;
		}
	}
	if (cmd->postmortem) {
		if (optind != argc - 1) {
			stub_usage(stderr);
			return 1;
		}
		cmd->run.comm = argv[optind];
		return -1;
	}
	if (optind >= argc) {
		stub_usage(stderr);
		return 1;
	}
	cmd->run.comm = argv[optind++];
	/* gdbserver still takes --attach after COMM, its old place.  */
	if (optind < argc && !strcmp(argv[optind], "--attach")) {
		both.attach = 1;
		optind++;
	}
	if (both.attach) {
		if (optind != argc - 1) {
			stub_usage(stderr);
			return 1;
		}
		cmd->run.attach_pid = parse_pid(argv[optind]);
		if (!cmd->run.attach_pid) {
			fprintf(stderr, "Bad process ID: %s\n", argv[optind]);
			return 1;
		}
	} else if (optind == argc && !opts->multi) {
		stub_usage(stderr);
		return 1;
	}
	cmd->run.argv = optind < argc ? &argv[optind] : NULL;
	cmd->run.startup_with_shell = shell;
	cmd->run.disable_randomization = both.norandom;
	cmd->run.btrace_policy = both.policy;
	cmd->run.btrace_engine = both.engine;
	cmd->run.wrapper = wrapper->len ? wrapper->data : NULL;
	return -1;
}

int cmdline_parse_record(int argc, char **argv, struct rec_command *cmd)
{
	struct rec_options *o = &cmd->opts;
	struct both both = {
		.policy = nat_btrace_auto, .engine = nat_btrace_engine_auto,
		.norandom = 0,
	};
	int c, r;

	memset(cmd, 0, sizeof(*cmd));
	*o = (struct rec_options) {
		.output = "ptstub.ptb", .size = 4u << 20,
		.format = trace_format_pt, .log = stderr,
	};
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:", record_options,
				NULL)) != -1) {
		r = parse_both(c, optarg, &both, "ptstub record: bad", "");
		if (r < 0)
			return 2;
		if (r)
			continue;
		switch (c) {
		case 'o': o->output = optarg; break;
		case opt_size:
			if (parse_size(optarg, &o->size) < 0) {
				fprintf(stderr, "ptstub record: bad --size %s: "
					"use BYTES, with K, M or G\n", optarg);
				return 2;
			}
			break;
		case opt_ended_size:
			if (parse_size(optarg, &o->ended_size) < 0) {
				fprintf(stderr, "ptstub record: bad "
					"--ended-size %s: use BYTES, with K, "
					"M or G\n", optarg);
				return 2;
			}
			break;
		case opt_format:
			if (parse_word(formats, optarg, &o->format) < 0) {
				fprintf(stderr, "ptstub record: bad --format "
					"%s: use pt or bts\n", optarg);
				return 2;
			}
			break;
		case opt_full: o->full = 1; break;
		case opt_inherit: o->inherit = 1; break;
		case opt_trigger: o->trigger = optarg; break;
		case opt_trigger_count: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !n || n > 0xffffffffu) {
				fprintf(stderr, "ptstub record: bad "
					"--trigger-count %s\n", optarg);
				return 2;
			}
			o->trigger_count = (unsigned) n;
			break;
		}
		case opt_at_exit: o->at_exit = 1; break;
		case opt_stats: o->stats = 1; break;
		case opt_help: record_usage(stdout); return 0;
		default: record_usage(stderr); return 2;
		}
	}
	if (o->trigger_count && !o->trigger) {
		fputs("ptstub record: --trigger-count needs --trigger\n",
		      stderr);
		return 2;
	}
	if (both.attach ? optind != argc - 1 : optind >= argc) {
		record_usage(stderr);
		return 2;
	}
	if (both.attach) {
		cmd->pid = parse_pid(argv[optind]);
		if (!cmd->pid) {
			fprintf(stderr, "ptstub record: bad process ID: %s\n",
				argv[optind]);
			return 2;
		}
	} else
		cmd->argv = &argv[optind];
	cmd->attach = both.attach;
	cmd->disable_randomization = both.norandom;
	o->policy = both.policy;
	o->engine = both.engine;
	return -1;
}
