/* The accessors of nat/target.h: what the server reads of processes and
   threads, and what it sets of the target, without their fields.  */
#include "nat/target.h"
#include "nat/wait_status.h"

#include <string.h>
#include <sys/wait.h>

struct nat_process *nat_process_next(struct nat_process *proc)
{
	return proc->next;
}

/* A zombie leader (nat_thread.zombie) is no thread of the client's: it
   has exited, as gdbserver tells by dropping it.  */
static struct nat_thread *nat_live_from(struct nat_thread *thread)
{
	while (thread && thread->zombie)
		thread = thread->next;
	return thread;
}

struct nat_thread *nat_process_first_thread(struct nat_process *proc)
{
	/* A fork child the client has not heard of has no thread yet.  */
	if (proc->fork_unreported)
		return NULL;
	return nat_live_from(proc->threads);
}

struct nat_thread *nat_thread_next(struct nat_thread *thread)
{
	return nat_live_from(thread->next);
}

pid_t nat_process_pid(const struct nat_process *proc)
{
	return proc->pid;
}

int nat_process_attached(const struct nat_process *proc)
{
	return proc->attached;
}

const struct int3_site *nat_process_int3_at(struct nat_process *proc,
					    uint64_t addr)
{
	return int3_lookup(&proc->int3s, addr);
}

int nat_process_catch_syscalls(struct nat_process *proc, int on,
			       const uint64_t *nrs, size_t count)
{
	return nat_catch_syscall_set(&proc->catch_syscalls, on, nrs, count);
}

pid_t nat_thread_tid(const struct nat_thread *thread)
{
	return thread->tid;
}

pid_t nat_thread_pid(const struct nat_thread *thread)
{
	return thread->proc->pid;
}

struct nat_process *nat_thread_process(struct nat_thread *thread)
{
	return thread->proc;
}

int nat_thread_stepping(const struct nat_thread *thread)
{
	return thread->stepping;
}

int nat_thread_traced(const struct nat_thread *thread)
{
	return thread->btrace != NULL;
}

int nat_thread_last_sig(const struct nat_thread *thread)
{
	return thread->last_sig;
}

void nat_thread_set_last_sig(struct nat_thread *thread, int sig)
{
	thread->last_sig = sig;
}

int nat_thread_stop_reported(const struct nat_thread *thread)
{
	return !thread->resumed && thread->stop_known;
}

int nat_thread_take_signal_stop(struct nat_thread *thread)
{
	if (!thread->has_pending ||
	    !nat_status_signal_stop(thread->pending_status))
		return 0;
	thread->has_pending = 0;
	thread->last_sig = WSTOPSIG(thread->pending_status);
	return thread->last_sig;
}

void nat_target_set_fork_events(struct nat_target *target, int fork,
				int vfork, int exec)
{
	target->report_fork = fork;
	target->report_vfork = vfork;
	target->report_exec = exec;
}

void nat_target_set_thread_events(struct nat_target *target, int on)
{
	target->report_thread_exit = on;
	target->report_thread_create = on;
}

void nat_target_client_reset(struct nat_target *target)
{
	nat_target_set_fork_events(target, 0, 0, 0);
	nat_target_set_thread_events(target, 0);
	memset(target->pass_signals, 0, sizeof(target->pass_signals));
	target->program_signals_set = 0;
}

void nat_target_set_quit(struct nat_target *target,
			 const volatile sig_atomic_t *quit)
{
	target->quit = quit;
}

void nat_target_set_pass_signals(struct nat_target *target,
				 const uint8_t pass[NAT_SIGNALS])
{
	memcpy(target->pass_signals, pass, sizeof(target->pass_signals));
}

void nat_target_set_program_signals(struct nat_target *target,
				    const uint8_t pass[NAT_SIGNALS])
{
	memcpy(target->program_signals, pass, sizeof(target->program_signals));
	target->program_signals_set = 1;
}

struct nat_start_opts *nat_target_start_opts(struct nat_target *target)
{
	return &target->start;
}

FILE *nat_target_debug(const struct nat_target *target)
{
	return target->debug;
}

void nat_target_set_debug(struct nat_target *target, FILE *log)
{
	target->debug = log;
}

void nat_target_set_btrace(struct nat_target *target, int policy, int engine)
{
	target->btrace_policy = policy;
	target->btrace_engine = engine;
}

int nat_target_btrace_policy(const struct nat_target *target)
{
	return target->btrace_policy;
}

int nat_target_btrace_engine(const struct nat_target *target)
{
	return target->btrace_engine;
}

void nat_target_set_psb_period(struct nat_target *target, uint32_t bytes)
{
	target->btrace_psb_period = bytes;
}

void nat_target_set_untimed(struct nat_target *target, bool untimed)
{
	target->btrace_untimed = untimed;
}

void nat_target_set_new_thread_hook(struct nat_target *target,
				    void (*fn)(void *ctx,
					       struct nat_thread *thread),
				    void *ctx)
{
	target->on_new_thread = fn;
	target->on_new_thread_ctx = ctx;
}

void nat_target_clear_new_thread_hook(struct nat_target *target, void *ctx)
{
	if (target->on_new_thread_ctx != ctx)
		return;
	target->on_new_thread = NULL;
	target->on_new_thread_ctx = NULL;
}

int nat_target_tsc_conv(const struct nat_target *target,
			struct nat_tsc_conv *conv)
{
	return nat_tsc_clock_conv(&target->tsc_clock, conv);
}
