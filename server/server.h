/* The RSP server: one client connection's state, and the handlers of
   each packet family.  Handlers build their reply in srv->reply and
   return one of enum srv_result (or a negative error, answered E.text).  */
#ifndef SERVER_SERVER_H
#define SERVER_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/ps_buf.h"
#include "nat/target.h"
#include "server/agent_cond.h"
#include "server/hostio.h"
#include "server/rsp_conn.h"
#include "server/rsp_parse.h"
#include "server/srv_notif.h"
#include "server/srv_progress.h"

/* The PacketSize we advertise (and so the largest reply we build).  */
#define SRV_PACKET_SIZE 0x20000
/* The largest vFile reply, gdbserver's packet size (srv_general.c
   says why it is smaller than ours).  */
#define SRV_HOSTIO_REPLY_MAX 0x4800

enum srv_result {
	srv_reply = 0,       /* send srv->reply */
	srv_resumed,         /* the inferior runs: send a stop reply later */
	srv_no_reply,        /* send nothing (k in plain remote) */
};

/* Packets --disable-packet turns off, as gdbserver's option does (GDB's
   testsuite uses it to emulate older stubs).  */
enum srv_disable {
	srv_disable_vcont = 1 << 0,     /* vCont, vCtrlC */
	srv_disable_tthread = 1 << 1,   /* thread: in T stop replies */
	srv_disable_qc = 1 << 2,
	srv_disable_qfthreadinfo = 1 << 3,
	srv_disable_t = 1 << 4,         /* S replies instead of T */
};

struct srv_lldb;

struct srv_options {
	int once;
	int multi;            /* --multi: extended-remote from the start */
	int debug;
	int remote_debug;
	FILE *debug_file;
	int stdio;            /* the connection is our stdin/stdout */
	unsigned disabled;    /* enum srv_disable bits */
};

struct srv {
	struct rsp_conn *conn;
	struct nat_target *target;
	struct hostio hostio;
	const struct srv_options *opts;

	/* What the client said it understands (qSupported).  */
	int multiprocess;
	int swbreak, hwbreak;
	int no_resumed;

	int extended;         /* '!' was sent, or --multi */
	int running;          /* resumed, stop reply not yet sent */
	int disconnect;       /* D / k ended this connection */
	int exit_server;      /* monitor exit, or k without --multi */

	/* Non-stop mode (QNonStop:1): stops go out as notifications.  */
	int non_stop;
	struct srv_notif_queue notifs;

	struct rsp_ptid general;   /* Hg: registers, memory */
	struct rsp_ptid cont;      /* Hc: old-style c/s */

	struct nat_event last;     /* the last stop reported, for '?' */
	int have_last;

	/* vRun's program when the client names none.  */
	char **program_argv;
	/* The last program started and its arguments (an owned copy): R
	   runs it again, a vRun without a name takes its name.  */
	char **last_argv;
	/* The log `monitor set debug-file` opened (owned), or NULL.  */
	FILE *log_file;

	/* Environment and startup settings for vRun (QEnvironment*...).  */
	char **env;             /* NULL-terminated, for the target */
	size_t nenv, env_cap;
	char *cwd;

	/* Breakpoint conditions GDB gave us to evaluate (Z0 and Z1).  */
	struct ax_cond_list conds_sw, conds_hw;

	/* The last resume request, to repeat after a stop nobody must
	   see (a breakpoint whose condition is false).  */
	struct nat_resume resume[64];
	size_t nresume;

	/* vCont;r: the thread steps on while its PC stays in
	   [range_start, range_end); range_tid 0 when none.  */
	pid_t range_pid, range_tid;
	uint64_t range_start, range_end;

	/* Buffer sizes for the next Qbtrace (Qbtrace-conf).  */
	size_t btrace_bts_size, btrace_pt_size;

	/* The object a chunked qXfer read is serving.  */
	struct ps_buf xfer;
	char xfer_object[32];
	char xfer_annex[256];

	/* Console lines during a long recorded run.  */
	struct srv_progress progress;

	struct ps_buf reply;
	struct ps_buf scratch;

	/* LLDB's trace state (server/srv_lldb.h), NULL until LLDB asks.  */
	struct srv_lldb *lldb;
};

/* The server lives as long as ptstub; connections come and go.  */
int srv_init(struct srv *srv, struct nat_target *target,
	     const struct srv_options *opts);
void srv_fini(struct srv *srv);

/* Serve CONN's packets until the client disconnects or asks ptstub to
   exit; what the client negotiated ends with the connection.  */
int srv_serve(struct srv *srv, struct rsp_conn *conn);

/* Handle one packet.  */
int srv_dispatch(struct srv *srv, const char *pkt, size_t len);

/* What every handler uses (srv_reply.c, a leaf below them).  */

/* Whether PKT (LEN bytes) starts with PREFIX; is exactly NAME.  */
int srv_prefix(const char *pkt, size_t len, const char *prefix);
int srv_is(const char *pkt, size_t len, const char *name);

/* Reply "E.<text>" for error code ERR.  */
int srv_error(struct srv *srv, int err);
int srv_error_text(struct srv *srv, const char *text);

/* The process and thread the client's Hg selects (resolving any/all to
   the first); NULL when there is none.  */
struct nat_process *srv_general_process(struct srv *srv);
struct nat_thread *srv_general_thread(struct srv *srv);

/* Write the stop reply for EVENT into srv->reply.  */
int srv_stop_reply(struct srv *srv, const struct nat_event *event);

/* Wait for the inferior's next event and send its stop reply.  */
int srv_wait_and_reply(struct srv *srv);

/* A breakpoint stop nobody must see, its conditions all false or its
   commands run (a dprintf on the agent): the thread is already moving
   on, the client does not hear of it (1).  A stop the client asked for
   meanwhile is reported instead (srv_owed_stop).  */
int srv_condition_false(struct srv *srv, struct nat_event *ev);

/* A range step's single-step that ended inside the range (and not at a
   breakpoint): step again without a report, as gdbserver does.  */
int srv_range_step_on(struct srv *srv, struct nat_event *ev);

/* Non-stop: EV is a stop the stub would swallow (a false condition, a
   range step going on), but the client asked its thread to stop before
   it came: turn EV into that stop (signal 0, the thread left where it
   is) and return 1; else 0.  */
int srv_owed_stop(struct srv *srv, struct nat_event *ev);

/* Parse gdbserver's --disable-packet list (comma-separated: vCont,
   Tthread, qC, qfThreadInfo, T, threads) into *MASK; -pse_invalid and
   *BAD the unknown name otherwise.  */
int srv_parse_disable(const char *list, unsigned *mask, const char **bad,
		      size_t *badlen);

/* Whether the packet is one --disable-packet turned off (it then gets
   the empty reply).  */
int srv_packet_disabled(const struct srv *srv, const char *pkt, size_t len);

/* Non-stop: report every event the inferior has now (%Stop: and the
   vStopped queue), then wait until the client sends something.  */
int srv_nonstop_wait_packet(struct srv *srv);

/* Non-stop: report every event the inferior has now, without waiting.  */
int srv_nonstop_report(struct srv *srv);

/* The client left: back to all-stop, everything held stopped.  */
void srv_nonstop_end(struct srv *srv);

/* Packet families, each in its own file.  */
int srv_handle_general(struct srv *srv, const char *pkt, size_t len);
int srv_handle_query(struct srv *srv, const char *pkt, size_t len);
int srv_handle_regs(struct srv *srv, const char *pkt, size_t len);
int srv_handle_memory(struct srv *srv, const char *pkt, size_t len);
int srv_handle_break(struct srv *srv, const char *pkt, size_t len);
int srv_handle_threads(struct srv *srv, const char *pkt, size_t len);
int srv_handle_resume(struct srv *srv, const char *pkt, size_t len);
int srv_handle_process(struct srv *srv, const char *pkt, size_t len);
int srv_handle_qxfer(struct srv *srv, const char *pkt, size_t len);
int srv_handle_monitor(struct srv *srv, const char *pkt, size_t len);
int srv_handle_settings(struct srv *srv, const char *pkt, size_t len);
int srv_handle_btrace(struct srv *srv, const char *pkt, size_t len);
/* QNonStop, vStopped and vCtrlC.  */
int srv_handle_nonstop(struct srv *srv, const char *pkt, size_t len);
/* '?', in either mode.  */
int srv_handle_status(struct srv *srv, const char *pkt, size_t len);

/* Write the selected thread's trace bundle to PATH; MSG gets what to
   tell the user.  */
int srv_btrace_save(struct srv *srv, const char *path, struct ps_buf *msg);

/* Build the btrace or btrace-conf object for qXfer; on failure the
   E reply is already in srv->reply.  */
int srv_btrace_object(struct srv *srv, const char *object, const char *annex,
		      struct ps_buf *out);

/* Start ARGV for the client (vRun, or the command line); its first
   stop becomes the last event.  */
int srv_start_program(struct srv *srv, char *const argv[]);

/* Attach to PID (vAttach, or --attach), likewise.  */
int srv_attach_program(struct srv *srv, pid_t pid);

void srv_settings_fini(struct srv *srv);
/* Free what the process packets keep (last_argv).  */
void srv_process_fini(struct srv *srv);
/* Close the log `monitor set debug-file` opened.  */
void srv_monitor_fini(struct srv *srv);

/* Send TEXT to GDB's console (an O packet).  */
int srv_console(struct srv *srv, const char *text);

#endif
