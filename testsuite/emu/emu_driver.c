#define _GNU_SOURCE
#include "testsuite/emu/emu_driver.h"
#include "nat/emu/emu_insn.h"
#include "nat/emu/emu_signal.h"
#include "nat/maps.h"
#include "common/ps_error.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <intel-pt.h>
#include <libelf.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

void drv_ips_init(struct drv_ips *ips)
{
	memset(ips, 0, sizeof(*ips));
}

void drv_ips_fini(struct drv_ips *ips)
{
	free(ips->ips);
	drv_ips_init(ips);
}

int drv_ips_push(struct drv_ips *ips, uint64_t ip)
{
	if (ips->count == ips->cap) {
		size_t cap = ips->cap ? 2 * ips->cap : 4096;
		uint64_t *grown = realloc(ips->ips, cap * sizeof(*grown));

		if (!grown)
			return -pse_nomem;
		ips->ips = grown;
		ips->cap = cap;
	}
	ips->ips[ips->count++] = ip;
	return 0;
}

/* FUNCTION's address in PROG's symbol table, plus the load base for a
   PIE (from /proc/PID/maps).  */
uint64_t drv_symbol(pid_t pid, const char *prog, const char *function)
{
	uint64_t value = 0, base = 0;
	bool pie = false;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(prog, O_RDONLY);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && gelf_getehdr(elf, &ehdr))
		pie = ehdr.e_type == ET_DYN;
	while (elf && (scn = elf_nextscn(elf, scn)) && !value) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize;
		     i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int) i, &sym))
				continue;
			name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (name && !strcmp(name, function) && sym.st_value) {
				value = sym.st_value;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);

	if (pie && value) {
		/* The load base: the file's mapping at offset 0 (the map is
		   parsed by nat/, which keeps paths with spaces whole).  */
		struct nat_maps maps;
		char real[PATH_MAX];

		if (!realpath(prog, real))
			return 0;
		nat_maps_init(&maps);
		if (nat_maps_read(&maps, pid) == 0)
			for (size_t i = 0; i < maps.count && !base; i++)
				if (!strcmp(maps.map[i].path, real) &&
				    maps.map[i].offset == 0)
					base = maps.map[i].start;
		nat_maps_fini(&maps);
		if (!base)
			return 0;
	}
	return value + base;
}

static bool drv_is_thread(pid_t pid, pid_t tid)
{
	char path[64], line[128];
	bool same = false;
	FILE *file;

	snprintf(path, sizeof(path), "/proc/%d/status", (int) tid);
	file = fopen(path, "r");
	while (file && fgets(line, sizeof(line), file)) {
		int tgid;

		if (sscanf(line, "Tgid: %d", &tgid) == 1) {
			same = tgid == pid;
			break;
		}
	}
	if (file)
		fclose(file);
	return same;
}

/* A fork child's first stop: take the parent's traps out of its copy
   (EMU, when tracing) and let it go.  */
static void drv_release_child(struct drv_proc *proc, struct emu *emu,
			      pid_t child)
{
	if (emu)
		emu_on_fork(emu, child);
	ptrace(PTRACE_DETACH, child, 0, 0);
	if (proc->nchildren < 8)
		proc->children[proc->nchildren++] = child;
}

int drv_start(struct drv_proc *proc, const char *prog, const char *arg,
	      const char *function)
{
	char *argv[3] = { (char *) prog, (char *) arg, NULL };

	return drv_start_argv(proc, argv, NULL, NULL, function);
}

int drv_start_argv(struct drv_proc *proc, char *const argv[],
		   const char *in_path, const char *out_path,
		   const char *function)
{
	struct user_regs_struct regs;
	uint8_t orig, int3 = 0xcc;
	int status;
	pid_t pid;

	memset(proc, 0, sizeof(*proc));
	pid = fork();
	if (pid < 0)
		return -pse_io;
	if (!pid) {
		if (in_path) {
			int fd = open(in_path, O_RDONLY);

			if (fd < 0 || dup2(fd, 0) < 0)
				_exit(127);
			close(fd);
		}
		if (out_path) {
			int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC,
				      0644);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(127);
			close(fd);
		}
		personality(ADDR_NO_RANDOMIZE);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	proc->pid = pid;
	nat_mem_init(&proc->mem, pid);
	int3_table_init(&proc->sites);
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -pse_noproc;
	ptrace(PTRACE_SETOPTIONS, pid, 0,
	       PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
	       PTRACE_O_TRACEVFORK | PTRACE_O_EXITKILL |
	       PTRACE_O_TRACESYSGOOD |
	       (function ? 0 : PTRACE_O_TRACEEXIT));
	emu_pin_cpu(pid);
	if (!function) {
		proc->whole = true;
		ptrace(PTRACE_GETREGS, pid, 0, &regs);
		proc->entry = regs.rip;
		return 0;
	}

	proc->entry = drv_symbol(pid, argv[0], function);
	if (!proc->entry ||
	    nat_mem_read(&proc->mem, proc->entry, &orig, 1) != 1 ||
	    nat_mem_write(&proc->mem, proc->entry, &int3, 1) < 0)
		return -pse_notfound;
	ptrace(PTRACE_CONT, pid, 0, 0);
	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);
		int sig;

		if (tid < 0)
			return -pse_noproc;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == pid)
				return -pse_noproc;
			continue;
		}
		sig = WSTOPSIG(status);
		if (status >> 16 || sig == SIGSTOP) {
			if (sig == SIGSTOP && !drv_is_thread(pid, tid)) {
				drv_release_child(proc, NULL, tid);
				continue;
			}
			ptrace(PTRACE_CONT, tid, 0, 0);
			continue;
		}
		if (tid == pid && sig == SIGTRAP) {
			ptrace(PTRACE_GETREGS, pid, 0, &regs);
			if (regs.rip == proc->entry + 1)
				break;
		}
		ptrace(PTRACE_CONT, tid, 0, sig == SIGTRAP ? 0 : sig);
	}
	nat_mem_write(&proc->mem, proc->entry, &orig, 1);
	regs.rip = proc->entry;
	ptrace(PTRACE_SETREGS, pid, 0, &regs);
	if (nat_mem_read(&proc->mem, regs.rsp, &proc->ret, 8) != 8)
		return -pse_fault;
	proc->ret_sp = regs.rsp + 8;
	return 0;
}

void drv_finish(struct drv_proc *proc)
{
	int status;

	if (proc->pid <= 0)
		return;
	kill(proc->pid, SIGKILL);
	/* A thread held at its exit event goes on only when resumed.  */
	ptrace(PTRACE_CONT, proc->pid, 0, 0);
	for (pid_t tid; (tid = waitpid(-1, &status, __WALL)) > 0; )
		if (WIFSTOPPED(status))
			ptrace(PTRACE_CONT, tid, 0, 0);
	int3_table_fini(&proc->sites);
	nat_mem_fini(&proc->mem);
	proc->pid = 0;
}

static bool drv_is_rep(struct drv_proc *proc, struct emu_decoder *dec,
		       uint64_t ip)
{
	struct emu_insn insn;
	uint8_t buf[16];
	long n = nat_mem_read(&proc->mem, ip, buf, sizeof(buf));

	if (n <= 0)
		return false;
	int3_shadow(&proc->sites, ip, buf, (size_t) n);
	return emu_insn_decode(dec, ip, buf, (size_t) n, &insn) == 0 &&
		insn.rep;
}

void drv_fold_rep(struct drv_proc *proc, struct drv_ips *ips)
{
	struct emu_decoder *dec;
	size_t out = 0;

	if (emu_decoder_alloc(&dec) < 0)
		return;
	for (size_t i = 0; i < ips->count; i++) {
		if (out && ips->ips[out - 1] == ips->ips[i] &&
		    drv_is_rep(proc, dec, ips->ips[i]))
			continue;
		ips->ips[out++] = ips->ips[i];
	}
	ips->count = out;
	emu_decoder_free(dec);
}

/* Ptrace events and other threads' stops, the same in both runs.  */
static bool drv_side_stop(struct drv_proc *proc, struct emu *emu, pid_t tid,
			  int status)
{
	unsigned long msg = 0;
	int event = status >> 16;

	if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK) {
		int st;

		ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg);
		for (size_t i = 0; i < proc->nchildren; i++)
			if (proc->children[i] == (pid_t) msg)
				return true;   /* its stop came first */
		if (waitpid((pid_t) msg, &st, __WALL) == (pid_t) msg)
			drv_release_child(proc, emu, (pid_t) msg);
		return true;
	}
	if (event == PTRACE_EVENT_CLONE) {
		ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg);
		if (emu)
			emu_on_clone(emu, (pid_t) msg);
		return true;
	}
	return event != 0;
}

/* Some hypervisors end a single-step over CPUID one instruction late
   (it traps after the next one too): the instruction in between ran,
   when it leads straight from IP + 2 to TO.  */
static void drv_cpuid_late(struct drv_proc *proc, uint64_t ip, uint64_t to,
			   struct drv_ips *ips)
{
	struct emu_decoder *dec;
	struct emu_insn insn;
	uint8_t buf[18];

	if (to == ip + 2 ||
	    nat_mem_read(&proc->mem, ip, buf, sizeof(buf)) != sizeof(buf))
		return;
	int3_shadow(&proc->sites, ip, buf, sizeof(buf));
	if (buf[0] != 0x0f || buf[1] != 0xa2 || emu_decoder_alloc(&dec) < 0)
		return;
	if (emu_insn_decode(dec, ip + 2, buf + 2, 16, &insn) == 0 &&
	    insn.iclass == emu_ic_other && ip + 2 + insn.len == to)
		drv_ips_push(ips, ip + 2);
	emu_decoder_free(dec);
}

long drv_truth(struct drv_proc *proc, struct drv_ips *ips)
{
	pid_t pid = proc->pid;
	struct user_regs_struct regs;
	int sig = 0, status;
	bool entering = false;
	uint64_t ip;

	ptrace(PTRACE_GETREGS, pid, 0, &regs);
	ip = regs.rip;
	entering = sig && emu_signal_caught(pid, sig);
	ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);

		if (tid < 0)
			return -pse_noproc;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == pid)
				return -pse_noproc;
			continue;
		}
		if (tid != pid) {
			int s = WSTOPSIG(status);

			if (drv_side_stop(proc, NULL, tid, status) ||
			    s == SIGSTOP) {
				if (s == SIGSTOP && !(status >> 16) &&
				    !drv_is_thread(pid, tid)) {
					drv_release_child(proc, NULL, tid);
					continue;
				}
				s = 0;
			}
			ptrace(PTRACE_CONT, tid, 0, s == SIGTRAP ? 0 : s);
			continue;
		}
		if (proc->whole && status >> 16 == PTRACE_EVENT_EXIT) {
			/* The step ran exit_group: the last instruction. */
			drv_ips_push(ips, ip);
			break;
		}
		if (drv_side_stop(proc, NULL, tid, status)) {
			/* A step through fork/clone goes on.  */
			ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
			continue;
		}
		sig = WSTOPSIG(status);
		ptrace(PTRACE_GETREGS, pid, 0, &regs);
		if (sig == SIGTRAP) {
			siginfo_t info;

			ptrace(PTRACE_GETSIGINFO, pid, 0, &info);
			if (!entering) {
				drv_ips_push(ips, ip);
				drv_cpuid_late(proc, ip, regs.rip, ips);
			}
			if (proc->max_insns && ips->count > proc->max_insns)
				return -pse_range;
			/* The program's own INT3 raises its SIGTRAP.  */
			sig = info.si_code == SI_KERNEL ? SIGTRAP : 0;
		}
		entering = false;
		if (!sig && !proc->whole && regs.rip == proc->ret &&
		    regs.rsp == proc->ret_sp)
			break;
		ip = regs.rip;
		entering = sig && emu_signal_caught(pid, sig);
		ptrace(PTRACE_SINGLESTEP, pid, 0, sig);
	}
	drv_fold_rep(proc, ips);
	return (long) ips->count;
}

void drv_trace_init(struct drv_trace *trace)
{
	memset(trace, 0, sizeof(*trace));
	ps_buf_init(&trace->pt);
}

void drv_trace_fini(struct drv_trace *trace)
{
	ps_buf_fini(&trace->pt);
	free(trace->blocks);
}

static void drv_resume(pid_t tid, enum emu_resume how, int sig)
{
	ptrace(emu_ptrace_request(how), tid, 0, sig);
}

/* DRV_DEBUG=1 in the environment prints the stops reported to the
   driver, DRV_TRACE=1 every stop with the engine's answer.  */
int drv_emulate(struct drv_proc *proc, const struct emu_config *config,
		enum trace_format format, size_t size, struct drv_trace *trace)
{
	pid_t pid = proc->pid;
	enum emu_resume how;
	struct emu *emu;
	int err, status;

	err = emu_alloc(&emu, pid, &proc->sites, &proc->mem, config);
	if (err < 0)
		return err;
	err = emu_enable(emu, pid, format, size);
	if (!err && !proc->whole)
		err = int3_insert(&proc->sites, &proc->mem, proc->ret,
				  int3_owner_gdb);
	if (!err)
		err = emu_prepare(emu, pid, 0, false, &how);
	if (err < 0)
		goto out;
	drv_resume(pid, how, 0);

	for (;;) {
		struct user_regs_struct regs;
		enum emu_verdict verdict;
		pid_t tid = waitpid(-1, &status, __WALL);
		int sig;

		if (tid < 0) {
			err = -pse_noproc;
			goto out;
		}
		if (!(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP &&
		      !(status >> 16) && !drv_is_thread(pid, tid))) {
			err = emu_on_stop(emu, tid, status, &verdict, &how);
			if (err < 0)
				goto out;
			if (getenv("DRV_TRACE")) {
				struct user_regs_struct r;

				ptrace(PTRACE_GETREGS, tid, 0, &r);
				fprintf(stderr, "drv: stop %#x -> %s %s at %#llx "
					"rsp %#llx\n", status,
					verdict == emu_consumed ? "consumed"
					: "report", how == emu_resume_step ?
					"step" : "cont", r.rip, r.rsp);
			}
			if (verdict == emu_consumed) {
				drv_resume(tid, how, 0);
				continue;
			}
		} else {
			drv_release_child(proc, emu, tid);
			continue;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == pid) {
				if (getenv("DRV_DEBUG"))
					fprintf(stderr, "drv: %d ended: %#x\n",
						tid, status);
				err = -pse_noproc;
				goto out;
			}
			continue;
		}
		if (tid == pid && proc->whole &&
		    status >> 16 == PTRACE_EVENT_EXIT)
			break;   /* the end: its memory is still there */
		sig = WSTOPSIG(status);
		if (getenv("DRV_DEBUG")) {
			struct user_regs_struct r;

			ptrace(PTRACE_GETREGS, tid, 0, &r);
			fprintf(stderr, "drv: %d reported %#x at %#llx\n", tid,
				status, r.rip);
		}
		if (drv_side_stop(proc, emu, tid, status) || sig == SIGSTOP)
			sig = 0;
		if (sig == SIGTRAP) {
			ptrace(PTRACE_GETREGS, tid, 0, &regs);
			if (int3_lookup(&proc->sites, regs.rip - 1)) {
				/* Our return breakpoint, as GDB's would be. */
				regs.rip -= 1;
				ptrace(PTRACE_SETREGS, tid, 0, &regs);
				if (tid == pid && regs.rsp == proc->ret_sp)
					break;
				sig = 0;
			}
		}
		err = emu_prepare(emu, tid, sig, false, &how);
		if (err < 0)
			goto out;
		drv_resume(tid, how, sig);
	}

	emu_status(emu, pid, &trace->status);
	if (format == trace_format_pt)
		err = emu_read_pt(emu, pid, false, &trace->pt);
	else {
		struct trace_blocks blocks;

		trace_blocks_init(&blocks);
		err = emu_read_bts(emu, pid, emu_bts_read_all, false, &blocks);
		trace->blocks = blocks.block;
		trace->nblocks = (long) blocks.len;
	}
out:
	/* Leave the process stopped with the traps in the table, so that
	   decoding sees original bytes; drv_finish kills it.  */
	emu_disable(emu, pid);
	emu_free(emu);
	return err;
}

static int drv_read_image(uint8_t *buffer, size_t size,
			  const struct pt_asid *asid, uint64_t ip,
			  void *context)
{
	struct drv_proc *proc = context;
	long n;

	(void) asid;
	n = nat_mem_read(&proc->mem, ip, buffer, size);
	if (n <= 0)
		return -pte_nomap;
	int3_shadow(&proc->sites, ip, buffer, (size_t) n);
	return (int) n;
}

static long drv_decode(struct drv_proc *proc, const struct ps_buf *pt,
		       struct drv_ips *ips, unsigned *gaps, bool mark)
{
	struct pt_insn_decoder *dec;
	struct pt_config config;
	int status;

	*gaps = 0;
	pt_config_init(&config);
	config.begin = (uint8_t *) pt->data;
	config.end = (uint8_t *) pt->data + pt->len;
	dec = pt_insn_alloc_decoder(&config);
	if (!dec)
		return -pte_nomem;
	pt_image_set_callback(pt_insn_get_image(dec), drv_read_image, proc);
	status = pt_insn_sync_forward(dec);
	while (status >= 0 || status == -pte_eos) {
		struct pt_insn insn;

		if (status == -pte_eos)
			break;
		while (status & pts_event_pending) {
			struct pt_event ev;

			status = pt_insn_event(dec, &ev, sizeof(ev));
			if (status < 0)
				break;
			if (ev.type == ptev_overflow) {
				(*gaps)++;
				if (mark)
					drv_ips_push(ips, 0);
			}
		}
		if (status < 0)
			break;
		if (status & pts_eos)
			break;
		status = pt_insn_next(dec, &insn, sizeof(insn));
		if (status < 0) {
			if (status == -pte_eos)
				break;
			(*gaps)++;
			if (mark)
				drv_ips_push(ips, 0);
			status = pt_insn_sync_forward(dec);
			continue;
		}
		drv_ips_push(ips, insn.ip);
	}
	pt_insn_free_decoder(dec);
	return (long) ips->count;
}

long drv_decode_pt(struct drv_proc *proc, const struct ps_buf *pt,
		   struct drv_ips *ips, unsigned *gaps)
{
	return drv_decode(proc, pt, ips, gaps, false);
}

long drv_decode_pt_marked(struct drv_proc *proc, const struct ps_buf *pt,
			  struct drv_ips *ips, unsigned *gaps)
{
	return drv_decode(proc, pt, ips, gaps, true);
}

int drv_check_packets(const struct ps_buf *pt, unsigned long *npackets)
{
	struct pt_packet_decoder *dec;
	struct pt_config config;
	int status;

	*npackets = 0;
	pt_config_init(&config);
	config.begin = (uint8_t *) pt->data;
	config.end = (uint8_t *) pt->data + pt->len;
	dec = pt_pkt_alloc_decoder(&config);
	if (!dec)
		return -pte_nomem;
	status = pt_pkt_sync_forward(dec);
	while (status >= 0) {
		struct pt_packet packet;

		status = pt_pkt_next(dec, &packet, sizeof(packet));
		if (status < 0)
			break;
		if (packet.type == ppt_invalid || packet.type == ppt_unknown) {
			status = -pte_bad_opc;
			break;
		}
		(*npackets)++;
	}
	pt_pkt_free_decoder(dec);
	return status == -pte_eos ? 0 : status;
}

long drv_expand_bts(struct drv_proc *proc, const struct trace_block *b,
		    long n, struct drv_ips *ips)
{
	struct emu_decoder *dec;
	long result = 0;

	if (emu_decoder_alloc(&dec) < 0)
		return -pse_nomem;
	for (long i = 0; i < n && result == 0; i++) {
		uint64_t ip = b[i].begin;

		for (int guard = 0; ; guard++) {
			struct emu_insn insn;
			uint8_t buf[16];
			long got = nat_mem_read(&proc->mem, ip, buf, 16);

			if (got <= 0 || guard > 100000) {
				result = -pse_fault;
				break;
			}
			int3_shadow(&proc->sites, ip, buf, (size_t) got);
			drv_ips_push(ips, ip);
			if (ip == b[i].end)
				break;
			if (ip > b[i].end ||
			    emu_insn_decode(dec, ip, buf, (size_t) got,
					    &insn) < 0) {
				result = -pse_invalid;
				break;
			}
			ip += insn.len;
		}
	}
	emu_decoder_free(dec);
	return result < 0 ? result : (long) ips->count;
}

long drv_first_diff(const struct drv_ips *a, const struct drv_ips *b)
{
	size_t n = a->count < b->count ? a->count : b->count;

	for (size_t i = 0; i < n; i++)
		if (a->ips[i] != b->ips[i])
			return (long) i;
	return a->count == b->count ? -1 : (long) n;
}
