/* vCont?, vCont (range steps too) and the old c, C, s, S packets.  */
#include "server/server.h"
#include "common/gdb_signals.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "nat/amd64_regs.h"

#include <stdlib.h>
#include <string.h>

#define SRV_MAX_ACTIONS 64

/* A protocol thread id as a resume target: "all" is -1, a bare thread
   (no process) matches in any process.  */
static void srv_resume_target(struct rsp_ptid ptid, struct nat_resume *a)
{
	a->pid = ptid.pid > 0 ? (pid_t) ptid.pid : -1;
	a->tid = ptid.tid > 0 ? (pid_t) ptid.tid : -1;
}

/* Resume, remembering the request for stops the client must not see.  */
static int srv_resume(struct srv *srv, const struct nat_resume *actions,
		      size_t n)
{
	int err;

	if (actions != srv->resume)
		memcpy(srv->resume, actions, n * sizeof(*actions));
	srv->nresume = n;
	/* Signals go with the first resume only.  */
	for (size_t i = 0; i < n; i++)
		srv->resume[i].sig = 0;
	err = nat_resume(srv->target, actions, n);
	return err < 0 ? err : srv_resumed;
}

static int srv_signal(const char **p, const char *end, int *host)
{
	uint64_t gdb_sig;
	const char *q = *p;

	if (end - q < 2 || ps_hex_parse_u64(&q, q + 2, &gdb_sig) < 0)
		return -pse_invalid;
	*host = gdb_sig ? gdb_signal_to_host((int) gdb_sig) : 0;
	if (*host < 0)
		return -pse_invalid;
	*p = q;
	return 0;
}

/* Non-stop: a wildcard action (every thread, or a process's) leaves
   alone the threads whose stop is queued for the client and not yet
   taken with vStopped: the client still has them running, and resuming
   them would lose the stop it is about to read (a `next` whose stop was
   on the wire ran on to the program's end), as gdbserver does; and the
   child a queued fork event names, which the client is about to detach
   (or follow).  The leading nat_resume_none actions say so.  */
static size_t srv_hold_queued(struct srv *srv, struct nat_resume *actions,
			      size_t n)
{
	struct nat_resume held[SRV_MAX_ACTIONS];
	size_t k = 0;
	int wildcard = 0;

	for (size_t i = 0; i < n; i++)
		if (actions[i].tid == -1 && actions[i].kind != nat_resume_stop)
			wildcard = 1;
	if (!wildcard)
		return n;
	for (const struct srv_notif *q = srv->notifs.head; q; q = q->next) {
		const char *fork = strstr(q->text, "fork:p");

		if (q->tid > 0 && k + n < SRV_MAX_ACTIONS)
			held[k++] = (struct nat_resume) {
				q->pid, q->tid, nat_resume_none, 0 };
		if (fork && k + n < SRV_MAX_ACTIONS)
			held[k++] = (struct nat_resume) {
				(pid_t) strtol(fork + 6, NULL, 16), -1,
				nat_resume_none, 0 };
	}
	if (!k)
		return n;
	memmove(actions + k, actions, n * sizeof(*actions));
	memcpy(actions, held, k * sizeof(*actions));
	return n + k;
}

static int srv_vcont(struct srv *srv, const char *pkt, size_t len)
{
	struct nat_resume actions[SRV_MAX_ACTIONS];
	const char *p = pkt + strlen("vCont"), *end = pkt + len;
	size_t n = 0;
	int err;

	if (p < end && *p == '?') {
		ps_buf_puts(&srv->reply, "vCont;c;C;s;S;t;r");
		return srv_reply;
	}
	if (!nat_first_process(srv->target))
		return srv_error_text(srv, "No process.");
	/* Non-stop: another thread's vCont leaves a range step alone.  */
	if (!srv->non_stop)
		srv->range_tid = 0;

	while (p < end) {
		struct nat_resume *a = &actions[n];
		char op;

		if (*p++ != ';' || p >= end || n == SRV_MAX_ACTIONS)
			return -pse_invalid;
		op = *p++;
		a->sig = 0;
		switch (op) {
		case 'c': a->kind = nat_resume_cont; break;
		case 's': a->kind = nat_resume_step; break;
		case 't': a->kind = nat_resume_stop; break;
		case 'r': {
			uint64_t start, stop;

			/* rSTART,END: a step that goes on in the range.  */
			if (ps_hex_parse_u64(&p, end, &start) < 0 ||
			    p >= end || *p++ != ',' ||
			    ps_hex_parse_u64(&p, end, &stop) < 0)
				return -pse_invalid;
			a->kind = nat_resume_step;
			srv->range_start = start;
			srv->range_end = stop;
			break;
		}
		case 'C':
		case 'S':
			a->kind = op == 'C' ? nat_resume_cont : nat_resume_step;
			err = srv_signal(&p, end, &a->sig);
			if (err < 0)
				return err;
			break;
		default:
			return -pse_invalid;
		}
		a->pid = a->tid = -1;
		if (p < end && *p == ':') {
			struct rsp_ptid ptid;

			p++;
			if (rsp_parse_ptid(&p, end, &ptid) < 0)
				return -pse_invalid;
			srv_resume_target(ptid, a);
		}
		if (srv->non_stop && op != 'r' && a->tid == srv->range_tid)
			srv->range_tid = 0;
		if (op == 'r') {
			/* Only a range for one named thread makes sense.  */
			if (a->tid <= 0)
				return -pse_invalid;
			srv->range_pid = a->pid;
			srv->range_tid = a->tid;
		}
		n++;
	}
	if (!n)
		return -pse_invalid;
	if (srv->non_stop)
		n = srv_hold_queued(srv, actions, n);
	return srv_resume(srv, actions, n);
}

/* c, C, s, S: the Hc thread (or the current one) gets the action and
   the signal; the others continue without one, as in gdbserver.  */
static int srv_old_resume(struct srv *srv, const char *pkt, size_t len)
{
	struct nat_resume actions[2];
	const char *p = pkt + 1, *end = pkt + len;
	int step = pkt[0] == 's' || pkt[0] == 'S';
	struct nat_thread *t;
	int sig = 0, err;

	if (pkt[0] == 'C' || pkt[0] == 'S') {
		err = srv_signal(&p, end, &sig);
		if (err < 0)
			return err;
		if (p < end && *p == ';')
			p++;
	}
	if (p != end)  /* resuming at another address is not supported */
		return -pse_unsupported;
	if (!nat_first_process(srv->target))
		return srv_error_text(srv, "No process.");

	srv->range_tid = 0;
	srv_resume_target(srv->cont, &actions[0]);
	if (actions[0].tid == -1 && (t = srv_general_thread(srv))) {
		actions[0].pid = nat_thread_pid(t);
		actions[0].tid = nat_thread_tid(t);
	}
	actions[0].kind = step ? nat_resume_step : nat_resume_cont;
	actions[0].sig = sig;
	actions[1] = (struct nat_resume) { -1, -1, nat_resume_cont, 0 };
	return srv_resume(srv, actions, 2);
}

int srv_handle_resume(struct srv *srv, const char *pkt, size_t len)
{
	if (srv_prefix(pkt, len, "vCont"))
		return srv_vcont(srv, pkt, len);
	return srv_old_resume(srv, pkt, len);
}

int srv_range_step_on(struct srv *srv, struct nat_event *ev)
{
	struct nat_thread *thread;
	struct amd64_regs *regs;
	uint64_t pc;

	if (srv->range_tid <= 0 || ev->kind != nat_ev_stopped ||
	    ev->reason != nat_stop_step || ev->tid != srv->range_tid ||
	    (srv->range_pid > 0 && ev->pid != srv->range_pid))
		return 0;
	thread = nat_find_thread(srv->target, ev->pid, ev->tid);
	if (!thread || nat_thread_regs(thread, &regs) < 0)
		return 0;
	pc = amd64_regs_pc(regs);
	if (pc < srv->range_start || pc >= srv->range_end)
		return 0;
	/* GDB's breakpoint there is GDB's to report.  */
	{
		const struct int3_site *site =
			nat_process_int3_at(nat_thread_process(thread), pc);

		if (site && (site->owners & int3_owner_gdb))
			return 0;
	}
	if (srv_owed_stop(srv, ev))
		return 0;
	if (srv->non_stop)
		return nat_continue_thread(srv->target, thread) == 0;
	return nat_resume(srv->target, srv->resume, srv->nresume) == 0;
}
