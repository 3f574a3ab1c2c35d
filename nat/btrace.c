#include "nat/btrace.h"
#include "nat/cpu_info.h"
#include "nat/emu/emu.h"
#include "nat/perf_ring.h"
#include "nat/process.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/user.h>

const char *nat_btrace_source_name(bool emulated)
{
	return emulated ? "emulated" : "hardware";
}

static void nat_reason(char *reason, size_t len, const char *text)
{
	snprintf(reason, len, "%s", text);
}

/* Try the hardware source for FORMAT; 0 when it records.  */
static int nat_btrace_hw(struct nat_btrace *bt, pid_t tid, size_t size,
			 char *reason, size_t len)
{
	int err;

	if (bt->format == trace_format_pt) {
		err = perf_pt_probe(reason, len);
		if (err < 0)
			return err;
		perf_pt_init(&bt->pt);
		err = perf_pt_open(&bt->pt, tid, size);
		if (err < 0)
			nat_reason(reason, len, bt->pt.reason);
		bt->size = err < 0 ? 0 : perf_pt_size(&bt->pt);
		return err;
	}
	err = perf_bts_probe(reason, len);
	if (err < 0)
		return err;
	perf_bts_init(&bt->bts);
	err = perf_bts_open(&bt->bts, tid, size);
	if (err < 0)
		nat_reason(reason, len, bt->bts.reason);
	bt->size = err < 0 ? 0 : perf_bts_size(&bt->bts);
	return err;
}

size_t nat_btrace_buffer_size(size_t size, size_t page_size)
{
	uint64_t bytes;
	size_t pages = perf_ring_pages(size, page_size);

	/* btrace-conf says the size in 32 bits: halve until it fits.  */
	for (; pages; pages >>= 1) {
		bytes = (uint64_t) pages * page_size;
		if (bytes <= UINT_MAX)
			return (size_t) bytes;
	}
	return 0;
}

static int nat_btrace_start_emu(struct nat_target *target,
				struct nat_process *proc, struct nat_btrace *bt,
				pid_t tid, size_t size, char *reason, size_t len)
{
	size_t page_size = (size_t) sysconf(_SC_PAGESIZE);
	int err;

	if (!proc->emu) {
		/* Both shortcuts: each is checked by the emulator's oracle.  */
		struct emu_config config = {
			.ret_shortcut = true,
			.jcc_shortcut = true,
			.on_map_change = target->on_map_change,
			.map_ctx = target->on_new_thread_ctx,
			.engine = target->btrace_engine == nat_btrace_engine_ptrace ?
				emu_engine_ptrace : emu_engine_cache,
		};

		err = emu_alloc(&proc->emu, proc->pid, &proc->int3s,
				&proc->mem, &config);
		if (err < 0) {
			nat_reason(reason, len, "Cannot start the trace emulator.");
			return err;
		}
	}
	/* The sizes the kernel would give hardware tracing, so that GDB
	   shows the same as with gdbserver; less if memory is short, as
	   gdbserver takes what mmap grants.  */
	emu_set_psb_period(proc->emu, target->btrace_psb_period);
	emu_set_untimed(proc->emu, target->btrace_untimed);
	err = -pse_range;
	for (size = nat_btrace_buffer_size(size, page_size);
	     size >= page_size; size /= 2) {
		err = emu_enable(proc->emu, tid, bt->format, size);
		if (err != -pse_nomem)
			break;
	}
	if (err < 0) {
		nat_reason(reason, len, ps_errstr(err));
		return err;
	}
	bt->emulated = true;
	bt->size = size;
	/* A ptrace stop costs about 4x across CPUs: keep the stub and the
	   traced thread on one.  */
	emu_pin_cpu(tid);
	return 0;
}

int nat_btrace_enable(struct nat_target *target, struct nat_thread *thread,
		      enum trace_format format, size_t size, char *reason,
		      size_t reason_len)
{
	int policy = target->btrace_policy, err = -pse_unsupported;
	struct nat_btrace *bt;

	if (thread->btrace) {
		nat_reason(reason, reason_len, "Btrace already enabled.");
		return -pse_exists;
	}
	bt = calloc(1, sizeof(*bt));
	if (!bt)
		return -pse_nomem;
	bt->format = format;

	if (policy != nat_btrace_emulated)
		err = nat_btrace_hw(bt, thread->tid, size, reason, reason_len);
	if (err < 0 && policy != nat_btrace_hardware)
		err = nat_btrace_start_emu(target, thread->proc, bt, thread->tid,
					   size, reason, reason_len);
	if (err < 0) {
		free(bt);
		return err;
	}
	nat_debug(target, "thread %d: %s %s trace, %zu bytes",
		  (int) thread->tid, nat_btrace_source_name(bt->emulated),
		  format == trace_format_pt ? "PT" : "BTS", bt->size);
	thread->btrace = bt;
	return 0;
}

void nat_btrace_follow_clones(struct nat_thread *thread)
{
	if (thread->btrace)
		thread->btrace->follow = true;
}

int nat_btrace_clone(struct nat_target *target, struct nat_thread *parent,
		     struct nat_thread *child)
{
	const struct nat_btrace *pbt = parent->btrace;
	char reason[256];
	int err;

	if (!pbt || !pbt->follow || child->btrace)
		return 0;
	reason[0] = '\0';
	err = nat_btrace_enable(target, child, pbt->format, pbt->size, reason,
				sizeof(reason));
	if (err < 0) {
		nat_debug(target, "thread %d: not traced at its clone: %s",
			  (int) child->tid, reason);
		return err;
	}
	child->btrace->follow = true;
	child->btrace->inherited = true;
	return 0;
}

bool nat_btrace_claim(struct nat_thread *thread, enum trace_format format)
{
	struct nat_btrace *bt = thread->btrace;

	if (!bt || !bt->inherited || bt->format != format)
		return false;
	bt->inherited = false;
	return true;
}

/* The emulator slows every branch of the process down: drop it when
   no thread needs it any more.  */
static void nat_btrace_drop_emu(struct nat_process *proc)
{
	for (struct nat_thread *t = proc->threads; t; t = t->next)
		if (t->btrace && t->btrace->emulated)
			return;
	if (proc->emu && !proc->emu_borrowed)
		emu_free(proc->emu);
	proc->emu = NULL;
}

void nat_btrace_free(struct nat_thread *thread)
{
	struct nat_btrace *bt = thread->btrace;

	if (!bt)
		return;
	if (bt->emulated) {
		if (thread->proc->emu)
			emu_disable(thread->proc->emu, thread->tid);
	} else if (bt->format == trace_format_pt) {
		perf_pt_close(&bt->pt);
	} else {
		perf_bts_close(&bt->bts);
	}
	thread->btrace = NULL;
	free(bt);
}

int nat_btrace_disable(struct nat_target *target, struct nat_thread *thread)
{
	if (!thread->btrace)
		return -pse_notfound;
	nat_btrace_free(thread);
	if (thread->proc->emu)
		nat_btrace_drop_emu(thread->proc);
	nat_debug(target, "thread %d: trace off", (int) thread->tid);
	return 0;
}

/* Whether the emulator recorded PT since the last read; moves the
   mark.  */
static int nat_btrace_emu_moved(struct nat_thread *thread)
{
	struct emu_status st;
	uint64_t now;

	if (emu_status(thread->proc->emu, thread->tid, &st) < 0)
		return 1;
	now = st.bytes_recorded;
	if (now == thread->btrace->read_mark)
		return 0;
	thread->btrace->read_mark = now;
	return 1;
}

int nat_btrace_read_pt(struct nat_thread *thread, enum nat_btrace_read type,
		       struct ps_buf *raw)
{
	struct nat_btrace *bt = thread->btrace;

	if (!bt || bt->format != trace_format_pt)
		return -pse_notfound;
	/* Like gdbserver: PT has no delta; GDB then asks for "new".  */
	if (type == nat_btrace_read_delta)
		return -pse_unsupported;
	if (!bt->emulated) {
		uint64_t last = bt->pt.last_head;
		int err = perf_pt_read(&bt->pt, raw,
				       type == nat_btrace_read_new);

		if (type == nat_btrace_read_copy)
			bt->pt.last_head = last;
		return err;
	}
	/* Reads for the client move the mark "new" compares with.  */
	if (type != nat_btrace_read_copy && !nat_btrace_emu_moved(thread) &&
	    type == nat_btrace_read_new)
		return 0;
	return emu_read_pt(thread->proc->emu, thread->tid, false, raw);
}

int nat_btrace_read_bts(struct nat_thread *thread, enum nat_btrace_read type,
			struct trace_blocks *blocks)
{
	struct nat_btrace *bt = thread->btrace;
	static const enum emu_bts_read_type emu_types[] = {
		emu_bts_read_all, emu_bts_read_new, emu_bts_read_delta,
		emu_bts_read_copy,
	};
	int err;

	if (!bt || bt->format != trace_format_bts)
		return -pse_notfound;
	if (!bt->emulated) {
		uint64_t pc = (uint64_t) ptrace(PTRACE_PEEKUSER, thread->tid,
			(void *) offsetof(struct user_regs_struct, rip), 0);
		static const enum perf_bts_read_type types[] = {
			perf_bts_read_all, perf_bts_read_new, perf_bts_read_delta,
			perf_bts_read_all,
		};
		uint64_t last = bt->bts.last_head;

		err = perf_bts_read(&bt->bts, blocks, types[type], pc);
		if (type == nat_btrace_read_copy)
			bt->bts.last_head = last;
		return err;
	}
	/* GDB's view of BTS: the newest block ends at the stop pc.  */
	return emu_read_bts(thread->proc->emu, thread->tid, emu_types[type],
			    true, blocks);
}

int nat_btrace_status(const struct nat_thread *thread,
		      struct nat_btrace_status *st)
{
	const struct nat_btrace *bt = thread->btrace;
	struct perf_ring_status ring;
	struct emu_status es;
	int err;

	if (!bt)
		return -pse_notfound;
	memset(st, 0, sizeof(*st));
	st->format = bt->format;
	st->emulated = bt->emulated;
	st->size = bt->size;
	if (!bt->emulated) {
		if (bt->format == trace_format_pt)
			perf_pt_status(&bt->pt, &ring);
		else
			perf_bts_status(&bt->bts, &ring);
		st->held = ring.held;
		st->wraps = (uint64_t) ring.wrapped;
		st->recorded = ring.held;
		return 0;
	}
	err = emu_status(thread->proc->emu, thread->tid, &es);
	if (err < 0)
		return err;
	st->recorded = bt->format == trace_format_pt ?
		es.bytes_recorded : es.blocks;
	st->held = bt->format == trace_format_pt ? es.bytes_held
						  : es.blocks_held;
	st->wraps = es.wraps;
	st->stops = es.stops;
	st->followed = es.followed;
	st->insns = es.insns;
	st->cache = es.engine == emu_engine_cache;
	st->cc = es.cc;
	return 0;
}

void nat_btrace_engine_line(struct ps_buf *out, int pid, int tid,
			    const struct nat_btrace_status *st)
{
	if (!st->cache) {
		ps_buf_printf(out, "Thread %d.%d: engine ptrace, %llu "
			      "instructions recorded (%llu stops).\n", pid,
			      tid, (unsigned long long) st->insns,
			      (unsigned long long) st->stops);
		return;
	}
	ps_buf_printf(out, "Thread %d.%d: engine %s, %llu instructions "
		      "recorded: %llu in the code cache (%llu branches, %llu "
		      "entries, %llu exits: %llu to new blocks, %llu table "
		      "misses, %llu left to ptrace, %llu log fills; %llu "
		      "blocks in the process, %llu flushes, %.1f ms "
		      "translating, %.1f ms draining), %llu under ptrace "
		      "(%llu stops)",
		      pid, tid,
		      st->cc.fallback || st->cc.process_fallback ?
		      "ptrace (the code cache fell back)" : "code cache",
		      (unsigned long long) (st->cc.insns + st->insns),
		      (unsigned long long) st->cc.insns,
		      (unsigned long long) st->cc.branches,
		      (unsigned long long) st->cc.entries,
		      (unsigned long long) (st->cc.traps + st->cc.fills),
		      (unsigned long long) st->cc.links,
		      (unsigned long long) st->cc.misses,
		      (unsigned long long) st->cc.leaves,
		      (unsigned long long) st->cc.fills,
		      (unsigned long long) st->cc.blocks,
		      (unsigned long long) st->cc.flushes,
		      st->cc.xlate_ns / 1e6, st->cc.drain_ns / 1e6,
		      (unsigned long long) st->insns,
		      (unsigned long long) st->stops);
	if (st->cc.fallback)
		ps_buf_printf(out, "; fallback: %s", st->cc.fallback);
	if (st->cc.process_fallback)
		ps_buf_printf(out, "; fallback for the process: %s",
			      st->cc.process_fallback);
	ps_buf_puts(out, ".\n");
}

void nat_btrace_cpu(const struct nat_thread *thread, struct trace_cpu *cpu)
{
	struct trace_cpu host;

	memset(cpu, 0, sizeof(*cpu));
	/* Emulated traces come from no real cpu: naming this one could only
	   bring errata workarounds (or a refusal) that do not apply.  */
	if (!thread->btrace || thread->btrace->emulated)
		return;
	if (cpu_info_read(&host) == 0)
		cpu_info_for_pt_config(cpu, &host);
}

enum trace_format nat_btrace_format(const struct nat_thread *thread)
{
	return thread->btrace ? thread->btrace->format : trace_format_none;
}

size_t nat_btrace_size(const struct nat_thread *thread)
{
	return thread->btrace ? thread->btrace->size : 0;
}

bool nat_btrace_is_emulated(const struct nat_thread *thread)
{
	return thread->btrace && thread->btrace->emulated;
}

int nat_btrace_pt_probe(char *reason, size_t len)
{
	return perf_pt_probe(reason, len);
}

int nat_btrace_host_cpuinfo(struct ps_buf *out)
{
	return cpu_info_procfs(out);
}
