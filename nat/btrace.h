/* Branch tracing of one thread, whatever records it: Intel PT or BTS
   through perf where the hardware has them, else the trace emulator.
   The server asks for a format and a size; this file picks the source
   and hides which one it is, except in the status it reports.  */
#ifndef NAT_BTRACE_H
#define NAT_BTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nat/emu/emu_cache_status.h"
#include "nat/perf_bts.h"
#include "nat/perf_pt.h"
#include "common/trace.h"

struct nat_target;
struct nat_thread;
struct ps_buf;

/* Which sources `--btrace-source` allows.  */
enum nat_btrace_policy {
	nat_btrace_auto,       /* hardware when present and allowed */
	nat_btrace_hardware,
	nat_btrace_emulated,
};

/* Which emulation engine `--btrace-engine` picks (auto: the code cache,
   which hands the ptrace engine what it cannot run).  */
enum nat_btrace_engine {
	nat_btrace_engine_auto,
	nat_btrace_engine_ptrace,
	nat_btrace_engine_cache,
};

enum nat_btrace_read {
	nat_btrace_read_all,
	nat_btrace_read_new,
	nat_btrace_read_delta,
	nat_btrace_read_copy,  /* all, for the stub itself: what the
				  client's next "new" or "delta" read
				  continues from stays as it was */
};

struct nat_btrace {
	enum trace_format format;
	bool emulated;             /* the emulator records, not perf */
	size_t size;               /* the buffer size in use */
	uint64_t read_mark;        /* emulated PT: bytes recorded at the
				      last read, for "new" */
	bool follow;               /* threads it creates are traced too */
	bool inherited;            /* started at its clone, the client has
				      not asked for it yet */
	struct perf_pt pt;
	struct perf_bts bts;
};

struct nat_btrace_status {
	enum trace_format format;
	bool emulated;
	size_t size;
	uint64_t recorded;         /* bytes (PT) or blocks (BTS) ever */
	uint64_t held;             /* bytes or blocks in the buffer now */
	uint64_t wraps;
	uint64_t stops;            /* emulated: ptrace stops taken */
	uint64_t followed;         /* emulated: branches passed, no stop */
	uint64_t insns;            /* emulated: instructions run, traced,
				      outside the code cache */
	/* Emulated: the engine, and what the code cache did.  */
	bool cache;
	struct emu_cache_status cc;
};

/* Append thread PID.TID's line of `monitor btrace status` for an
   emulated trace: the engine, what it recorded and how (the code
   cache's exits by cause), and why the code cache does not run it,
   where it does not.  */
void nat_btrace_engine_line(struct ps_buf *out, int pid, int tid,
			    const struct nat_btrace_status *st);

/* "hardware" or "emulated", for status lines.  */
const char *nat_btrace_source_name(bool emulated);

/* The buffer size hardware tracing gets for a request of SIZE bytes
   (gdbserver's rule, which the emulator follows too): whole pages, at
   least one, a power of two of them, halved while above 32 bits.  0 if
   PAGE_SIZE is no power of two.  */
size_t nat_btrace_buffer_size(size_t size, size_t page_size);

/* Start tracing THREAD (stopped) in FORMAT with a buffer of SIZE bytes.
   On failure REASON says why, in words for the client.  */
int nat_btrace_enable(struct nat_target *target, struct nat_thread *thread,
		      enum trace_format format, size_t size, char *reason,
		      size_t reason_len);
int nat_btrace_disable(struct nat_target *target, struct nat_thread *thread);

/* Threads THREAD (traced) creates from now on are traced from their
   first instruction in its format and size, as GDB's own Linux target
   enables tracing at the clone event; theirs follow too.  */
void nat_btrace_follow_clones(struct nat_thread *thread);
/* At PARENT's clone event, CHILD (stopped, not yet run): traced as
   PARENT says.  0 when nothing was to be done.  */
int nat_btrace_clone(struct nat_target *target, struct nat_thread *parent,
		     struct nat_thread *child);
/* Whether THREAD's trace was started at its clone in FORMAT and not
   asked for yet: from now on it is the client's, kept as it is.  */
bool nat_btrace_claim(struct nat_thread *thread, enum trace_format format);

/* Close THREAD's trace source and free its trace, whichever source it
   is; the thread's process keeps its emulator.  */
void nat_btrace_free(struct nat_thread *thread);

/* THREAD's PT trace (raw bytes) or BTS blocks, per TYPE.  As with
   gdbserver, "new" is the whole trace when anything was recorded since
   the last read and nothing otherwise (GDB replaces its copy).  */
int nat_btrace_read_pt(struct nat_thread *thread, enum nat_btrace_read type,
		       struct ps_buf *raw);
int nat_btrace_read_bts(struct nat_thread *thread, enum nat_btrace_read type,
			struct trace_blocks *blocks);

/* THREAD's trace: its format (trace_format_none when untraced), its
   buffer size in use, whether the emulator records it.  */
enum trace_format nat_btrace_format(const struct nat_thread *thread);
size_t nat_btrace_size(const struct nat_thread *thread);
bool nat_btrace_is_emulated(const struct nat_thread *thread);

int nat_btrace_status(const struct nat_thread *thread,
		      struct nat_btrace_status *status);

/* Whether this host traces PT in hardware: 0, or negative with REASON
   (LEN bytes) saying why not, as perf_pt_probe says it.  */
int nat_btrace_pt_probe(char *reason, size_t len);

/* Append the host's /proc/cpuinfo, the cpu a hardware trace's consumer
   decodes against (LLDB's procfsCpuInfo).  */
int nat_btrace_host_cpuinfo(struct ps_buf *out);

/* The cpu to name in a PT trace's configuration; an empty vendor when
   none should be named (emulated traces, cpus libipt does not know).  */
void nat_btrace_cpu(const struct nat_thread *thread, struct trace_cpu *cpu);

#endif
