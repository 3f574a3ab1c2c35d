/* The emulator's test driver: run a corpus program to a function, trace
   that function to its return either with a plain PTRACE_SINGLESTEP
   loop (the ground truth) or through the emulator's API, and turn
   traces back into instruction addresses.  Also the reference for the
   GDB-level tests.  */
#ifndef TESTSUITE_EMU_EMU_DRIVER_H
#define TESTSUITE_EMU_EMU_DRIVER_H

#include "nat/emu/emu.h"
#include "nat/int3_table.h"
#include "nat/mem.h"
#include "common/ps_buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct drv_ips {
	uint64_t *ips;
	size_t count, cap;
};

void drv_ips_init(struct drv_ips *ips);
void drv_ips_fini(struct drv_ips *ips);
int drv_ips_push(struct drv_ips *ips, uint64_t ip);

/* A corpus program stopped at the entry of a function.  */
struct drv_proc {
	pid_t pid;
	uint64_t entry;        /* the function */
	uint64_t ret;          /* its return address */
	uint64_t ret_sp;       /* RSP once it returned */
	struct nat_mem mem;
	struct int3_table sites;
	pid_t children[8];     /* fork children seen */
	size_t nchildren;
	bool whole;            /* traced from exec to exit, not a function */
	size_t max_insns;      /* drv_truth gives up beyond (0: no limit) */
};

/* Start PROG (argument ARG or none) under ptrace with ASLR off, pinned
   to the caller's CPU, and run it to the entry of FUNCTION.  */
int drv_start(struct drv_proc *proc, const char *prog, const char *arg,
	      const char *function);

/* The same with a whole argument vector ARGV (ARGV[0] the program),
   standard input from IN_PATH and standard output to OUT_PATH (NULL:
   inherited).  FUNCTION NULL: stop
   at the first instruction after exec (the dynamic loader's entry), and
   trace or single-step to the exit of the main thread (its
   PTRACE_EVENT_EXIT stop, while its memory is still there).  */
int drv_start_argv(struct drv_proc *proc, char *const argv[],
		   const char *in_path, const char *out_path,
		   const char *function);

/* FUNCTION's address in PROG as loaded in PID (0 if not found).  */
uint64_t drv_symbol(pid_t pid, const char *prog, const char *function);

/* Kill and reap it.  */
void drv_finish(struct drv_proc *proc);

/* Single-step the function to its return (or the whole run to the
   exit; -pse_range past PROC->max_insns), collecting the addresses of
   the instructions run (rep iterations folded).  Returns the count.  */
long drv_truth(struct drv_proc *proc, struct drv_ips *ips);

struct drv_trace {
	struct ps_buf pt;
	struct trace_block *blocks;
	long nblocks;
	struct emu_status status;
};

void drv_trace_init(struct drv_trace *trace);
void drv_trace_fini(struct drv_trace *trace);

/* Run the function to its return through the emulator, tracing in
   FORMAT into SIZE bytes; the trace is read (all) into TRACE.  */
int drv_emulate(struct drv_proc *proc, const struct emu_config *config,
		enum trace_format format, size_t size,
		struct drv_trace *trace);

/* Decode a PT trace with libipt's instruction decoder (code read from
   the stopped process, original bytes under traps).  Returns the count
   of instructions, or a negative libipt code; *GAPS counts overflow and
   decode errors resynchronized over.  */
long drv_decode_pt(struct drv_proc *proc, const struct ps_buf *pt,
		   struct drv_ips *ips, unsigned *gaps);

/* The same with a 0 in IPS where each gap is: the pieces between them
   can be checked apart.  */
long drv_decode_pt_marked(struct drv_proc *proc, const struct ps_buf *pt,
			  struct drv_ips *ips, unsigned *gaps);

/* Check a PT trace with libipt's packet decoder: 0 if every byte from
   the first PSB decodes to a packet, else a negative libipt code.
   *NPACKETS gets the packet count.  */
int drv_check_packets(const struct ps_buf *pt, unsigned long *npackets);

/* Expand BTS blocks into instruction addresses by decoding them.  */
long drv_expand_bts(struct drv_proc *proc, const struct trace_block *b,
		    long n, struct drv_ips *ips);

/* Fold consecutive repeats of rep-prefixed instructions.  */
void drv_fold_rep(struct drv_proc *proc, struct drv_ips *ips);

/* The index of the first difference between A and B, or -1.  */
long drv_first_diff(const struct drv_ips *a, const struct drv_ips *b);

#endif
