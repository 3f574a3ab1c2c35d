/* `ptstub record`: the command line, and the program's exit status
   passed on as ptstub's own.  */
#include "rec/recorder.h"
#include "nat/btrace.h"
#include "common/ps_error.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

static void rec_usage(FILE *out)
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
	      "  --stats               When the program exits, what each\n"
	      "                        thread's engine recorded and how\n"
	      "                        (the code cache's exits by cause),\n"
	      "                        as `monitor btrace status` says it.\n"
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

enum {
	opt_size = 256, opt_ended_size, opt_format, opt_full, opt_inherit, opt_trigger,
	opt_trigger_count, opt_at_exit, opt_stats, opt_attach, opt_source, opt_engine,
	opt_norandom,
	opt_random, opt_help,
};

static const struct option rec_options_long[] = {
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
	{ "attach", no_argument, NULL, opt_attach },
	{ "btrace-source", required_argument, NULL, opt_source },
	{ "btrace-engine", required_argument, NULL, opt_engine },
	{ "disable-randomization", no_argument, NULL, opt_norandom },
	{ "no-disable-randomization", no_argument, NULL, opt_random },
	{ "help", no_argument, NULL, opt_help },
	{ NULL, 0, NULL, 0 },
};

/* BYTES with an optional K, M or G suffix.  */
static int rec_parse_size(const char *text, size_t *size)
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

static int rec_parse(int argc, char **argv, struct rec_options *o,
		     int *attach, int *norandom)
{
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:", rec_options_long,
				NULL)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case opt_size:
			if (rec_parse_size(optarg, &o->size) < 0) {
				fprintf(stderr, "ptstub record: bad --size %s: "
					"use BYTES, with K, M or G\n", optarg);
				return -1;
			}
			break;
		case opt_ended_size:
			if (rec_parse_size(optarg, &o->ended_size) < 0) {
				fprintf(stderr, "ptstub record: bad "
					"--ended-size %s: use BYTES, with K, "
					"M or G\n", optarg);
				return -1;
			}
			break;
		case opt_format:
			if (!strcmp(optarg, "pt"))
				o->format = trace_format_pt;
			else if (!strcmp(optarg, "bts"))
				o->format = trace_format_bts;
			else {
				fprintf(stderr, "ptstub record: bad --format "
					"%s: use pt or bts\n", optarg);
				return -1;
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
				return -1;
			}
			o->trigger_count = (unsigned) n;
			break;
		}
		case opt_at_exit: o->at_exit = 1; break;
		case opt_stats: o->stats = 1; break;
		case opt_attach: *attach = 1; break;
		case opt_source:
			if (!strcmp(optarg, "auto"))
				o->policy = nat_btrace_auto;
			else if (!strcmp(optarg, "hardware"))
				o->policy = nat_btrace_hardware;
			else if (!strcmp(optarg, "emulated"))
				o->policy = nat_btrace_emulated;
			else {
				fprintf(stderr, "ptstub record: bad "
					"--btrace-source %s: use auto, "
					"hardware or emulated\n", optarg);
				return -1;
			}
			break;
		case opt_engine:
			if (!strcmp(optarg, "auto"))
				o->engine = nat_btrace_engine_auto;
			else if (!strcmp(optarg, "ptrace"))
				o->engine = nat_btrace_engine_ptrace;
			else if (!strcmp(optarg, "cache"))
				o->engine = nat_btrace_engine_cache;
			else {
				fprintf(stderr, "ptstub record: bad "
					"--btrace-engine %s: use auto, "
					"ptrace or cache\n", optarg);
				return -1;
			}
			break;
		case opt_norandom: *norandom = 1; break;
		case opt_random: *norandom = 0; break;
		case opt_help: rec_usage(stdout); exit(0);
		default: rec_usage(stderr); return -1;
		}
	}
	if (o->trigger_count && !o->trigger) {
		fputs("ptstub record: --trigger-count needs --trigger\n",
		      stderr);
		return -1;
	}
	return 0;
}

int rec_main(int argc, char **argv)
{
	struct rec_options o = {
		.output = "ptstub.ptb", .size = 4u << 20,
		.format = trace_format_pt, .policy = nat_btrace_auto,
		.log = stderr,
	};
	struct nat_target target;
	struct recorder rec;
	int attach = 0, norandom = 0, status = 0, err;

	if (rec_parse(argc, argv, &o, &attach, &norandom) < 0)
		return 2;
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
	if (attach ? optind != argc - 1 : optind >= argc) {
		rec_usage(stderr);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (nat_target_init(&target) < 0) {
		fprintf(stderr, "ptstub record: cannot set up ptrace: %s\n",
			strerror(errno));
		return 1;
	}
	target.start.startup_with_shell = 0;
	target.start.disable_randomization = norandom;
	if (rec_init(&rec, &target, &o) < 0) {
		fprintf(stderr, "ptstub record: cannot set up: %s\n",
			strerror(errno));
		return 1;
	}
	if (attach) {
		char *end;
		long pid = strtol(argv[optind], &end, 10);

		if (*end || pid <= 0 || pid > 0x7fffffff) {
			fprintf(stderr, "ptstub record: bad process ID: %s\n",
				argv[optind]);
			return 2;
		}
		err = rec_attach(&rec, (pid_t) pid);
	} else {
		err = rec_start(&rec, &argv[optind]);
	}
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
