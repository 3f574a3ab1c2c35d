/* `ptstub record`: the flight recorder.  It drives the native layer
   (nat/) with no RSP client: every thread of the program traced into a
   ring, and a bundle (rec/snapshot.h) written on a trigger: SIGUSR2 to
   ptstub, the program dying of a fatal signal (then with its core), entry
   to a function, the program's exit.  The program runs as it would
   without ptstub: its signals reach it, its exit status is ptstub's.  */
#ifndef REC_RECORDER_H
#define REC_RECORDER_H

#include "nat/target.h"
#include "nat/maps.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

struct bt_sideband;
struct bt_bundle;
struct bt_thread;
struct bt_mapping;

/* --full: one thread's whole trace.  */
struct rec_stream {
	pid_t pid, tid;
	int bts;                   /* 16-byte blocks, oldest first */
	uint8_t *data;
	size_t len, cap;
	uint64_t taken;            /* ring units (bytes, blocks) taken */
	uint64_t lost;             /* units that wrapped away untaken */
	uint8_t tail[16];          /* BTS: the open block at the last drain */
	int has_tail;
	int ended;                 /* the thread has exited */
};

/* A thread that ended: the trace its ring held then, as a bundle keeps
   it (PT bytes, BTS blocks newest first).  */
struct rec_ended {
	pid_t pid, tid;
	uint8_t *data;
	size_t size;
	uint64_t lost;             /* units its ring had overwritten */
};

struct rec_options {
	const char *output;        /* FILE: snapshots FILE, FILE.1, ... */
	size_t size;               /* per-thread ring, bytes */
	size_t ended_size;         /* ended threads' traces, bytes in all */
	int format;                /* enum trace_format */
	int full;                  /* --full: keep everything */
	int inherit;               /* follow fork children */
	int at_exit;               /* a snapshot when the program exits */
	int stats;                 /* engine lines at the program's exit */
	const char *trigger;       /* --trigger=FUNC, or NULL */
	unsigned trigger_count;    /* the entry that triggers (1: first) */
	int policy;                /* enum nat_btrace_policy */
	int engine;                /* enum nat_btrace_engine */
	FILE *log;                 /* where the snapshot lines go */
};

/* Why a snapshot is taken; the values are btrace/'s bt_trigger_kind.  */
struct rec_trigger {
	uint32_t kind;
	pid_t tid;
	int sig;
	uint64_t address;
	const char *name;
};

/* Where in its thread's trace an exec came: the units (PT bytes, BTS
   blocks) its ring had recorded, and (--full) its stream held.  */
struct rec_exec_at {
	int known;
	uint64_t ring, stream;
};

/* One traced process: the program, and with --inherit each fork child.
   Each has its own address space, so its own side-band, --trigger entry
   count and last bundle; its snapshots are files of their own.  */
struct rec_space {
	pid_t pid;
	uint64_t trigger_addr;     /* --trigger: where; 0 once it fired */
	unsigned trigger_hits;     /* the entries seen so far */
	int final_taken;           /* its crash, exit or --full bundle */
	/* Exec and mapping changes, in order (version 2 side-band).  */
	struct bt_sideband *sideband;
	char **sideband_paths;
	struct rec_exec_at *sideband_at;   /* an exec's place in its trace */
	size_t nsideband, sideband_cap;
	struct nat_maps known;     /* the mappings at the last change */
	/* Its ended threads dropped to keep within --ended-size.  */
	uint32_t ended_dropped;
	uint64_t ended_dropped_bytes;
};

struct recorder {
	struct nat_target *target;
	struct rec_options opts;
	pid_t pid;                 /* the program's main process */
	int start_status;          /* exit code when it could not start */
	unsigned snapshots;        /* written so far (the next number) */
	unsigned failed;           /* snapshots that could not be written */
	int sigfd;                 /* signalfd: SIGUSR2, SIGINT, SIGTERM */
	int want_snapshot, want_detach, want_drain;
	timer_t timer;             /* --full: when to drain the rings */
	int has_timer;
	/* The traced processes, the program first.  */
	struct rec_space **spaces;
	size_t nspaces, spaces_cap;
	/* --full: the trace kept so far per thread, and what was lost.  */
	struct rec_stream *streams;
	size_t nstreams, streams_cap;
	struct bt_thread *full_threads;   /* rec_full_fill's, kept here */
	uint8_t **full_bts;
	/* Ended threads' traces, in the order they ended (rec_ended.c).  */
	struct rec_ended *ended;
	size_t nended, ended_cap;
	size_t ended_bytes;
};

int rec_init(struct recorder *rec, struct nat_target *target,
	     const struct rec_options *opts);
void rec_fini(struct recorder *rec);

/* Start ARGV traced, or attach to PID and trace it.  */
int rec_start(struct recorder *rec, char *const argv[]);
int rec_attach(struct recorder *rec, pid_t pid);

/* Run until the program ends (or, attached, until SIGINT or SIGTERM):
   *STATUS is its wait status (0 after a detach).  */
int rec_run(struct recorder *rec, int *status);

/* Trace THREAD (stopped) as the options say; a new thread or child.  */
int rec_trace_thread(struct recorder *rec, struct nat_thread *thread);

/* Ended threads (rec_ended.c).  nat's on_thread_exit hook: keep the
   trace of THREAD (traced, exiting) for later snapshots, or with --full
   drain its ring into its stream.  */
void rec_thread_exit(void *ctx, struct nat_thread *thread);
/* Keep THREAD's trace now, dropping the oldest ended threads' past
   --ended-size.  */
int rec_ended_add(struct recorder *rec, struct nat_thread *thread);
/* ... the trace DATA (SIZE bytes, malloc'ed: the recorder's now) of
   thread TID of PID.  */
int rec_ended_keep(struct recorder *rec, pid_t pid, pid_t tid,
		   uint8_t *data, size_t size, uint64_t lost);
/* How many ended threads of process PID are kept; put them in THREADS
   (room for that many), returning the count.  */
size_t rec_ended_count(const struct recorder *rec, pid_t pid);
size_t rec_ended_fill(const struct recorder *rec, pid_t pid,
		      struct bt_thread *threads);
/* PID exec'd or is gone: its ended threads go, uncounted.  */
void rec_ended_forget(struct recorder *rec, pid_t pid);
void rec_ended_fini(struct recorder *rec);

/* Write snapshot number rec->snapshots of PROC for TRIGGER (every thread
   stopped); prints its line.  WITH_CORE adds registers and memory.  With
   --inherit, each process's snapshot is a file of its own.  */
int rec_snapshot(struct recorder *rec, struct nat_process *proc,
		 const struct rec_trigger *trigger, int with_core);

/* The space of process PID, or NULL if it is not traced.  */
struct rec_space *rec_space_of(const struct recorder *rec, pid_t pid);

/* A new traced process PID; a fork child starts with a copy of its
   PARENT's side-band (their pasts are one), the program with none.  */
struct rec_space *rec_space_new(struct recorder *rec, pid_t pid,
				const struct rec_space *parent);
void rec_space_free(struct rec_space *sp);

/* Remember an exec or mapping change of SP for its side-band.  */
int rec_sideband_add(struct rec_space *sp, uint32_t kind, pid_t tid,
		     const char *path);

/* The last event of SP (an exec) came when AT says in its thread's
   trace.  */
void rec_sideband_exec_at(struct rec_space *sp, const struct rec_exec_at *at);

/* A copy of SP's side-band for a bundle (malloc'ed; its paths are SP's):
   each exec's place is made one in the bundle's trace of its thread,
   held in the ring from units START (or from the stream's start with
   STREAM), its event's ADDRESS with SIZE 1, as bt_sideband says.  */
struct bt_sideband *rec_sideband_for(const struct rec_space *sp,
				     pid_t tid, uint64_t start, int stream);

/* The emulator's hook: a traced thread TID changed its mappings; the
   executable file mappings that came and went join its process's
   side-band.  */
void rec_map_change(void *ctx, pid_t tid);

/* Append to MAPS (N of them, room for rec->nsideband more) the code
   mappings the side-band saw that no longer overlap any of them (a
   library dlclose'd since): a trace that ran there still decodes.
   Returns the new count.  */
size_t rec_sideband_gone(const struct rec_space *sp, struct bt_mapping *maps,
			 size_t n);

/* PROG as execvp finds it (rec_path.c): NAME itself if it holds a slash,
   else the first runnable NAME in the directories of PATH_ENV (NULL:
   execvp's default).  *FILE is malloc'ed; -errno with WHY naming the
   cause (not found, a directory, not executable).  */
int rec_find_program(const char *name, const char *path_env, char **file,
		     char *why, size_t why_len);

/* Why execve of FILE failed with ERRNO_VALUE, said for a user: for
   ENOENT of a file that is there, its missing interpreter.  */
void rec_exec_error(const char *file, int errno_value, char *why,
		    size_t len);

/* The file of snapshot N: FILE, then FILE.1, FILE.2, ... (malloc'ed).  */
char *rec_output_name(const char *file, unsigned n);

/* The address of function NAME in PROC's program (its ELF symbol table,
   relocated by where the program is mapped); -pse_notfound.  */
int rec_symbol_lookup(pid_t pid, const char *name, uint64_t *addr);

/* Set the --trigger breakpoint in SP's process (after start, fork or
   exec).  */
int rec_arm_trigger(struct recorder *rec, struct rec_space *sp);

/* --full (rec_full.c): move what each ring holds that was not taken yet
   into the thread's stream, counting what wrapped away meanwhile.  */
void rec_full_drain(struct recorder *rec);
/* ... of THREAD alone; ENDED: it has exited (the bundle says so).  */
void rec_full_drain_thread(struct recorder *rec, struct nat_thread *thread,
			   int ended);
/* Put the streams in BUNDLE's threads in place of the rings.  */
void rec_full_fill(struct recorder *rec, struct bt_bundle *bundle);
/* The lines that say what could not be kept.  */
void rec_full_report(struct recorder *rec);
void rec_full_fini(struct recorder *rec);

/* `ptstub record` as main's command line gives it.  */
struct rec_command {
	struct rec_options opts;
	int attach;                /* record the running process PID */
	pid_t pid;
	int disable_randomization;
	char **argv;               /* PROG ARGS, unless ATTACH */
};

/* The recording CMD asks for; the program's exit status (or the signal
   it died of, raised again) is ptstub's, 1 if the recording could not
   start.  */
int rec_main(struct rec_command *cmd);

#endif
