/* ptbtrace: GDB's btrace histories from a trace bundle, without GDB.
   Output is meant to diff cleanly against GDB's for the same trace.  */
#include "btrace/ptbtrace.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct bt_tool {
	int json;
	unsigned int size;        /* function-call-history-size; 0 = all */
	const char *format;       /* export's --format */
	const char *output;       /* export's -o */
	const char *debug_dir;    /* --debug-file-directory, or NULL */
	const char *command;
	const char *file;
	int32_t thread;           /* --thread: the thread to work on, or 0 */
	char args[512];           /* the command's arguments, GDB's text */
};

/* Everything one command works on, released together.  */
struct bt_session {
	struct bt_bundle bundle;
	struct bt_exec_span span;  /* a trace across an exec */
	struct bt_image *image;
	struct bt_ftrace *ftrace;
};

static void bt_usage(FILE *out)
{
	fputs("usage: ptbtrace [--json] [--size=N] COMMAND [ARGS] FILE|HOST:PORT\n"
	      "commands:\n"
	      "  info                        like GDB's `info record`\n"
	      "  call-history [/ilc] [RANGE] like `record "
	      "function-call-history`\n"
	      "  insn-history [/mrfbp] [RANGE]  like `record "
	      "instruction-history`\n"
	      "  replay                      the replay cursor: commands on "
	      "stdin\n"
	      "                              (begin, end, goto N, [reverse-]"
	      "stepi,\n"
	      "                              [reverse-]step, [reverse-]next, "
	      "[reverse-]finish)\n"
	      "  packets [RANGE]             like `maint btrace "
	      "packet-history`\n"
	      "  maint-info                  like `maint info btrace`\n"
	      "  export --format=folded|chrome  stacks for flame graphs, or\n"
	      "                              Chrome trace events\n"
	      "  export --format=perf -o OUT  perf.data for perf script and "
	      "perf report\n"
	      "  export --format=lldb DIR    LLDB's trace bundle in DIR "
	      "(trace load\n"
	      "                              DIR/trace.json)\n"
	      "options:\n"
	      "  --json       print JSON instead of GDB's text\n"
	      "  --format=F   export's format: folded, chrome, perf or lldb\n"
	      "  -o FILE      export's output file (perf: required)\n"
	      "  --thread=TID the thread of a bundle with several (info "
	      "lists them;\n"
	      "               the default is the trigger's, else the "
	      "first)\n"
	      "  --debug-file-directory=DIR  where separate debug files are\n"
	      "               (GDB's setting; default /usr/lib/debug, empty "
	      "for none)\n"
	      "  --size=N     the history window (GDB's "
	      "function-call-history-size or\n"
	      "               instruction-history-size, default 10; 0 is "
	      "unlimited)\n"
	      "  --help       print this text\n", out);
}

static int bt_parse_args(struct bt_tool *tool, int argc, char **argv)
{
	const char *words[64];
	int nwords = 0;

	memset(tool, 0, sizeof(*tool));
	tool->size = 10;

	for (int i = 1; i < argc; ++i) {
		const char *a = argv[i];

		if (strcmp(a, "--json") == 0)
			tool->json = 1;
		else if (strncmp(a, "--format=", 9) == 0)
			tool->format = a + 9;
		else if (strcmp(a, "-o") == 0 && i + 1 < argc)
			tool->output = argv[++i];
		else if (strncmp(a, "--output=", 9) == 0)
			tool->output = a + 9;
		else if (strncmp(a, "--thread=", 9) == 0) {
			char *end;
			long n;

			errno = 0;
			n = strtol(a + 9, &end, 10);
			if (errno || *end || !a[9] || n <= 0 || n > 0x7fffffff) {
				fprintf(stderr, "ptbtrace: bad thread: %s\n",
					a + 9);
				return -1;
			}
			tool->thread = (int32_t) n;
		} else if (strncmp(a, "--debug-file-directory=", 23) == 0)
			tool->debug_dir = a + 23;
		else if (strncmp(a, "--size=", 7) == 0) {
			char *end;
			unsigned long n;

			errno = 0;
			n = strtoul(a + 7, &end, 10);
			if (errno || *end || !a[7] || n > 0xffffffffu) {
				fprintf(stderr, "ptbtrace: bad size: %s\n",
					a + 7);
				return -1;
			}
			tool->size = (unsigned int) n;
		} else if (strcmp(a, "--help") == 0) {
			bt_usage(stdout);
			exit(0);
		} else if (strncmp(a, "--", 2) == 0 && a[2]) {
			fprintf(stderr, "ptbtrace: unknown option %s\n", a);
			return -1;
		} else if (nwords < 64)
			words[nwords++] = a;
	}

	if (nwords < 2) {
		bt_usage(stderr);
		return -1;
	}
	tool->command = words[0];
	tool->file = words[nwords - 1];
	for (int i = 1; i < nwords - 1; ++i) {
		size_t len = strlen(tool->args);

		if (len + strlen(words[i]) + 2 > sizeof(tool->args)) {
			fputs("ptbtrace: arguments too long\n", stderr);
			return -1;
		}
		snprintf(tool->args + len, sizeof(tool->args) - len, "%s%s",
			 len ? " " : "", words[i]);
	}
	return 0;
}

/* A bundle FILE, or HOST:PORT of a live stub when no such file exists.  */
static int bt_load_input(struct bt_bundle *bundle, const struct bt_tool *tool,
			 struct bt_diag *diag)
{
	const char *file = tool->file;
	int errcode;

	if (access(file, F_OK) != 0 && strchr(file, ':'))
		errcode = bt_live_load(bundle, file, diag);
	else
		errcode = bt_bundle_load(bundle, file, diag);
	if (errcode < 0 || !tool->thread ||
	    bt_bundle_select_thread(bundle, tool->thread) == 0)
		return errcode;
	return bt_diag_set(diag, bte_notfound, 0, 0, "no thread %" PRId32
			   " in the bundle (`ptbtrace info` lists its "
			   "threads)", tool->thread);
}

/* A progress line on a terminal's stderr, for decodes that take more
   than a second (PTBTRACE_PROGRESS_MS changes the second, for tests).  */
struct bt_progress_line {
	struct timespec start, last;
	long after_ms;
	int shown;
};

static long bt_ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 +
	       (now.tv_nsec - t->tv_nsec) / 1000000;
}

static void bt_progress_print(void *ctx, uint64_t done, uint64_t total)
{
	struct bt_progress_line *line = ctx;

	if (bt_ms_since(&line->start) < line->after_ms ||
	    (line->shown && bt_ms_since(&line->last) < 100))
		return;
	clock_gettime(CLOCK_MONOTONIC, &line->last);
	fprintf(stderr, "\rptbtrace: decoding %3u%%",
		total ? (unsigned) (done * 100 / total) : 100u);
	fflush(stderr);
	line->shown = 1;
}

static int bt_session_open(struct bt_session *s, const struct bt_tool *tool)
{
	const char *file = tool->file;
	struct bt_progress_line line = { .after_ms = 1000 };
	const char *after = getenv("PTBTRACE_PROGRESS_MS");
	struct bt_diag diag;
	int errcode;

	memset(s, 0, sizeof(*s));
	bt_diag_init(&diag);
	if (after && *after)
		line.after_ms = atol(after);
	clock_gettime(CLOCK_MONOTONIC, &line.start);
	errcode = bt_load_input(&s->bundle, tool, &diag);
	if (errcode >= 0) {
		errcode = bt_exec_span_apply(&s->bundle, &s->span);
		if (errcode < 0)
			bt_diag_set(&diag, errcode, 0, 0, "out of memory");
	}
	if (errcode > 0 && s->span.cut)
		fprintf(stderr, "ptbtrace: the trace before the exec of %s is "
			"left out (%" PRIu64 " %s): the code before the exec "
			"overlaps other code now\n", s->span.path,
			s->span.cut, s->bundle.format == btf_pt ? "bytes"
			: "blocks");
	if (errcode >= 0)
		errcode = bt_image_alloc_in(&s->image, &s->bundle,
					    tool->debug_dir, &diag);
	if (errcode >= 0)
		errcode = bt_ftrace_build_progress(&s->ftrace, &s->bundle,
						   s->image, &diag,
						   isatty(2) ? bt_progress_print
							     : NULL, &line);
	if (line.shown)
		fputs("\r\033[K", stderr);   /* the line goes away when done */
	if (errcode < 0) {
		bt_diag_print(&diag, file, stderr);
		return -1;
	}
	return 0;
}

static void bt_session_close(struct bt_session *s)
{
	bt_ftrace_free(s->ftrace);
	bt_image_free(s->image);
	bt_exec_span_undo(&s->bundle, &s->span);
	bt_bundle_fini(&s->bundle);
}

/* GDB's record_btrace_adjust_size.  */
static const char *bt_size_suffix(unsigned int *size)
{
	if ((*size & ((1u << 30) - 1)) == 0) {
		*size >>= 30;
		return "GB";
	}
	if ((*size & ((1u << 20) - 1)) == 0) {
		*size >>= 20;
		return "MB";
	}
	if ((*size & ((1u << 10) - 1)) == 0) {
		*size >>= 10;
		return "kB";
	}
	return "";
}

/* What a recorder's bundle adds to `info record`: its threads, its time
   and its trigger.  Single-thread bundles without a trigger (monitor
   btrace save's) print as GDB does; their time is in --json.  */
static void bt_info_threads(const struct bt_bundle *b)
{
	const struct bt_trigger *t = &b->trigger;
	int recorder = b->nthreads > 1 || t->kind != btt_none;

	if (recorder) {
		printf("Threads in the bundle: %zu.\n", b->nthreads);
		for (size_t i = 0; i < b->nthreads; ++i)
			printf("  Thread %d.%d: %zu %s%s%s%s.\n", b->pid,
			       b->threads[i].tid, b->threads[i].trace_size,
			       b->format == btf_pt ? "bytes of trace"
			       : "bytes of blocks",
			       b->threads[i].lost ? ", some lost" : "",
			       b->threads[i].ended ? ", ended" : "",
			       b->threads[i].tid == b->tid ? " (selected)"
			       : "");
	}
	if (b->ended.budget) {
		unsigned int budget = (unsigned int) b->ended.budget;
		const char *suffix = b->ended.budget <= UINT_MAX ?
			bt_size_suffix(&budget) : NULL;

		if (suffix)
			printf("Ended threads: kept within %u%s of trace", budget,
			       suffix);
		else
			printf("Ended threads: kept within %" PRIu64 " bytes "
			       "of trace", b->ended.budget);
		if (b->ended.dropped)
			printf("; %" PRIu32 " dropped, the oldest (%" PRIu64
			       " bytes of trace).\n", b->ended.dropped,
			       b->ended.dropped_bytes);
		else
			printf("; none dropped.\n");
	}
	if (recorder && b->time.mult)
		printf("Time: TSC at %.3f MHz (perf's time_mult %" PRIu32
		       ", time_shift %u, time_zero %" PRIu64 ").\n",
		       1000.0 * (double) (1ull << b->time.shift) /
		       (double) b->time.mult, b->time.mult, b->time.shift,
		       b->time.zero);
	if (t->kind == btt_none)
		return;
	printf("Trigger: %s", bt_trigger_name(t->kind));
	if (t->kind == btt_signal)
		printf(" %d", t->signal);
	if (t->kind == btt_function)
		printf(" %s at 0x%" PRIx64, t->name ? t->name : "?",
		       t->address);
	if (t->tid)
		printf(" in thread %d", t->tid);
	printf(" (snapshot %u).\n", t->sequence);
	if (b->ncore_threads)
		printf("Core: %zu threads, %zu memory regions.\n",
		       b->ncore_threads, b->ncore_pages);
}

/* VALUE (its reference taken) on a line of stdout in jansson's one-line
   form, keys in insertion order: 0, or 1 if it could not be built.  */
static int bt_print_json(json_t *value)
{
	int status = value ? json_dumpf(value, stdout, JSON_PRESERVE_ORDER)
		: -1;

	json_decref(value);
	putchar('\n');
	if (status < 0)
		fputs("ptbtrace: cannot write JSON\n", stderr);
	return status < 0;
}

static json_t *bt_hex_json(uint64_t value)
{
	char text[24];

	snprintf(text, sizeof(text), "0x%" PRIx64, value);
	return json_string(text);
}

/* The bundle's time, null without: perf's conversion (time_zero as hex,
   a u64 that may exceed JSON's integers) and the TSC's frequency.  */
static json_t *bt_info_time_json(const struct bt_bundle *b)
{
	const struct bt_time *t = &b->time;

	if (!t->mult)
		return json_null();
	return json_pack("{s:f, s:I, s:i, s:o}", "tsc_mhz",
			 1000.0 * (double) (1ull << t->shift) /
			 (double) t->mult, "mult", (json_int_t) t->mult,
			 "shift", (int) t->shift, "zero", bt_hex_json(t->zero));
}

static json_t *bt_info_threads_json(const struct bt_bundle *b)
{
	json_t *threads = json_array();

	for (size_t i = 0; threads && i < b->nthreads; ++i)
		if (json_array_append_new(threads, json_pack("{s:i, s:I, s:I, "
				"s:b}", "tid", b->threads[i].tid,
				"trace_bytes",
				(json_int_t) b->threads[i].trace_size,
				"lost", (json_int_t) b->threads[i].lost,
				"ended", b->threads[i].ended))) {
			json_decref(threads);
			threads = NULL;
		}
	return threads;
}

/* The side-band's execs, in order: the program's start (no path: the
   program the bundle names) and each exec after it.  */
static json_t *bt_info_execs_json(const struct bt_bundle *b)
{
	json_t *execs = json_array();

	for (size_t i = 0; execs && i < b->nsideband; ++i)
		if (b->sideband[i].kind == bts_exec &&
		    json_array_append_new(execs, json_pack("{s:i, s:s}",
				"tid", b->sideband[i].tid, "path",
				b->sideband[i].path ? b->sideband[i].path
				: ""))) {
			json_decref(execs);
			execs = NULL;
		}
	return execs;
}

static int bt_cmd_info(const struct bt_tool *tool, struct bt_session *s)
{
	const struct bt_bundle *b = &s->bundle;
	const char *format = b->format == btf_pt ? "Intel Processor Trace"
		: "Branch Trace Store";
	uint32_t insns, calls, gaps;
	unsigned int size = b->buffer_size;
	const char *suffix = bt_size_suffix(&size);

	if (tool->args[0]) {
		fprintf(stderr, "ptbtrace: info takes no arguments\n");
		return 1;
	}
	bt_ftrace_counts(s->ftrace, &insns, &calls, &gaps);

	if (tool->json) {
		const struct bt_trigger *t = &b->trigger;

		return bt_print_json(json_pack("{s:s, s:I, s:i, s:i, s:I, s:I, "
			"s:I, s:I, s:o, s:{s:s, s:i, s:i, s:I}, s:I, s:o, "
			"s:{s:I, s:I, s:I}, s:o}",
			"format", b->format == btf_pt ? "pt" : "bts",
			"buffer_size", (json_int_t) b->buffer_size,
			"pid", b->pid, "tid", b->tid,
			"instructions", (json_int_t) insns,
			"functions", (json_int_t) calls,
			"gaps", (json_int_t) gaps,
			"memory_bytes", (json_int_t) bt_ftrace_memory(s->ftrace),
			"threads", bt_info_threads_json(b),
			"trigger", "kind", bt_trigger_name(t->kind),
			"tid", t->tid, "signal", t->signal,
			"sequence", (json_int_t) t->sequence,
			"core_threads", (json_int_t) b->ncore_threads,
			"execs", bt_info_execs_json(b),
			"ended", "budget", (json_int_t) b->ended.budget,
			"dropped", (json_int_t) b->ended.dropped,
			"dropped_bytes", (json_int_t) b->ended.dropped_bytes,
			"time", bt_info_time_json(b)));
	}

	printf("Active record target: record-btrace\n");
	printf("Recording format: %s.\n", format);
	if (b->buffer_size)
		printf("Buffer size: %u%s.\n", size, suffix);
	/* ptstub speaks the multi-process protocol: GDB names threads so.  */
	printf("Recorded %u instructions in %u functions (%u gaps) for "
	       "thread 1 (Thread %d.%d).\n", insns, calls, gaps, b->pid,
	       b->tid);
	bt_info_threads(b);
	if (s->span.nexecs)
		printf("Across %zu exec%s (of %s%s): each part decoded "
		       "against its program's code.\n", s->span.nexecs,
		       s->span.nexecs == 1 ? "" : "s", s->span.first_path,
		       s->span.nexecs == 1 ? "" : ", ...");
	else if (s->span.cut)
		printf("Before the exec of %s: left out (its code overlaps "
		       "the new program's).\n", s->span.path);
	return 0;
}

/* The packet commands need no image and no function segments.  */
static int bt_cmd_packets(const struct bt_tool *tool, const char *file)
{
	struct bt_bundle bundle;
	struct bt_packets *packets = NULL;
	struct bt_diag diag;
	int status = 1;

	bt_diag_init(&diag);
	if (bt_load_input(&bundle, tool, &diag) < 0 ||
	    bt_packets_alloc(&packets, &bundle, &diag) < 0) {
		bt_diag_print(&diag, file, stderr);
		bt_bundle_fini(&bundle);
		return 1;
	}

	if (strcmp(tool->command, "maint-info") == 0) {
		if (tool->args[0])
			fputs("Invalid argument.\n", stderr);
		else if (tool->json)
			status = bt_print_json(json_pack("{s:s, s:I}",
				"format", bundle.format == btf_pt ? "pt" : "bts",
				"packets", (json_int_t) bt_packets_count(packets)));
		else
			status = bt_maint_info_print(stdout, packets) < 0;
	} else if ((tool->json ? bt_packet_history_print_json(stdout,
			packets, tool->args, &diag)
		    : bt_packet_history_print(stdout, packets, tool->args,
					      &diag)) < 0)
		fprintf(stderr, "%s\n", diag.text);
	else
		status = 0;

	bt_packets_free(packets);
	bt_bundle_fini(&bundle);
	return status;
}

/* call-history and insn-history: GDB's arguments, then the window.  */
static int bt_cmd_history(const struct bt_tool *tool, struct bt_session *s,
			  int insns)
{
	struct bt_call_range range;
	struct bt_diag diag;
	uint64_t pc = s->bundle.has_pc ? s->bundle.pc : 0;
	int flags, errcode;

	bt_diag_init(&diag);
	flags = insns ? bt_insn_history_parse(tool->args, &range, &diag)
		: bt_call_history_parse(tool->args, &range, &diag);
	if (flags < 0) {
		fprintf(stderr, "%s\n", diag.text);
		return 1;
	}
	if (insns)
		errcode = (tool->json ? bt_insn_history_print_json
			   : bt_insn_history_print)(stdout, s->ftrace,
						    s->image, &range, flags,
						    tool->size, pc, &diag);
	else
		errcode = (tool->json ? bt_call_history_print_json
			   : bt_call_history_print)(stdout, s->ftrace,
						    s->image, &range, flags,
						    tool->size, &diag);
	if (errcode < 0) {
		fflush(stdout);
		fprintf(stderr, "%s\n", diag.text);
		return 1;
	}
	return 0;
}

/* One replay command line: its command, direction and number.  */
static int bt_replay_parse(const char *line, enum bt_replay_cmd *cmd,
			   int *reverse, uint32_t *number)
{
	static const struct {
		const char *name;
		enum bt_replay_cmd cmd;
	} names[] = {
		{ "begin", btrc_begin }, { "end", btrc_end },
		{ "goto", btrc_goto }, { "stepi", btrc_stepi },
		{ "step", btrc_step }, { "next", btrc_next },
		{ "finish", btrc_finish },
	};
	char word[32];
	int len = 0;

	*reverse = strncmp(line, "reverse-", 8) == 0;
	if (*reverse)
		line += 8;
	while (line[len] && !isspace((unsigned char) line[len]) && len < 31)
		len++;
	memcpy(word, line, (size_t) len);
	word[len] = 0;
	line += len;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
		if (strcmp(word, names[i].name) != 0)
			continue;
		*cmd = names[i].cmd;
		if (*cmd == btrc_goto) {
			char *end;
			unsigned long n = strtoul(line, &end, 10);

			while (isspace((unsigned char) *end))
				end++;
			if (end == line || *end || n > UINT32_MAX)
				return -1;
			*number = (uint32_t) n;
		} else {
			while (isspace((unsigned char) *line))
				line++;
			if (*line)
				return -1;
		}
		/* Only the steps and finish go backward.  */
		return *reverse && *cmd <= btrc_goto ? -1 : 0;
	}
	return -1;
}

/* Commands from stdin, one a line; after each, where the cursor is:
   "N\t0xPC", or "end\t0xPC" at the live end.  */
static int bt_cmd_replay(const struct bt_tool *tool, struct bt_session *s)
{
	struct bt_replay *replay;
	struct bt_diag diag;
	char line[256];
	int status = 0;

	bt_diag_init(&diag);
	if (tool->args[0]) {
		fputs("ptbtrace: replay reads its commands from stdin\n",
		      stderr);
		return 2;
	}
	if (bt_replay_alloc(&replay, s->ftrace, s->image, &diag) < 0) {
		fprintf(stderr, "%s\n", diag.text);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		enum bt_replay_cmd cmd;
		uint32_t number = 0;
		uint64_t pc;
		int reverse, moved;

		line[strcspn(line, "\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (bt_replay_parse(line, &cmd, &reverse, &number) < 0) {
			fprintf(stderr, "ptbtrace: unknown replay command: "
				"%s\n", line);
			status = 1;
			continue;
		}
		moved = bt_replay_move(replay, cmd, reverse, number, &diag);
		if (moved < 0) {
			fflush(stdout);
			fprintf(stderr, "%s\n", diag.text);
			status = 1;
		}
		bt_replay_position(replay, &number, &pc);
		if (tool->json) {
			if (bt_print_json(json_pack("{s:s, s:o, s:o, s:b}",
					"command", line, "instruction",
					number ? json_integer(number)
					: json_null(), "pc", bt_hex_json(pc),
					"no_more_history", moved == 0)))
				status = 1;
		} else {
			if (moved == 0)
				puts("No more reverse-execution history.");
			if (number)
				printf("%u\t0x%" PRIx64 "\n", number, pc);
			else
				printf("end\t0x%" PRIx64 "\n", pc);
		}
		fflush(stdout);
	}
	bt_replay_free(replay);
	return status;
}

/* perf.data needs the bundle only: no decode, no image.  */
/* An export carries the bundle's mappings, not where an exec came in
   the trace: across an exec, the old program's code joins them (its part
   then decodes), or, where that code overlaps the new program's, the
   export is refused rather than decoded against the wrong code.  */
static int bt_export_span(struct bt_bundle *bundle, struct bt_exec_span *span)
{
	int errcode = bt_exec_span_apply(bundle, span);

	if (errcode < 0) {
		fputs("ptbtrace: out of memory\n", stderr);
		return -1;
	}
	if (span->cut) {
		fprintf(stderr, "ptbtrace: cannot export a trace across the "
			"exec of %s: the code before the exec overlaps the new "
			"program's, and a decoder would read one for the "
			"other\n", span->path);
		bt_exec_span_undo(bundle, span);
		return -1;
	}
	return 0;
}

static int bt_cmd_export_perf(const struct bt_tool *tool)
{
	struct bt_bundle bundle;
	struct bt_exec_span span;
	struct bt_diag diag;
	int status = 0;

	bt_diag_init(&diag);
	if (tool->args[0] || !tool->output) {
		fputs("ptbtrace: export --format=perf wants -o FILE and no "
		      "arguments\n", stderr);
		return 2;
	}
	if (bt_load_input(&bundle, tool, &diag) < 0) {
		bt_diag_print(&diag, tool->file, stderr);
		return 1;
	}
	if (bt_export_span(&bundle, &span) < 0) {
		bt_bundle_fini(&bundle);
		return 1;
	}
	if (bt_export_perf(tool->output, &bundle, &diag) < 0) {
		fprintf(stderr, "ptbtrace: %s\n", diag.text);
		status = 1;
	}
	bt_exec_span_undo(&bundle, &span);
	bt_bundle_fini(&bundle);
	return status;
}

static int bt_cmd_export(const struct bt_tool *tool, struct bt_session *s)
{
	struct bt_diag diag;
	int errcode;

	bt_diag_init(&diag);
	if (tool->args[0] || !tool->format) {
		fputs("ptbtrace: export wants --format=folded|chrome|perf and "
		      "no arguments\n", stderr);
		return 2;
	}
	if (strcmp(tool->format, "folded") == 0)
		errcode = bt_export_folded(stdout, s->ftrace, &diag);
	else if (strcmp(tool->format, "chrome") == 0)
		errcode = bt_export_chrome(stdout, s->ftrace, &s->bundle.time,
					   s->bundle.pid,
					   s->bundle.tid, &diag);
	else {
		fprintf(stderr, "ptbtrace: unknown export format '%s'\n",
			tool->format);
		return 2;
	}
	if (errcode < 0) {
		fprintf(stderr, "%s\n", diag.text);
		return 1;
	}
	return 0;
}

/* export --format=lldb DIR FILE: the bundle alone, nothing decoded.  */
static int bt_cmd_export_lldb(const struct bt_tool *tool)
{
	struct bt_bundle bundle;
	struct bt_exec_span span;
	struct bt_diag diag;
	int status = 0;

	bt_diag_init(&diag);
	if (!tool->args[0] || strchr(tool->args, ' ')) {
		fputs("ptbtrace: export --format=lldb wants a folder: "
		      "export --format=lldb DIR FILE\n", stderr);
		return 2;
	}
	memset(&bundle, 0, sizeof(bundle));
	memset(&span, 0, sizeof(span));
	if (bt_load_input(&bundle, tool, &diag) < 0) {
		bt_diag_print(&diag, "ptbtrace", stderr);
		status = 1;
	} else if (bt_export_span(&bundle, &span) < 0) {
		status = 1;
	} else if (bt_export_lldb(tool->args, &bundle, &diag) < 0) {
		bt_diag_print(&diag, "ptbtrace", stderr);
		status = 1;
	}
	bt_exec_span_undo(&bundle, &span);
	bt_bundle_fini(&bundle);
	return status;
}

int main(int argc, char **argv)
{
	struct bt_tool tool;
	struct bt_session session;
	int status;

	if (bt_parse_args(&tool, argc, argv) < 0)
		return 2;

	if (strcmp(tool.command, "export") == 0 && tool.format &&
	    strcmp(tool.format, "perf") == 0)
		return bt_cmd_export_perf(&tool);
	if (strcmp(tool.command, "export") == 0 && tool.format &&
	    strcmp(tool.format, "lldb") == 0)
		return bt_cmd_export_lldb(&tool);
	if (strcmp(tool.command, "packets") == 0 ||
	    strcmp(tool.command, "maint-info") == 0)
		return bt_cmd_packets(&tool, tool.file);

	if (strcmp(tool.command, "info") != 0 &&
	    strcmp(tool.command, "call-history") != 0 &&
	    strcmp(tool.command, "insn-history") != 0 &&
	    strcmp(tool.command, "replay") != 0 &&
	    strcmp(tool.command, "export") != 0) {
		fprintf(stderr, "ptbtrace: unknown command '%s'\n",
			tool.command);
		bt_usage(stderr);
		return 2;
	}

	if (bt_session_open(&session, &tool) < 0) {
		bt_session_close(&session);
		return 1;
	}
	if (strcmp(tool.command, "info") == 0)
		status = bt_cmd_info(&tool, &session);
	else if (strcmp(tool.command, "export") == 0)
		status = bt_cmd_export(&tool, &session);
	else if (strcmp(tool.command, "insn-history") == 0)
		status = bt_cmd_history(&tool, &session, 1);
	else if (strcmp(tool.command, "replay") == 0)
		status = bt_cmd_replay(&tool, &session);
	else
		status = bt_cmd_history(&tool, &session, 0);
	bt_session_close(&session);
	return status;
}
