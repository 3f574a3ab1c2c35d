#define _GNU_SOURCE
#include "nat/svr4.h"
#include "nat/mem.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "testsuite/emu/emu_test_main.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long mem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nat_mem_read(ctx, addr, buf, len);
}

/* The document for PID, or the error code in *ERR.  */
static struct ps_buf doc;

static int list(pid_t pid, const char *annex)
{
	struct nat_mem mem;
	int err;

	nat_mem_init(&mem, pid);
	ps_buf_reset(&doc);
	err = svr4_library_list(pid, mem_read, &mem, annex, &doc);
	nat_mem_fini(&mem);
	return err;
}

static void setup(void)
{
	ps_buf_init(&doc);
}

static void teardown(void)
{
	ps_buf_fini(&doc);
}

TestSuite(svr4, .init = setup, .fini = teardown);

struct entry {
	char name[512];
	uint64_t lm, l_addr, l_ld, lmid;
};

/* The <library> elements of TEXT, in order, into ENTRIES (at most MAX).  */
static size_t parse(const char *text, struct entry *entries, size_t max)
{
	size_t n = 0;
	const char *p = text;

	while ((p = strstr(p, "<library ")) && n < max) {
		struct entry *e = &entries[n];
		int used = 0;

		cr_assert_eq(sscanf(p, "<library name=\"%511[^\"]\" lm=\"0x%" SCNx64
				    "\" l_addr=\"0x%" SCNx64 "\" l_ld=\"0x%"
				    SCNx64 "\" lmid=\"0x%" SCNx64 "\"/>%n",
				    e->name, &e->lm, &e->l_addr, &e->l_ld,
				    &e->lmid, &used), 5, "bad element at %.80s", p);
		cr_assert_gt(used, 0);
		p += used;
		n++;
	}
	return n;
}

static uint64_t main_lm_of(const char *text)
{
	uint64_t lm = 0;
	const char *p = strstr(text, "main-lm=\"0x");

	if (p)
		sscanf(p, "main-lm=\"0x%" SCNx64, &lm);
	return lm;
}

/* A child of ours, stopped, that first loaded libm with dlopen and libz
   into a namespace of its own with dlmopen, and told us over FD what
   the dynamic linker itself says its lists are.  */
static pid_t spawn_self_as(int *report, int traced)
{
	int fds[2];
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The r_debug_extended as <link.h> says to find it: _r_debug
		   itself may be a 40-byte copy relocation.  */
		struct r_debug_extended *r = NULL;

		for (ElfW(Dyn) *d = _DYNAMIC; d->d_tag != DT_NULL; d++)
			if (d->d_tag == DT_DEBUG)
				r = (void *) d->d_un.d_ptr;
		if (!r)
			_exit(5);
		FILE *out;

		close(fds[0]);
		out = fdopen(fds[1], "w");
		if (!dlopen("libm.so.6", RTLD_NOW))
			_exit(2);
		if (!dlmopen(LM_ID_NEWLM, "libz.so.1", RTLD_NOW))
			_exit(3);
		fprintf(out, "main %" PRIx64 " %" PRIx64 "\n",
			(uint64_t) (uintptr_t) r,
			(uint64_t) (uintptr_t) r->base.r_map);
		for (; r; r = r->base.r_version >= 2 ? r->r_next : NULL)
			for (struct link_map *l = r->base.r_map; l; l = l->l_next)
				fprintf(out, "lib %" PRIx64 " %" PRIx64 " %"
					PRIx64 " %" PRIx64 " %s\n",
					(uint64_t) (uintptr_t) r,
					(uint64_t) (uintptr_t) l,
					(uint64_t) l->l_addr,
					(uint64_t) (uintptr_t) l->l_ld,
					l->l_name);
		fclose(out);
		if (!traced) {
			pause();
			_exit(0);
		}
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
			_exit(4);
		raise(SIGSTOP);
		_exit(0);
	}
	close(fds[1]);
	*report = fds[0];
	return pid;
}

static pid_t spawn_self(int *report)
{
	return spawn_self_as(report, 1);
}

/* Read the child's report to its end: it must not die of SIGPIPE.  */
static void drain(int report)
{
	char buf[4096];

	while (read(report, buf, sizeof(buf)) > 0)
		;
	close(report);
}

static void wait_stopped(pid_t pid)
{
	int status;

	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSTOPPED(status), "child status %#x", status);
}

static void kill_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

Test(svr4, matches_the_dynamic_linkers_own_view)
{
	static struct entry ours[256], theirs[256];
	uint64_t main_r, main_lm;
	size_t n_ours, n_theirs = 0, i;
	int report;
	pid_t pid = spawn_self(&report);
	FILE *in = fdopen(report, "r");
	char line[700];
	int libm = 0, libz_ns = 0;

	cr_assert_eq(fscanf(in, "main %" SCNx64 " %" SCNx64 "\n", &main_r,
			    &main_lm), 2);
	while (fgets(line, sizeof(line), in)) {
		struct entry *e = &theirs[n_theirs];
		int used = 0;

		cr_assert_eq(sscanf(line, "lib %" SCNx64 " %" SCNx64 " %" SCNx64
				    " %" SCNx64 " %n", &e->lmid, &e->lm,
				    &e->l_addr, &e->l_ld, &used), 4);
		snprintf(e->name, sizeof(e->name), "%s", line + used);
		e->name[strcspn(e->name, "\n")] = '\0';
		/* The main program heads the first list and is not listed;
		   nor is anything without a name.  */
		if (e->lm != main_lm && e->name[0] && n_theirs < 255)
			n_theirs++;
	}
	fclose(in);
	wait_stopped(pid);

	cr_assert_eq(list(pid, ""), 0);
	cr_assert(!strncmp(doc.data, "<library-list-svr4 version=\"1.0\" ", 33),
		  "%s", doc.data);
	cr_assert_eq(main_lm_of(doc.data), main_lm);
	n_ours = parse(doc.data, ours, 256);
	for (i = 0; i < n_ours && i < n_theirs; i++)
		if (ours[i].lm != theirs[i].lm)
			break;
	cr_assert_eq(n_ours, n_theirs, "%zu libraries, ld.so says %zu; "
		     "first difference at %zu: %s / %s", n_ours, n_theirs, i,
		     ours[i].name, theirs[i].name);
	for (i = 0; i < n_ours; i++) {
		cr_assert_str_eq(ours[i].name, theirs[i].name);
		cr_assert_eq(ours[i].lm, theirs[i].lm, "%s", ours[i].name);
		cr_assert_eq(ours[i].l_addr, theirs[i].l_addr, "%s", ours[i].name);
		cr_assert_eq(ours[i].l_ld, theirs[i].l_ld, "%s", ours[i].name);
		cr_assert_eq(ours[i].lmid, theirs[i].lmid, "%s", ours[i].name);
		if (strstr(ours[i].name, "/libm.so.6"))
			libm = 1;
		if (strstr(ours[i].name, "/libz.so.1") && ours[i].lmid != main_r)
			libz_ns = 1;
	}
	cr_assert(libm, "dlopen()ed libm missing:\n%s", doc.data);
	cr_assert(libz_ns, "dlmopen()ed libz missing:\n%s", doc.data);
	cr_assert(strstr(doc.data, "</library-list-svr4>"));
	kill_child(pid);
}

Test(svr4, libraries_are_where_maps_says)
{
	static struct entry libs[256];
	char maps_name[64], line[1024];
	size_t n;
	int report;
	pid_t pid = spawn_self(&report);
	FILE *maps;

	drain(report);
	wait_stopped(pid);
	cr_assert_eq(list(pid, NULL), 0);
	n = parse(doc.data, libs, 256);
	cr_assert_gt(n, 3);

	/* Each object's load bias is where its file is mapped from offset 0:
	   a shared object's first PT_LOAD is at vaddr 0.  The namespace of
	   libz has copies of its own, at other addresses.  */
	snprintf(maps_name, sizeof(maps_name), "/proc/%d/maps", pid);
	for (size_t i = 0; i < n; i++) {
		int found = 0;
		char *real;

		if (libs[i].name[0] != '/')
			continue;       /* linux-vdso.so.1 */
		/* ld.so names itself by its link, /lib64/...  */
		real = realpath(libs[i].name, NULL);
		cr_assert_not_null(real, "%s", libs[i].name);
		maps = fopen(maps_name, "r");
		cr_assert_not_null(maps);
		while (fgets(line, sizeof(line), maps)) {
			uint64_t start, offset;
			char *path = strchr(line, '/');

			if (!path)
				continue;
			path[strcspn(path, "\n")] = '\0';
			if (!strcmp(path, real)
			    && sscanf(line, "%" SCNx64 "-%*x %*s %" SCNx64,
				      &start, &offset) == 2
			    && start == libs[i].l_addr && offset == 0)
				found = 1;
		}
		fclose(maps);
		free(real);
		cr_assert(found, "%s: no mapping at l_addr %" PRIx64,
			  libs[i].name, libs[i].l_addr);
	}
	kill_child(pid);
}

/* PROG run under ptrace and stopped at its exec, before ld.so ran.  */
static pid_t spawn_at_exec(const char *prog)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execl(prog, prog, (char *) NULL);
		fprintf(stderr, "exec %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	wait_stopped(pid);
	return pid;
}

static const char empty_list[] =
	"<library-list-svr4 version=\"1.0\"></library-list-svr4>";

Test(svr4, empty_before_the_dynamic_linker_ran)
{
	pid_t pid = spawn_at_exec("/bin/true");

	cr_assert_eq(list(pid, ""), 0);
	cr_assert_str_eq(doc.data, empty_list);
	kill_child(pid);
}

/* The smallest static executable: one PT_LOAD, no PT_PHDR, no
   PT_DYNAMIC; it calls exit(0).  */
static void write_static_exe(const char *path)
{
	static const uint8_t code[] = {
		0xb8, 0x3c, 0, 0, 0,    /* mov $60, %eax */
		0x31, 0xff,             /* xor %edi, %edi */
		0x0f, 0x05,             /* syscall */
	};
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;
		uint8_t code[sizeof(code)];
	} __attribute__((packed)) img;
	const uint64_t base = 0x400000;
	int fd;

	memset(&img, 0, sizeof(img));
	memcpy(img.eh.e_ident, ELFMAG, SELFMAG);
	img.eh.e_ident[EI_CLASS] = ELFCLASS64;
	img.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	img.eh.e_ident[EI_VERSION] = EV_CURRENT;
	img.eh.e_type = ET_EXEC;
	img.eh.e_machine = EM_X86_64;
	img.eh.e_version = EV_CURRENT;
	img.eh.e_entry = base + offsetof(typeof(img), code);
	img.eh.e_phoff = sizeof(img.eh);
	img.eh.e_ehsize = sizeof(img.eh);
	img.eh.e_phentsize = sizeof(img.ph);
	img.eh.e_phnum = 1;
	img.ph.p_type = PT_LOAD;
	img.ph.p_flags = PF_R | PF_X;
	img.ph.p_vaddr = img.ph.p_paddr = base;
	img.ph.p_filesz = img.ph.p_memsz = sizeof(img);
	img.ph.p_align = 0x1000;
	memcpy(img.code, code, sizeof(code));

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	cr_assert_geq(fd, 0);
	cr_assert_eq(fchmod(fd, 0755), 0);     /* mkstemp made it 0600 */
	cr_assert_eq(write(fd, &img, sizeof(img)), (ssize_t) sizeof(img));
	close(fd);
}

Test(svr4, no_dynamic_section_is_notfound)
{
	char path[] = "/tmp/svr4_static.XXXXXX";
	int fd = mkstemp(path);
	pid_t pid;

	cr_assert_geq(fd, 0);
	close(fd);
	write_static_exe(path);
	pid = spawn_at_exec(path);
	unlink(path);
	cr_assert_eq(list(pid, ""), -pse_notfound);
	cr_assert_eq(doc.len, 0);
	kill_child(pid);
}

Test(svr4, annex_walks_from_start)
{
	static struct entry all[256], part[256];
	char annex[200];
	size_t n, m;
	int report;
	pid_t pid = spawn_self(&report);

	drain(report);
	wait_stopped(pid);
	cr_assert_eq(list(pid, ""), 0);
	n = parse(doc.data, all, 256);
	cr_assert_gt(n, 3);

	/* As GDB asks for what follows the libraries it already has.  */
	snprintf(annex, sizeof(annex), "lmid=%" PRIx64 ";start=%" PRIx64
		 ";prev=%" PRIx64, all[1].lmid, all[2].lm, all[1].lm);
	cr_assert_eq(list(pid, annex), 0);
	cr_assert(!strncmp(doc.data, "<library-list-svr4 version=\"1.0\">", 33),
		  "%s", doc.data);
	m = parse(doc.data, part, 256);
	cr_assert_gt(m, 0);
	cr_assert_leq(m, n - 2);
	for (size_t i = 0; i < m; i++) {
		cr_assert_eq(part[i].lm, all[i + 2].lm);
		cr_assert_str_eq(part[i].name, all[i + 2].name);
	}

	/* A prev= that is not the element before: the list is not trusted.  */
	snprintf(annex, sizeof(annex), "start=%" PRIx64 ";prev=%" PRIx64,
		 all[2].lm, all[0].lm);
	cr_assert_eq(list(pid, annex), 0);
	cr_assert_str_eq(doc.data, empty_list);

	/* Unknown keys are skipped; a bad number is an error.  */
	snprintf(annex, sizeof(annex), "foo=bar;start=%" PRIx64 ";prev=%"
		 PRIx64, all[2].lm, all[1].lm);
	cr_assert_eq(list(pid, annex), 0);
	cr_assert_eq(parse(doc.data, part, 256), m);
	cr_assert_eq(list(pid, "start=12zz"), -pse_badhex);
	cr_assert_eq(list(pid, "start=11111111111111111"), -pse_range);
	kill_child(pid);
}

static long failing_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(*(int *) ctx)++;
	return -pse_fault;
}

Test(svr4, read_errors_and_vanished_processes)
{
	int report, calls = 0;
	pid_t pid = spawn_self(&report);

	drain(report);
	wait_stopped(pid);
	ps_buf_reset(&doc);
	cr_assert_eq(svr4_library_list(pid, failing_read, &calls, "", &doc),
		     -pse_fault);
	cr_assert_gt(calls, 0, "memory was not read through the callback");
	cr_assert_eq(doc.len, 0);
	kill_child(pid);
	cr_assert_eq(list(pid, ""), -pse_noproc);
}

/* Differential: Debian's gdbserver, attached to the same process.  */
struct peer {
	int fd;
	pid_t pid;
};

static const char *gdbserver_path(void)
{
	const char *path = getenv("GDBSERVER");

	if (!path || !*path || !strcmp(path, "no"))
		path = "/usr/bin/gdbserver";
	return access(path, X_OK) == 0 ? path : NULL;
}

static void peer_start(struct peer *peer, const char *gdbserver,
		       const char *arg1, const char *arg2, const char *arg3)
{
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	peer->pid = fork();
	cr_assert_geq(peer->pid, 0);
	if (peer->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int null = open("/dev/null", O_WRONLY);

		dup2(sv[1], 0);
		dup2(sv[1], 1);
		dup2(null, 2);
		close(sv[0]);
		execl(gdbserver, gdbserver, arg1, arg2, arg3, (char *) NULL);
		_exit(127);
	}
	close(sv[1]);
	peer->fd = sv[0];
}

static int peer_getc(struct peer *peer)
{
	unsigned char c;

	cr_assert_eq(read(peer->fd, &c, 1), 1, "gdbserver went away");
	return c;
}

/* The reply to PACKET, run-length and binary escapes undone.  */
static void peer_call(struct peer *peer, const char *packet, struct ps_buf *out)
{
	unsigned sum = 0;
	char frame[512], last = 0;
	int c, escaped = 0;

	for (const char *p = packet; *p; p++)
		sum += (unsigned char) *p;
	snprintf(frame, sizeof(frame), "$%s#%02x", packet, sum & 0xff);
	cr_assert_eq(write(peer->fd, frame, strlen(frame)),
		     (ssize_t) strlen(frame));
	while (peer_getc(peer) != '$')
		;
	ps_buf_reset(out);
	ps_buf_puts(out, "");
	while ((c = peer_getc(peer)) != '#') {
		int n = 1;

		if (c == '*') {
			n = peer_getc(peer) - 29;
			c = last;
		}
		last = (char) c;
		while (n-- > 0) {
			if (escaped) {
				ps_buf_putc(out, (char) (c ^ 0x20));
				escaped = 0;
			} else if (c == '}') {
				escaped = 1;
			} else {
				ps_buf_putc(out, (char) c);
			}
		}
	}
	peer_getc(peer);
	peer_getc(peer);
	cr_assert_eq(write(peer->fd, "+", 1), 1);
}

/* Detach ("D", which gdbserver answers) or kill ("k", after which it
   just exits), then make sure gdbserver is gone: over stdio it may
   outlive its peer, spinning.  */
static void peer_stop(struct peer *peer, const char *last_packet)
{
	struct ps_buf ignored;

	ps_buf_init(&ignored);
	if (strcmp(last_packet, "k"))
		peer_call(peer, last_packet, &ignored);
	else
		cr_assert_eq(write(peer->fd, "$k#6b", 5), 5);
	ps_buf_fini(&ignored);
	for (int tries = 0; tries < 200; tries++) {
		if (waitpid(peer->pid, NULL, WNOHANG) == peer->pid) {
			peer->pid = -1;
			break;
		}
		usleep(10000);
	}
	if (peer->pid > 0) {
		kill(peer->pid, SIGKILL);
		waitpid(peer->pid, NULL, 0);
	}
	close(peer->fd);
}

/* gdbserver's library list for a process, as "l<document>" or "E01".  */
static void gdbserver_list(struct peer *peer, const char *annex,
			   struct ps_buf *out)
{
	char packet[300];

	snprintf(packet, sizeof(packet),
		 "qXfer:libraries-svr4:read:%s:0,3fff", annex);
	peer_call(peer, packet, out);
}

/* /bin/sleep, run untraced until it sleeps in its main.  */
static pid_t spawn_sleeper(void)
{
	char name[64], text[128];
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl("/bin/sleep", "sleep", "30", (char *) NULL);
		_exit(127);
	}
	snprintf(name, sizeof(name), "/proc/%d/syscall", pid);
	for (int tries = 0; tries < 500; tries++) {
		FILE *f = fopen(name, "r");
		long nr = -1;

		if (f && fgets(text, sizeof(text), f))
			nr = strtol(text, NULL, 10);
		if (f)
			fclose(f);
		if (nr == 230 || nr == 35)    /* clock_nanosleep, nanosleep */
			return pid;
		usleep(10000);
	}
	kill_child(pid);
	cr_assert_fail("sleep never went to sleep");
	return -1;
}

Test(svr4, equals_gdbserver)
{
	const char *gdbserver = gdbserver_path();
	struct ps_buf theirs;
	struct peer peer;
	static struct entry libs[256];
	char pid_text[16], annex[200], path[] = "/tmp/svr4_static.XXXXXX";
	pid_t pid;
	int fd;

	if (!gdbserver)
		cr_skip_test("SKIP: no gdbserver to compare with");
	ps_buf_init(&theirs);

	/* A running program: the whole list, and a part as GDB asks.  */
	pid = spawn_sleeper();
	snprintf(pid_text, sizeof(pid_text), "%d", pid);
	peer_start(&peer, gdbserver, "--attach", "-", pid_text);
	/* gdbserver answers only with a thread selected, as GDB does.  */
	peer_call(&peer, "Hgp0.0", &theirs);
	gdbserver_list(&peer, "", &theirs);
	cr_assert_eq(list(pid, ""), 0);
	cr_assert_eq(parse(doc.data, libs, 256) > 2, 1);
	cr_assert_eq(theirs.data[0], 'l', "%s", theirs.data);
	cr_assert_str_eq(doc.data, theirs.data + 1);
	snprintf(annex, sizeof(annex), "lmid=%" PRIx64 ";start=%" PRIx64
		 ";prev=%" PRIx64, libs[0].lmid, libs[1].lm, libs[0].lm);
	gdbserver_list(&peer, annex, &theirs);
	cr_assert_eq(list(pid, annex), 0);
	cr_assert_str_eq(doc.data, theirs.data + 1);
	peer_stop(&peer, "D");
	kill_child(pid);

	/* A process with a dlopen()ed library and a second namespace.  */
	pid = spawn_self_as(&fd, 0);
	drain(fd);
	snprintf(pid_text, sizeof(pid_text), "%d", pid);
	peer_start(&peer, gdbserver, "--attach", "-", pid_text);
	peer_call(&peer, "Hgp0.0", &theirs);
	gdbserver_list(&peer, "", &theirs);
	cr_assert_eq(list(pid, ""), 0);
	cr_assert(strstr(doc.data, "/libz.so.1"), "%s", doc.data);
	cr_assert_eq(theirs.data[0], 'l', "%s", theirs.data);
	cr_assert_str_eq(doc.data, theirs.data + 1);
	peer_stop(&peer, "D");
	kill_child(pid);

	/* The first stop, before ld.so ran.  */
	peer_start(&peer, gdbserver, "-", "/bin/true", NULL);
	gdbserver_list(&peer, "", &theirs);
	cr_assert_str_eq(theirs.data, "l<library-list-svr4 version=\"1.0\">"
			 "</library-list-svr4>");
	peer_stop(&peer, "k");
	pid = spawn_at_exec("/bin/true");
	cr_assert_eq(list(pid, ""), 0);
	cr_assert_str_eq(doc.data, theirs.data + 1);
	kill_child(pid);

	/* No DT_DEBUG at all: gdbserver fails the packet, we say why.  */
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	close(fd);
	write_static_exe(path);
	peer_start(&peer, gdbserver, "-", path, NULL);
	gdbserver_list(&peer, "", &theirs);
	cr_assert_str_eq(theirs.data, "E01");
	peer_stop(&peer, "k");
	pid = spawn_at_exec(path);
	cr_assert_eq(list(pid, ""), -pse_notfound);
	kill_child(pid);
	unlink(path);

	ps_buf_fini(&theirs);
}
