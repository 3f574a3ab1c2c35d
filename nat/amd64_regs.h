/* A thread's amd64 registers, read and written through ptrace
   (PTRACE_GETREGS and the NT_X86_XSTATE regset) and numbered as the
   target description of xml/tdesc_amd64.h numbers them.  */
#ifndef NAT_AMD64_REGS_H
#define NAT_AMD64_REGS_H

#include "nat/xstate.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

struct ps_buf;

/* Big enough for every user XSAVE component up to AMX tile data.  */
#define AMD64_XSAVE_MAX 16384

/* Plain data without pointers: amd64_regs_fetch sets every field, so the
   struct may be malloc'ed and fetched into directly, and freed with free.
   GPR is the PTRACE_GETREGS image; callers may read it after a fetch.  */
struct amd64_regs {
	struct user_regs_struct gpr;
	uint64_t xcr0;                  /* enabled components (the kernel's) */
	struct xstate_layout layout;
	size_t xsave_len;               /* bytes the kernel gave */
	bool valid;                     /* fetched since the last invalidate */
	bool has_xstate;                /* false: FXSAVE image via GETFPREGS */
	bool gpr_dirty, xsave_dirty;
	uint64_t xsave[AMD64_XSAVE_MAX / 8];
};

/* An empty cache; reads fail until the first fetch.  */
void amd64_regs_init(struct amd64_regs *regs);

/* Read all registers of stopped thread TID.  */
int amd64_regs_fetch(struct amd64_regs *regs, pid_t tid);

/* Write back to TID the register sets that were changed since the fetch.  */
int amd64_regs_store(struct amd64_regs *regs, pid_t tid);

/* Forget the registers (the thread ran).  */
void amd64_regs_invalidate(struct amd64_regs *regs);

/* The XCR0 that selects the target description for the fetched thread.  */
uint64_t amd64_regs_xcr0(const struct amd64_regs *regs);

/* The XCR0 the kernel enabled for TID's user space (x87|SSE when the
   kernel has no XSAVE regset).  */
int amd64_host_xcr0(pid_t tid, uint64_t *xcr0);

/* Register REGNO into OUT (at least the register's size): returns its
   size in bytes.  -pse_range for a bad REGNO, -pse_invalid when SIZE is
   too small or nothing was fetched.  */
int amd64_regs_read(const struct amd64_regs *regs, unsigned regno,
		    void *out, size_t size);

/* Set register REGNO from exactly its size in bytes.  A component in
   its init state is initialized first and then marked in use.  */
int amd64_regs_write(struct amd64_regs *regs, unsigned regno,
		     const void *in, size_t size);

/* Append the 'g' reply: every register in regno order, as hex.  */
int amd64_regs_g_packet(const struct amd64_regs *regs, struct ps_buf *hex);

/* Set every register from a 'G' payload of LEN hex digits; nothing is
   changed unless it is all valid.  */
int amd64_regs_G_packet(struct amd64_regs *regs, const char *hex,
			size_t len);

uint64_t amd64_regs_pc(const struct amd64_regs *regs);
void amd64_regs_set_pc(struct amd64_regs *regs, uint64_t pc);
uint64_t amd64_regs_sp(const struct amd64_regs *regs);
void amd64_regs_set_sp(struct amd64_regs *regs, uint64_t sp);

#endif
