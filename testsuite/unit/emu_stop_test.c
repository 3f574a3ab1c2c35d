/* Stop handling on a real process: the engine's traps are consumed,
   a GDB breakpoint sharing a site and a signal are reported with the
   trace segment closed, a requested step is reported after one
   instruction.  */
#include "testsuite/emu/emu_driver.h"
#include "testsuite/emu/emu_test_main.h"
#include "nat/emu/emu.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <intel-pt.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static void resume(pid_t tid, enum emu_resume how, int sig)
{
	ptrace(emu_ptrace_request(how), tid, 0, sig);
}

/* The last two packets of the trace.  */
static void last_packets(struct emu *emu, pid_t tid, enum pt_packet_type *a,
			 enum pt_packet_type *b)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct pt_packet p;
	struct ps_buf out;

	ps_buf_init(&out);
	cr_assert_eq(emu_read_pt(emu, tid, false, &out), 0);
	pt_config_init(&config);
	config.begin = (uint8_t *) out.data;
	config.end = (uint8_t *) out.data + out.len;
	dec = pt_pkt_alloc_decoder(&config);
	cr_assert_geq(pt_pkt_sync_forward(dec), 0);
	*a = *b = ppt_invalid;
	while (pt_pkt_next(dec, &p, sizeof(p)) >= 0) {
		*a = *b;
		*b = p.type;
	}
	pt_pkt_free_decoder(dec);
	ps_buf_fini(&out);
}

/* The bits of an IP a compressed payload carries.  */
static uint64_t ipc_mask(enum pt_ip_compression ipc)
{
	switch (ipc) {
	case pt_ipc_update_16: return 0xffff;
	case pt_ipc_update_32: return 0xffffffff;
	case pt_ipc_sext_48:
	case pt_ipc_update_48: return 0xffffffffffffull;
	default: return ~0ull;
	}
}

static void start(struct drv_proc *proc, struct emu **emu)
{
	char prog[512];

	snprintf(prog, sizeof(prog), "%s/recursion", EMU_PROGDIR);
	cr_assert_eq(drv_start(proc, prog, "8", "run"), 0);
	cr_assert_eq(emu_alloc(emu, proc->pid, &proc->sites, &proc->mem,
			       NULL), 0);
	cr_assert_eq(emu_enable(*emu, proc->pid, trace_format_pt, 1 << 16), 0);
}

Test(stop, own_traps_consumed_gdb_breakpoint_reported)
{
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	enum pt_packet_type a, b;
	struct user_regs_struct regs;
	unsigned consumed = 0;
	int status;

	start(&proc, &emu);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	/* GDB's breakpoint on the first stop the engine planted.  */
	cr_assert_eq(proc.sites.count, 1);
	uint64_t site = proc.sites.sites[0].addr;
	cr_assert_eq(int3_insert(&proc.sites, &proc.mem, site, int3_owner_gdb),
		     0);
	resume(proc.pid, how, 0);
	for (;;) {
		cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
		cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how),
			     0);
		if (verdict == emu_report)
			break;
		consumed++;
		resume(proc.pid, how, 0);
	}
	cr_expect_eq(consumed, 0);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
	cr_expect_eq(regs.rip, site + 1, "left as the kernel reported it");
	last_packets(emu, proc.pid, &a, &b);
	cr_expect_eq(a, ppt_fup);
	cr_expect_eq(b, ppt_tip_pgd);

	/* Resumed from GDB's breakpoint (PC back on it): the instruction
	   under it runs, then the engine's traps take over.  */
	int3_remove(&proc.sites, &proc.mem, site, int3_owner_gdb);
	regs.rip = site;
	ptrace(PTRACE_SETREGS, proc.pid, 0, &regs);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	resume(proc.pid, how, 0);
	cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
	cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how), 0);
	cr_expect_eq(verdict, emu_consumed);
	emu_free(emu);
	drv_finish(&proc);
}

Test(stop, signal_reported_and_requested_step)
{
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	enum pt_packet_type a, b;
	struct user_regs_struct before, after;
	int status;

	start(&proc, &emu);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &before);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, true, &how), 0);
	cr_expect_eq(how, emu_resume_step);
	resume(proc.pid, how, 0);
	cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
	cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how), 0);
	cr_expect_eq(verdict, emu_report, "the step the caller asked for");
	ptrace(PTRACE_GETREGS, proc.pid, 0, &after);
	cr_expect_neq(after.rip, before.rip);
	last_packets(emu, proc.pid, &a, &b);
	cr_expect_eq(a, ppt_fup);
	cr_expect_eq(b, ppt_tip_pgd);

	/* A signal from outside while it runs: reported, not consumed. */
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	syscall(SYS_tgkill, proc.pid, proc.pid, SIGWINCH);
	resume(proc.pid, how, 0);
	for (;;) {
		cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
		cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how),
			     0);
		if (verdict == emu_report)
			break;
		resume(proc.pid, how, 0);
	}
	cr_expect(WIFSTOPPED(status) && WSTOPSIG(status) == SIGWINCH);
	last_packets(emu, proc.pid, &a, &b);
	cr_expect_eq(b, ppt_tip_pgd);
	emu_free(emu);
	drv_finish(&proc);
}

Test(stop, exit_is_reported)
{
	struct emu *emu;
	struct drv_proc proc;
	enum emu_resume how;
	enum emu_verdict verdict;

	start(&proc, &emu);
	cr_assert_eq(emu_on_stop(emu, 424242, 0 /* exited 0 */, &verdict,
				 &how), 0);
	cr_expect_eq(verdict, emu_report);
	emu_free(emu);
	drv_finish(&proc);
}

/* execve while traced: TIP.PGD at the syscall, then MODE.Exec and
   TIP.PGE at the new image's first instruction, and tracing goes on
   there with traps planted afresh.  */
Test(stop, execve_resumes_tracing_in_the_new_image)
{
	char prog[512];
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	struct user_regs_struct regs;
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct pt_packet p;
	struct ps_buf out;
	uint64_t entry = 0;
	bool pgd = false, pge_at_entry = false;
	int status, sig, after = 0;

	snprintf(prog, sizeof(prog), "%s/exec", EMU_PROGDIR);
	cr_assert_eq(drv_start(&proc, prog, NULL, "run"), 0);
	ptrace(PTRACE_SETOPTIONS, proc.pid, 0, PTRACE_O_TRACEEXEC |
	       PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem, NULL),
		     0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 1 << 20), 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	resume(proc.pid, how, 0);
	for (;;) {
		cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
		cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how),
			     0);
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (verdict == emu_consumed) {
			resume(proc.pid, how, 0);
			continue;
		}
		sig = WSTOPSIG(status);
		/* A syscall stop is the driver's to pass over, as nat's is.  */
		if (sig == (SIGTRAP | 0x80))
			sig = 0;
		if (status >> 16 == PTRACE_EVENT_EXEC) {
			cr_assert_eq(emu_on_exec(emu), 0);
			ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
			entry = regs.rip;
			sig = 0;
		}
		cr_assert_eq(emu_prepare(emu, proc.pid, sig, false, &how), 0);
		resume(proc.pid, how, sig);
	}
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the new image ran to its end");
	cr_assert_neq(entry, 0, "no exec event");

	ps_buf_init(&out);
	cr_assert_eq(emu_read_pt(emu, proc.pid, false, &out), 0);
	pt_config_init(&config);
	config.begin = (uint8_t *) out.data;
	config.end = (uint8_t *) out.data + out.len;
	dec = pt_pkt_alloc_decoder(&config);
	cr_assert_geq(pt_pkt_sync_forward(dec), 0);
	while ((status = pt_pkt_next(dec, &p, sizeof(p))) >= 0) {
		if (p.type == ppt_tip_pgd)
			pgd = true;
		if (pgd && p.type == ppt_tip_pge &&
		    p.payload.ip.ip == (entry & ipc_mask(p.payload.ip.ipc)))
			pge_at_entry = true;
		if (pge_at_entry && (p.type == ppt_tnt_8 || p.type == ppt_tip))
			after++;
	}
	cr_expect_eq(status, -pte_eos, "the packet stream decodes");
	cr_expect(pge_at_entry, "TIP.PGE at the new entry %#llx",
		  (unsigned long long) entry);
	cr_expect_gt(after, 100, "traced on in the new image");
	pt_pkt_free_decoder(dec);
	ps_buf_fini(&out);
	emu_free(emu);
	proc.pid = 0;   /* already reaped */
	int3_table_fini(&proc.sites);
	nat_mem_fini(&proc.mem);
}

/* Hand stops to the engine, resuming as it says, until one is the
   caller's.  */
static int run_to_report(struct emu *emu, pid_t pid, enum emu_resume how,
			 unsigned *consumed)
{
	enum emu_verdict verdict;
	int status;

	resume(pid, how, 0);
	for (;;) {
		cr_assert_eq(waitpid(pid, &status, __WALL), pid);
		cr_assert_eq(emu_on_stop(emu, pid, status, &verdict, &how), 0);
		if (verdict == emu_report)
			return status;
		if (consumed)
			(*consumed)++;
		resume(pid, how, 0);
	}
}

/* Another thread took the engine's traps out (a mapping change) after
   this one hit a trap but before its stop was seen: the stop is still
   the engine's, never a SIGTRAP for GDB.  */
Test(stop, trap_hit_before_it_was_lifted)
{
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	struct user_regs_struct regs;
	uint64_t site;
	int status;

	start(&proc, &emu);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	cr_assert_eq(proc.sites.count, 1);
	site = proc.sites.sites[0].addr;
	resume(proc.pid, how, 0);
	cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
	cr_assert_eq(regs.rip, site + 1);

	cr_assert_eq(emu_on_mem_write(emu, 0, 0), 0);   /* unplants all */
	cr_assert_null(int3_lookup(&proc.sites, site));
	cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how), 0);
	cr_expect_eq(verdict, emu_consumed);
	/* The program runs on under the engine to its exit.  */
	status = run_to_report(emu, proc.pid, how, NULL);
	cr_expect(WIFEXITED(status), "status %#x", status);
	emu_free(emu);
	drv_finish(&proc);
}

/* Where the branch at the first planted trap goes, from a first run.  */
static void first_branch(uint64_t *site, uint64_t *target)
{
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	struct user_regs_struct regs;
	int status;

	start(&proc, &emu);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	*site = proc.sites.sites[0].addr;
	resume(proc.pid, how, 0);
	cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
	cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how), 0);
	cr_assert_eq(verdict, emu_consumed);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
	*target = regs.rip;
	emu_free(emu);
	drv_finish(&proc);
}

/* The engine emulates a branch onto GDB's breakpoint and lets the
   thread run into it; a SIGSTOP (all-stop) delivered before the INT3
   ran must not make the next resume pass over the breakpoint.  */
Test(stop, breakpoint_reached_by_emulation_is_taken_after_sigstop)
{
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	struct user_regs_struct regs;
	uint64_t site, target;
	unsigned consumed = 0;
	int status;

	first_branch(&site, &target);
	cr_assert_neq(target, site);
	start(&proc, &emu);
	cr_assert_eq(int3_insert(&proc.sites, &proc.mem, target,
				 int3_owner_gdb), 0);
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	resume(proc.pid, how, 0);
	cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
	cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how), 0);
	cr_assert_eq(verdict, emu_consumed, "the engine's trap at %#lx",
		     (unsigned long) site);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
	cr_assert_eq(regs.rip, target, "sent onto GDB's breakpoint");

	syscall(SYS_tgkill, proc.pid, proc.pid, SIGSTOP);
	status = run_to_report(emu, proc.pid, how, NULL);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
	cr_assert_eq(regs.rip, target, "stopped before the INT3 ran");

	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	status = run_to_report(emu, proc.pid, how, &consumed);
	cr_expect(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP,
		  "status %#x", status);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
	cr_expect_eq(regs.rip, target + 1, "GDB's breakpoint hit");
	/* Right there, not on a later pass (the program recurses).  */
	cr_expect_eq(consumed, 0);
	emu_free(emu);
	drv_finish(&proc);
}

/* A thread of the process other than its main one (the first found).  */
static pid_t other_thread(pid_t pid)
{
	char path[64];
	struct dirent *d;
	pid_t tid = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int) pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir)))
		if (atoi(d->d_name) > 0 && atoi(d->d_name) != pid)
			tid = atoi(d->d_name);
	if (dir)
		closedir(dir);
	return tid;
}

/* SIGSTOP WORKER, blocked in read(2): its stop status in *STATUS;
   returns the syscall's address.  */
static uint64_t stop_in_read(pid_t pid, pid_t worker, int *status)
{
	struct user_regs_struct regs;

	syscall(SYS_tgkill, pid, worker, SIGSTOP);
	cr_assert_eq(waitpid(worker, status, __WALL), worker);
	cr_assert(WIFSTOPPED(*status) && WSTOPSIG(*status) == SIGSTOP, "status %#x", *status);
	ptrace(PTRACE_GETREGS, worker, 0, &regs);
	cr_assert_eq((long) regs.orig_rax, 0, "the worker is in read(2)");
	cr_assert_eq((long) regs.rax, -512, "interrupted: -ERESTARTSYS");
	return regs.rip - 2;
}

/* two_readers stopped at run, its worker stopped in read(2) (its stop
   status in *STATUS), and an engine for it; returns the read's
   syscall address.  */
static uint64_t start_two_readers(struct drv_proc *proc, char *prog,
				  size_t size, struct emu **emu,
				  pid_t *worker, int *status)
{
	uint64_t syscall_ip;

	snprintf(prog, size, "%s/two_readers", EMU_PROGDIR);
	cr_assert_eq(drv_start(proc, prog, NULL, "run"), 0);
	*worker = other_thread(proc->pid);
	cr_assert_gt(*worker, 0);
	syscall_ip = stop_in_read(proc->pid, *worker, status);
	cr_assert_eq(emu_alloc(emu, proc->pid, &proc->sites, &proc->mem,
			       NULL), 0);
	return syscall_ip;
}

/* Write the byte two_readers' worker reads, through /proc.  */
static void feed_worker(struct drv_proc *proc, const char *prog)
{
	char path[64];
	int fds[2], fd;

	cr_assert_eq(nat_mem_read(&proc->mem, drv_symbol(proc->pid, prog,
							 "worker_pipe"),
				  fds, sizeof(fds)), sizeof(fds));
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int) proc->pid,
		 fds[1]);
	fd = open(path, O_WRONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "w", 1), 1);
	close(fd);
}

/* Every thread runs on through the engine to the program's end, which
   must be a clean exit (it checks what it read).  */
static void run_to_end(struct emu *emu, struct drv_proc *proc)
{
	enum emu_verdict verdict;
	enum emu_resume how;
	int status, sig;

	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);

		cr_assert_gt(tid, 0);
		cr_assert_eq(emu_on_stop(emu, tid, status, &verdict, &how), 0);
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == proc->pid)
				break;
			continue;
		}
		sig = 0;
		if (verdict == emu_report) {
			sig = status >> 16 ? 0 : WSTOPSIG(status);
			if (sig == SIGSTOP)
				sig = 0;
			cr_expect_eq(sig, 0, "thread %d got signal %d", tid,
				     sig);
			cr_assert_eq(emu_prepare(emu, tid, sig, false, &how),
				     0);
		}
		resume(tid, how, sig);
	}
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the program ended with %#x", status);
	emu_free(emu);
	drv_finish(proc);
}

/* Two threads step the same syscall under one planted site.  The
   worker, blocked in read(2) there, is resumed (its step restarts the
   syscall, the site taken out); main reaches the site and its step is
   set up; the worker's read returns and its step puts the trap back;
   only then does main step: it runs into the INT3, not the syscall.
   The engine must step it again from the syscall, not take the trap
   for the syscall's return and resume it one byte further
   (issue 13: SIGILL with 64 threads recorded).  */
Test(stop, step_onto_a_trap_put_back_by_another_thread)
{
	char prog[512];
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how, worker_how;
	enum emu_verdict verdict;
	struct user_regs_struct regs;
	uint64_t syscall_ip;
	int status, i;
	pid_t worker;

	syscall_ip = start_two_readers(&proc, prog, sizeof(prog), &emu,
				       &worker, &status);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 1 << 16), 0);
	cr_assert_eq(emu_enable(emu, worker, trace_format_pt, 1 << 16), 0);
	cr_assert_eq(emu_on_stop(emu, worker, status, &verdict, &how), 0);

	/* Main runs to the trap at the syscall; its step is set up.  */
	cr_assert_eq(emu_prepare(emu, proc.pid, 0, false, &how), 0);
	for (i = 0; i < 10000; i++) {
		resume(proc.pid, how, 0);
		cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
		cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict,
					 &how), 0);
		cr_assert_eq(verdict, emu_consumed);
		ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
		if (how == emu_resume_step && regs.rip == syscall_ip)
			break;
	}
	cr_assert_lt(i, 10000, "main never reached read's syscall");
	cr_assert_not_null(int3_lookup(&proc.sites, syscall_ip));

	/* The worker's step restarts its read, which blocks; then the
	   read returns and the step puts the trap back.  */
	cr_assert_eq(emu_prepare(emu, worker, 0, false, &worker_how), 0);
	cr_assert_eq(worker_how, emu_resume_step);
	resume(worker, worker_how, 0);
	feed_worker(&proc, prog);
	cr_assert_eq(waitpid(worker, &status, __WALL), worker);
	cr_assert_eq(emu_on_stop(emu, worker, status, &verdict, &worker_how),
		     0);
	cr_assert_eq(verdict, emu_consumed);

	/* Main's step meets the INT3.  */
	resume(proc.pid, how, 0);
	cr_assert_eq(waitpid(proc.pid, &status, __WALL), proc.pid);
	cr_assert_eq(emu_on_stop(emu, proc.pid, status, &verdict, &how), 0);
	cr_assert_eq(verdict, emu_consumed);
	ptrace(PTRACE_GETREGS, proc.pid, 0, &regs);
	cr_expect_eq(regs.rip, syscall_ip, "resumed at %#llx, not the syscall",
		     regs.rip);
	cr_expect_eq(how, emu_resume_step);

	/* Both run on to the program's end, which checks both reads.  */
	resume(worker, worker_how, 0);
	resume(proc.pid, how, 0);
	run_to_end(emu, &proc);
}

/* A thread stopped inside a syscall its trace closed in (GDB's
   all-stop SIGSTOP while the worker's step blocks in read) is resumed:
   the kernel runs the syscall again.  The trace holds it once and goes
   on where it returns; a TIP.PGE at the syscall, after a TIP.PGD that
   libipt expects to resume after it, is the "Non-contiguous trace" GDB
   showed in main's pthread_join (issue 13).  */
Test(stop, syscall_restarted_after_a_stop_inside_it)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	struct pt_packet p;
	struct ps_buf out;
	char prog[512];
	struct drv_proc proc;
	struct emu *emu;
	enum emu_resume how;
	enum emu_verdict verdict;
	uint64_t syscall_ip, after;
	int status, pgd = 0, pge_at_syscall = 0, pge_after = 0;
	pid_t worker;

	syscall_ip = start_two_readers(&proc, prog, sizeof(prog), &emu,
				       &worker, &status);
	cr_assert_eq(emu_enable(emu, worker, trace_format_pt, 1 << 16), 0);
	cr_assert_eq(emu_on_stop(emu, worker, status, &verdict, &how), 0);

	/* Traced from the restarted read on; it blocks, and is stopped
	   inside it.  */
	cr_assert_eq(emu_prepare(emu, worker, 0, false, &how), 0);
	cr_assert_eq(how, emu_resume_step);
	resume(worker, how, 0);
	verdict = emu_report;
	usleep(50000);
	syscall(SYS_tgkill, proc.pid, worker, SIGSTOP);
	do {
		/* The step's SIGTRAP comes first, at the syscall's exit.  */
		if (verdict == emu_consumed)
			resume(worker, how, 0);
		cr_assert_eq(waitpid(worker, &status, __WALL), worker);
		cr_assert_eq(emu_on_stop(emu, worker, status, &verdict, &how),
			     0);
	} while (verdict == emu_consumed);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP,
		  "status %#x", status);

	/* Resumed: the read runs again, and returns.  */
	cr_assert_eq(emu_prepare(emu, worker, 0, false, &how), 0);
	cr_assert_eq(how, emu_resume_step);
	resume(worker, how, 0);
	feed_worker(&proc, prog);
	cr_assert_eq(waitpid(worker, &status, __WALL), worker);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	cr_assert_eq(emu_on_stop(emu, worker, status, &verdict, &how), 0);
	cr_assert_eq(verdict, emu_consumed);

	ps_buf_init(&out);
	cr_assert_eq(emu_read_pt(emu, worker, false, &out), 0);
	pt_config_init(&config);
	config.begin = (uint8_t *) out.data;
	config.end = (uint8_t *) out.data + out.len;
	dec = pt_pkt_alloc_decoder(&config);
	cr_assert_geq(pt_pkt_sync_forward(dec), 0);
	after = syscall_ip + 2;
	while (pt_pkt_next(dec, &p, sizeof(p)) >= 0) {
		if (p.type == ppt_tip_pgd)
			pgd++;
		if (!pgd || p.type != ppt_tip_pge)
			continue;
		if (p.payload.ip.ip == (syscall_ip & ipc_mask(p.payload.ip.ipc)))
			pge_at_syscall++;
		if (p.payload.ip.ip == (after & ipc_mask(p.payload.ip.ipc)))
			pge_after++;
	}
	pt_pkt_free_decoder(dec);
	ps_buf_fini(&out);
	cr_expect_eq(pgd, 1, "one TIP.PGD, in the read");
	cr_expect_eq(pge_at_syscall, 0, "no TIP.PGE at the read's syscall");
	cr_expect_eq(pge_after, 1, "TIP.PGE where the read returns");

	resume(worker, how, 0);
	resume(proc.pid, emu_resume_cont, 0);
	run_to_end(emu, &proc);
}
