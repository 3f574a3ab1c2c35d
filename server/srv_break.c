/* Z and z: software breakpoints planted by the stub (Z0), and the debug
   registers for hardware breakpoints and watchpoints (Z1-Z4); and, at a
   hit, the target-side conditions GDB attached to them.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "nat/amd64_regs.h"

#include <stdio.h>
#include <string.h>

int srv_handle_break(struct srv *srv, const char *pkt, size_t len)
{
	static const enum nat_dr_kind kinds[] = {
		0, nat_dr_exec, nat_dr_write, nat_dr_read, nat_dr_access,
	};
	struct nat_process *proc = srv_general_process(srv);
	const char *p = pkt + 1, *end = pkt + len;
	int insert = pkt[0] == 'Z';
	uint64_t type, addr, kind;
	int err;

	if (ps_hex_parse_u64(&p, end, &type) < 0 || rsp_expect(&p, end, ',') < 0 ||
	    ps_hex_parse_u64(&p, end, &addr) < 0 || rsp_expect(&p, end, ',') < 0 ||
	    ps_hex_parse_u64(&p, end, &kind) < 0)
		return -pse_invalid;
	if (type > 4)
		return srv_reply;
	if (!proc)
		return srv_error_text(srv, "No process.");
	/* Every Z0/Z1 replaces the conditions of its address (none clears
	   them); a malformed one changes nothing.  */
	if (type <= 1) {
		struct ax_cond_list *conds = type ? &srv->conds_hw : &srv->conds_sw;

		if (insert)
			err = ax_conds_parse_z(conds, addr, p, end);
		else
			err = p == end ? (ax_conds_clear(conds, addr), 0)
				       : -pse_invalid;
		if (err < 0)
			return -pse_invalid;
	} else if (p != end && *p != ';') {
		return -pse_invalid;
	}

	/* x86 has one breakpoint instruction: gdbserver plants int3 for
	   any kind, and so does this.  */
	if (type == 0) {
		err = insert ? nat_insert_breakpoint(proc, addr)
			     : nat_remove_breakpoint(proc, addr);
	} else if (insert) {
		err = nat_insert_hw_point(proc, kinds[type], addr, kind);
	} else {
		err = nat_remove_hw_point(proc, kinds[type], addr, kind);
	}
	/* Read watchpoints: x86 has none; the empty reply makes GDB use an
	   access watchpoint instead, as with gdbserver.  */
	if (err == -pse_unsupported)
		return srv_reply;
	/* Removing what is not there is an error, as with gdbserver.  */
	if (err == -pse_notfound && !insert)
		return srv_error_text(srv, "No such breakpoint or watchpoint.");
	if (err < 0)
		return err == -pse_fault ?
			srv_error_text(srv, "Cannot access memory.") : err;
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

/* Run the commands at PC, software breakpoints' first, as gdbserver
   does.  A command that fails ends the run; the hit stays unreported,
   as with gdbserver, so the failure is told on stderr.  */
static int srv_run_commands(struct srv *srv, uint64_t pc,
			    const struct ax_context *ctx)
{
	int err = ax_cmds_run(&srv->conds_sw, pc, ctx);

	if (err == 0)
		err = ax_cmds_run(&srv->conds_hw, pc, ctx);
	if (err < 0)
		fprintf(stderr, "ptstub: breakpoint commands at 0x%llx failed: "
			"%s\n", (unsigned long long) pc, ps_errstr(err));
	return err;
}

/* What the callbacks below get as their data.  */
struct srv_hit {
	struct srv *srv;
	struct nat_thread *thread;
};

static long srv_cond_read_mem(void *data, uint64_t addr, void *buf,
			      size_t len)
{
	struct nat_thread *thread = ((struct srv_hit *) data)->thread;

	return nat_read_memory(nat_thread_process(thread), addr, buf, len);
}

static int srv_cond_read_reg(void *data, unsigned regno, uint64_t *value)
{
	struct nat_thread *thread = ((struct srv_hit *) data)->thread;
	struct amd64_regs *regs;
	uint8_t raw[64];
	int n = nat_thread_regs(thread, &regs);

	if (n < 0)
		return n;
	n = amd64_regs_read(regs, regno, raw, sizeof(raw));
	if (n < 0)
		return n;
	*value = 0;
	memcpy(value, raw, n < 8 ? (size_t) n : 8);
	return 0;
}

/* A dprintf's output goes where gdbserver's goes: the stub's stdout,
   or its stderr when stdout carries the protocol (stdio).  */
static int srv_cmd_print(void *data, const char *text, size_t len)
{
	struct srv *srv = ((struct srv_hit *) data)->srv;
	FILE *f = srv->opts->stdio ? stderr : stdout;

	if (fwrite(text, 1, len, f) != len || fflush(f) != 0)
		return -pse_io;
	return 0;
}

/* A breakpoint hit nobody needs to see: conditions all false (nothing
   else happens), or conditions true and commands there (they run, as
   gdbserver runs a dprintf's printf with `set dprintf-style agent`).
   The thread steps off the breakpoint and runs on as the client last
   asked.  A requested step always ends in a report, its commands run
   first.  */
int srv_condition_false(struct srv *srv, struct nat_event *ev)
{
	struct nat_thread *thread;
	struct ax_context ctx;
	struct srv_hit hit;
	struct ax_cond_list *list;
	struct amd64_regs *regs;
	uint64_t pc;

	if (ev->kind != nat_ev_stopped ||
	    (ev->reason != nat_stop_swbreak && ev->reason != nat_stop_hwbreak &&
	     ev->reason != nat_stop_step))
		return 0;
	thread = nat_find_thread(srv->target, ev->pid, ev->tid);
	if (!thread || nat_thread_regs(thread, &regs) < 0)
		return 0;
	pc = amd64_regs_pc(regs);
	ctx.read_mem = srv_cond_read_mem;
	ctx.read_reg = srv_cond_read_reg;
	ctx.print = srv_cmd_print;
	hit.srv = srv;
	hit.thread = thread;
	ctx.data = &hit;
	/* A step that ends on a breakpoint with commands runs them, as
	   gdbserver does for any stop at such an address; it is reported
	   all the same.  */
	if (ev->reason == nat_stop_step) {
		if (nat_thread_stepping(thread) &&
		    (ax_cmds_count(&srv->conds_sw, pc) ||
		     ax_cmds_count(&srv->conds_hw, pc)) &&
		    ax_conds_eval(&srv->conds_sw, pc, &ctx) &&
		    ax_conds_eval(&srv->conds_hw, pc, &ctx))
			srv_run_commands(srv, pc, &ctx);
		return 0;
	}
	list = ev->reason == nat_stop_swbreak ? &srv->conds_sw : &srv->conds_hw;
	if (ax_conds_eval(list, pc, &ctx) != 0) {
		/* Conditions true: commands, if any, instead of a report.  */
		if (!ax_cmds_count(&srv->conds_sw, pc) &&
		    !ax_cmds_count(&srv->conds_hw, pc))
			return 0;
		srv_run_commands(srv, pc, &ctx);
	}
	if (nat_thread_stepping(thread) || srv_owed_stop(srv, ev))
		return 0;
	/* Debug-register breakpoints need no step: the kernel sets RF.  */
	if (ev->reason == nat_stop_swbreak &&
	    nat_step_over_breakpoint(srv->target, thread) < 0)
		return 0;
	/* Non-stop: only this thread stopped; it goes on as it went.  */
	if (srv->non_stop)
		return nat_continue_thread(srv->target, thread) == 0;
	return nat_resume(srv->target, srv->resume, srv->nresume) == 0;
}
