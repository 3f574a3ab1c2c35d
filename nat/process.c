#include "nat/process.h"
#include "nat/btrace.h"
#include "nat/emu/emu.h"
#include "common/ps_error.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct nat_process *nat_add_process(struct nat_target *target, pid_t pid)
{
	struct nat_process *proc = calloc(1, sizeof(*proc)), **tail;

	if (!proc)
		return NULL;
	proc->pid = pid;
	nat_mem_init(&proc->mem, pid);
	int3_table_init(&proc->int3s);
	nat_debugregs_init(&proc->dr);

	/* Keep creation order: the first process is the one a Ctrl-C or a
	   plain 'k' means.  */
	for (tail = &target->procs; *tail; tail = &(*tail)->next)
		;
	*tail = proc;
	return proc;
}

static void nat_free_thread(struct nat_thread *thread)
{
	if (thread->btrace)
		nat_btrace_free(thread);
	free(thread->regs);
	free(thread);
}

void nat_remove_process(struct nat_target *target, struct nat_process *proc)
{
	struct nat_process **p;

	for (p = &target->procs; *p; p = &(*p)->next) {
		if (*p == proc) {
			*p = proc->next;
			break;
		}
	}
	while (proc->threads) {
		struct nat_thread *next = proc->threads->next;

		nat_free_thread(proc->threads);
		proc->threads = next;
	}
	if (proc->emu && !proc->emu_borrowed)
		emu_free(proc->emu);
	nat_mem_fini(&proc->mem);
	int3_table_fini(&proc->int3s);
	free(proc);
}

struct nat_thread *nat_add_thread(struct nat_process *proc, pid_t tid)
{
	struct nat_thread *thread = calloc(1, sizeof(*thread)), **tail;

	if (!thread)
		return NULL;
	thread->tid = tid;
	thread->proc = proc;
	thread->state = nat_thread_stopped;
	/* Threads are listed in creation order, as the client numbers them.  */
	for (tail = &proc->threads; *tail; tail = &(*tail)->next)
		;
	*tail = thread;
	return thread;
}

void nat_remove_thread(struct nat_process *proc, struct nat_thread *thread)
{
	struct nat_thread **p;

	for (p = &proc->threads; *p; p = &(*p)->next) {
		if (*p == thread) {
			*p = thread->next;
			nat_free_thread(thread);
			return;
		}
	}
}

void nat_thread_exited(struct nat_target *target, struct nat_thread *thread)
{
	if (thread->btrace && target->on_thread_exit)
		target->on_thread_exit(target->on_new_thread_ctx, thread);
	nat_remove_thread(thread->proc, thread);
}

struct nat_thread *nat_lookup_tid(struct nat_target *target, pid_t tid)
{
	for (struct nat_process *proc = target->procs; proc; proc = proc->next)
		for (struct nat_thread *t = proc->threads; t; t = t->next)
			if (t->tid == tid)
				return t;
	return NULL;
}

void nat_keep_only_leader(struct nat_process *proc)
{
	struct nat_thread *keep = proc->threads;

	if (!keep)
		return;
	while (keep->next) {
		struct nat_thread *extra = keep->next;

		keep->next = extra->next;
		nat_free_thread(extra);
	}
	keep->tid = proc->pid;
}

struct nat_process *nat_find_process(struct nat_target *target, pid_t pid)
{
	for (struct nat_process *proc = target->procs; proc; proc = proc->next)
		if (proc->pid == pid)
			return proc;
	return NULL;
}

struct nat_process *nat_first_process(struct nat_target *target)
{
	return target->procs;
}

struct nat_thread *nat_find_thread(struct nat_target *target, pid_t pid,
				   pid_t tid)
{
	struct nat_process *proc = nat_find_process(target, pid);

	if (!proc)
		return NULL;
	/* A zombie leader is no thread of the client's (target.h).  */
	for (struct nat_thread *t = proc->threads; t; t = t->next)
		if (t->tid == tid && !t->zombie)
			return t;
	return NULL;
}

void nat_debug(const struct nat_target *target, const char *fmt, ...)
{
	va_list ap;

	if (!target->debug)
		return;
	va_start(ap, fmt);
	fputs("[nat] ", target->debug);
	vfprintf(target->debug, fmt, ap);
	fputc('\n', target->debug);
	fflush(target->debug);
	va_end(ap);
}

long nat_read_memory(struct nat_process *proc, uint64_t addr, void *buf,
		     size_t len)
{
	long n = nat_mem_read(&proc->mem, addr, buf, len);

	if (n > 0)
		int3_shadow(&proc->int3s, addr, buf, (size_t) n);
	return n;
}

int nat_write_memory(struct nat_process *proc, uint64_t addr,
		     const void *buf, size_t len)
{
	int err = int3_write_through(&proc->int3s, &proc->mem, addr, buf, len);

	/* Code the emulator decoded may have changed under it.  */
	if (!err && proc->emu)
		err = emu_on_mem_write(proc->emu, addr, len);
	return err;
}

int nat_insert_breakpoint(struct nat_process *proc, uint64_t addr)
{
	int err = int3_insert(&proc->int3s, &proc->mem, addr, int3_owner_gdb);

	/* Threads running translated code stop there too.  */
	if (!err && proc->emu)
		emu_on_breakpoint(proc->emu, addr);
	return err;
}

int nat_remove_breakpoint(struct nat_process *proc, uint64_t addr)
{
	return int3_remove(&proc->int3s, &proc->mem, addr, int3_owner_gdb);
}

/* Debug registers are per thread: mark them stale everywhere and write
   them when each thread next runs, so one change costs no extra stops.  */
static void nat_mark_dr_stale(struct nat_process *proc)
{
	for (struct nat_thread *t = proc->threads; t; t = t->next)
		t->dr_stale = 1;
}

int nat_insert_hw_point(struct nat_process *proc, enum nat_dr_kind kind,
			uint64_t addr, size_t len)
{
	int err = nat_debugregs_insert(&proc->dr, kind, addr, len);

	if (err == 0)
		nat_mark_dr_stale(proc);
	return err;
}

int nat_remove_hw_point(struct nat_process *proc, enum nat_dr_kind kind,
			uint64_t addr, size_t len)
{
	int err = nat_debugregs_remove(&proc->dr, kind, addr, len);

	if (err == 0)
		nat_mark_dr_stale(proc);
	return err;
}
