/* Stop replies (T, W, X, N) as gdbserver writes them: the event, then
   the expedited registers rbp, rsp and rip, the thread and its core.
   With --disable-packet: S replies (T), or no thread (Tthread).  */
#include "server/server.h"

#include <string.h>
#include "common/gdb_signals.h"
#include "common/ps_error.h"
#include "nat/amd64_regs.h"
#include "nat/procinfo.h"

static const unsigned srv_expedited[] = { 6, 7, 16 };  /* rbp rsp rip */

static int srv_put_expedited(struct srv *srv, struct nat_thread *thread)
{
	struct amd64_regs *regs;
	uint8_t value[8];
	int err = nat_thread_regs(thread, &regs);

	if (err < 0)
		return err;
	for (size_t i = 0; i < sizeof(srv_expedited) / sizeof(srv_expedited[0]);
	     i++) {
		int n = amd64_regs_read(regs, srv_expedited[i], value,
					sizeof(value));

		if (n < 0)
			return n;
		ps_buf_printf(&srv->reply, "%02x:", srv_expedited[i]);
		ps_buf_put_hex(&srv->reply, value, (size_t) n);
		ps_buf_putc(&srv->reply, ';');
	}
	return 0;
}

static void srv_put_ptid(struct srv *srv, pid_t pid, pid_t tid)
{
	struct rsp_ptid ptid = { pid, tid };

	rsp_format_ptid(&srv->reply, ptid, srv->multiprocess);
}

int srv_stop_reply(struct srv *srv, const struct nat_event *ev)
{
	struct ps_buf *r = &srv->reply;
	struct nat_thread *thread;
	size_t start = r->len;
	int core;

	switch (ev->kind) {
	case nat_ev_exited:
	case nat_ev_signalled: {
		char kind = ev->kind == nat_ev_exited ? 'W' : 'X';
		int code = ev->kind == nat_ev_exited ?
			ev->status : gdb_signal_from_host(ev->sig);

		if (srv->multiprocess)
			ps_buf_printf(r, "%c%x;process:%x", kind, code,
				      (unsigned) ev->pid);
		else
			ps_buf_printf(r, "%c%02x", kind, code);
		/* Over stdio the client's console is ours: it says so.  */
		if (srv->opts->stdio)
			;
		else if (ev->kind == nat_ev_exited)
			fprintf(stderr, "\nChild exited with status %d\n",
				ev->status);
		else
			fprintf(stderr, "\nChild terminated with signal = 0x%x (%s)\n",
				ev->sig, gdb_signal_name(code));
		srv->have_last = 1;
		srv->last = *ev;
		return 0;
	}
	case nat_ev_no_resumed:
		ps_buf_puts(r, "N");
		return 0;
	case nat_ev_thread_exited:
		/* "wSTATUS;PTID", as gdbserver: no registers, the thread is
		   gone.  */
		ps_buf_printf(r, "w%x;", (unsigned) ev->status);
		srv_put_ptid(srv, ev->pid, ev->tid);
		return 0;
	case nat_ev_forked:
	case nat_ev_vforked:
		ps_buf_printf(r, "T05%s:",
			      ev->kind == nat_ev_forked ? "fork" : "vfork");
		srv_put_ptid(srv, ev->child, ev->child);
		ps_buf_putc(r, ';');
		break;
	case nat_ev_vfork_done:
		ps_buf_puts(r, "T05vforkdone:;");
		break;
	case nat_ev_thread_created:
		/* gdbserver's words for a new thread's first stop.  */
		ps_buf_puts(r, "T05create:;");
		break;
	case nat_ev_execd:
		ps_buf_puts(r, "T05exec:");
		ps_buf_put_hex(r, ev->path, strlen(ev->path));
		ps_buf_putc(r, ';');
		break;
	case nat_ev_stopped:
		ps_buf_printf(r, "T%02x", gdb_signal_from_host(ev->sig));
		if (ev->reason == nat_stop_syscall_entry ||
		    ev->reason == nat_stop_syscall_return)
			ps_buf_printf(r, "%s:%llx;",
				      ev->reason == nat_stop_syscall_entry ?
				      "syscall_entry" : "syscall_return",
				      (unsigned long long) ev->data_addr);
		else if (ev->reason == nat_stop_watch || ev->reason == nat_stop_rwatch ||
		    ev->reason == nat_stop_awatch)
			ps_buf_printf(r, "watch:%016llx;",
				      (unsigned long long) ev->data_addr);
		else if (ev->reason == nat_stop_swbreak && srv->swbreak)
			ps_buf_puts(r, "swbreak:;");
		else if (ev->reason == nat_stop_hwbreak && srv->hwbreak)
			ps_buf_puts(r, "hwbreak:;");
		break;
	}

	/* An old stub's "Sxx": the T reply's signal and nothing more.  */
	if (srv->opts->disabled & srv_disable_t) {
		srv->have_last = 1;
		srv->last = *ev;
		r->data[start] = 'S';
		r->len = start + 3;
		r->data[r->len] = '\0';
		return 0;
	}

	thread = nat_find_thread(srv->target, ev->pid, ev->tid);
	if (!thread)
		return -pse_nothread;
	if (srv_put_expedited(srv, thread) < 0)
		return -pse_internal;
	if (srv->opts->disabled & srv_disable_tthread) {
		srv->have_last = 1;
		srv->last = *ev;
		return 0;
	}
	ps_buf_puts(r, "thread:");
	srv_put_ptid(srv, ev->pid, ev->tid);
	ps_buf_putc(r, ';');
	core = procinfo_thread_core(ev->pid, ev->tid);
	if (core >= 0)
		ps_buf_printf(r, "core:%x;", (unsigned) core);

	/* Like gdbserver, a stop selects its thread for what follows; in
	   non-stop that would change it behind the client's back.  */
	if (!srv->non_stop) {
		srv->general.pid = ev->pid;
		srv->general.tid = ev->tid;
	}
	srv->have_last = 1;
	srv->last = *ev;
	return 0;
}
