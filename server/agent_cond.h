/* Breakpoint conditions and commands kept per address: the agent
   expressions GDB attaches to Z0/Z1 packets, the rule deciding whether
   a hit is reported, and the commands (a dprintf's printf, with `set
   dprintf-style agent`) run at a hit instead of reporting it.  */
#ifndef SERVER_AGENT_COND_H
#define SERVER_AGENT_COND_H

#include "server/agent_expr.h"

#include <stddef.h>
#include <stdint.h>

/* Breakpoint conditions by address, with gdbserver's rules: each Z
   packet for an address replaces that address's conditions; a hit is
   reported when there are none, when any evaluates non-zero, or when
   one cannot be evaluated (so the user sees the stop rather than a
   silently skipped breakpoint).  */
struct ax_cond_entry {
	uint64_t addr;
	size_t count;
	struct ax_expr **exprs;
	/* Commands ("cmds:" items, BreakpointCommands+).  PERSIST is
	   GDB's flag for commands meant to outlive its connection; kept,
	   not acted on: a new connection forgets every address.  */
	size_t ncmds;
	struct ax_expr **cmds;
	int persist;
};

struct ax_cond_list {
	struct ax_cond_entry *entries;
	size_t count;
	size_t cap;
};

void ax_cond_list_init(struct ax_cond_list *list);
void ax_cond_list_fini(struct ax_cond_list *list);

/* Make EXPRS[0..COUNT) the conditions at ADDR, replacing any there
   (its commands stay); COUNT 0 makes the address unconditional.  The
   list takes ownership of every expression, on failure too (it frees
   them then), and copies the array itself.  */
int ax_conds_set(struct ax_cond_list *list, uint64_t addr,
		 struct ax_expr **exprs, size_t count);

/* Make CMDS[0..COUNT) the commands at ADDR, replacing any there (its
   conditions stay), with ax_conds_set's ownership rules.  */
int ax_cmds_set(struct ax_cond_list *list, uint64_t addr,
		struct ax_expr **cmds, size_t count, int persist);

/* Forget the conditions and commands at ADDR (z0/z1, or the breakpoint
   went away).  Clearing an address without any is not an error.  */
void ax_conds_clear(struct ax_cond_list *list, uint64_t addr);

/* Forget every address (the process exited, exec'd or was detached).  */
void ax_conds_reset(struct ax_cond_list *list);

/* How many conditions ADDR has.  */
size_t ax_conds_count(const struct ax_cond_list *list, uint64_t addr);

/* How many commands ADDR has.  */
size_t ax_cmds_count(const struct ax_cond_list *list, uint64_t addr);

/* 1: report the stop at ADDR (no conditions, one true, or an error);
   0: every condition is false, resume silently.  */
int ax_conds_eval(const struct ax_cond_list *list, uint64_t addr,
		  const struct ax_context *ctx);

/* Run ADDR's commands in the order GDB sent them, each for what it
   does (ax_eval with no result).  The first failure ends the run and
   is returned, as gdbserver stops "digging the hole deeper".  */
int ax_cmds_run(const struct ax_cond_list *list, uint64_t addr,
		const struct ax_context *ctx);

/* Parse the tail of a Z0/Z1 packet after "Z0,ADDR,KIND" (empty, or
   ";X..;X.." - GDB also runs items together as ";X..X.." - then
   ";cmds:P,X..X.." with P GDB's persist flag) and make its conditions
   and commands those of ADDR; none clears them.  Other items are
   skipped up to the next ';', as gdbserver does.  On a malformed
   condition or command nothing changes and the error is returned.  */
int ax_conds_parse_z(struct ax_cond_list *list, uint64_t addr,
		     const char *text, const char *end);

#endif
