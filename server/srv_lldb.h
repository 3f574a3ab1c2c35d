/* What the server keeps for LLDB, the second client: the state of its
   process-wide trace (jLLDBTraceStart without tids), and the helpers
   that write LLDB's JSON replies and its error replies.  GDB never
   creates any of it.  */
#ifndef SERVER_SRV_LLDB_H
#define SERVER_SRV_LLDB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct json_t;

struct srv;
struct nat_thread;

struct srv_lldb {
	struct srv *srv;
	/* The client is LLDB (it asked qHostInfo, which GDB never does):
	   k gets the exit reply LLDB waits for.  Reset per connection.  */
	int client;
	/* The process LLDB traces as a whole (0: none), the buffer size
	   each of its threads gets, and the limit on their sum.  */
	pid_t proc_pid;
	size_t proc_size;
	uint64_t proc_limit;       /* 0: none */
	uint32_t proc_psb;         /* bytes between PSB+, 0: default */
	/* The threads the process trace started (stopping it stops those,
	   not the ones traced one by one).  */
	pid_t *proc_tids;
	size_t proc_ntids, proc_cap;
	/* Non-fatal messages for jLLDBTraceGetState's "warnings".  */
	char **warnings;
	size_t nwarnings, warnings_cap;
};

/* SRV's LLDB state, created on first use (NULL when memory is short).  */
struct srv_lldb *srv_lldb_state(struct srv *srv);

/* Free it (at srv_fini).  */
void srv_lldb_fini(struct srv *srv);

/* Reply TEXT (JSON) with the protocol's binary escaping, as LLDB reads
   JSON replies.  */
int srv_lldb_put_json_text(struct srv *srv, const char *text);

/* Reply VALUE as compact JSON (as srv_lldb_put_json_text) and release
   it: srv_reply, or -pse_nomem when VALUE is NULL or will not print.  */
int srv_lldb_reply_json(struct srv *srv, struct json_t *value);

/* Reply "Eff;" and the hex of a message: the form LLDB shows the user
   (StringExtractorGDBRemote's error with text).  */
int srv_lldb_error(struct srv *srv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A new thread of a process-wide trace: trace it too (nat's
   on_new_thread hook; CTX is the struct srv).  */
void srv_lldb_on_new_thread(void *ctx, struct nat_thread *thread);

/* Trace THREAD as part of ST's process trace, within its limit; REASON
   says why not.  */
int srv_lldb_proc_add(struct srv_lldb *st, struct nat_thread *thread,
		      char *reason, size_t len);

/* Packet families.  */
int srv_handle_lldb_query(struct srv *srv, const char *pkt, size_t len);
int srv_handle_lldb_trace(struct srv *srv, const char *pkt, size_t len);
/* k: as for GDB, then, for LLDB, lldb-server's X09 reply.  */
int srv_handle_lldb_kill(struct srv *srv, const char *pkt, size_t len);

#endif
