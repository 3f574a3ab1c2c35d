#define _GNU_SOURCE
#include "nat/auxv.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "testsuite/emu/emu_test_main.h"

#include <criterion/criterion.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static struct ps_buf auxv;

static void setup(void)
{
	ps_buf_init(&auxv);
}

static void teardown(void)
{
	ps_buf_fini(&auxv);
}

TestSuite(auxv, .init = setup, .fini = teardown);

Test(auxv, own_vector_matches_getauxval)
{
	uint64_t v;
	size_t entries = 0;

	cr_assert_eq(auxv_read(getpid(), &auxv), 0);
	cr_assert_gt(auxv.len, 0);
	cr_assert_eq(auxv.len % 16, 0);

	/* Every entry up to AT_NULL is what the C library was given.  */
	for (size_t off = 0; off + 16 <= auxv.len; off += 16) {
		uint64_t type, value, found;

		memcpy(&type, auxv.data + off, 8);
		memcpy(&value, auxv.data + off + 8, 8);
		if (type == AT_NULL)
			break;
		entries++;
		cr_assert_eq(auxv_lookup(auxv.data, auxv.len, type, &found), 0);
		cr_assert_eq(found, value, "type %lu", (unsigned long) type);
		/* glibc rewrites AT_HWCAP for its own use; the rest it keeps.  */
		if (type != AT_HWCAP && type != AT_HWCAP2)
			cr_assert_eq(getauxval(type), value, "type %lu",
				     (unsigned long) type);
	}
	cr_assert_gt(entries, 10);
	cr_assert_eq(auxv_lookup(auxv.data, auxv.len, AT_PAGESZ, &v), 0);
	cr_assert_eq(v, (uint64_t) sysconf(_SC_PAGESIZE));
}

/* /bin/true run under ptrace, stopped at its exec.  */
static pid_t spawn_at_exec(void)
{
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execl("/bin/true", "true", (char *) NULL);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSTOPPED(status));
	return pid;
}

Test(auxv, another_process_has_its_own)
{
	pid_t pid = spawn_at_exec();
	uint64_t execfn, entry, phdr;
	char name[32] = "";
	struct iovec local = { name, sizeof(name) - 1 };
	struct iovec remote;
	Elf64_Ehdr eh;
	int fd;

	cr_assert_eq(auxv_read(pid, &auxv), 0);
	cr_assert_eq(auxv_lookup(auxv.data, auxv.len, AT_EXECFN, &execfn), 0);
	remote.iov_base = (void *) (uintptr_t) execfn;
	remote.iov_len = sizeof(name) - 1;
	cr_assert_gt(process_vm_readv(pid, &local, 1, &remote, 1, 0), 0);
	cr_assert_str_eq(name, "/bin/true");

	/* Entry and program headers moved by the same PIE bias.  */
	fd = open("/bin/true", O_RDONLY);
	cr_assert_eq(read(fd, &eh, sizeof(eh)), (ssize_t) sizeof(eh));
	close(fd);
	cr_assert_eq(auxv_lookup(auxv.data, auxv.len, AT_ENTRY, &entry), 0);
	cr_assert_eq(auxv_lookup(auxv.data, auxv.len, AT_PHDR, &phdr), 0);
	cr_assert_eq(entry - eh.e_entry, phdr - eh.e_phoff);
	cr_assert_eq((entry - eh.e_entry) % 4096, 0);
	cr_assert_neq(entry, getauxval(AT_ENTRY));

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

Test(auxv, vanished_and_zombie_processes)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(0);
	/* Exited but not reaped: its memory, and so its auxv, are gone.  */
	for (int i = 0; i < 200; i++) {
		char name[64], state = 0;
		FILE *f;

		snprintf(name, sizeof(name), "/proc/%d/stat", pid);
		f = fopen(name, "r");
		if (f && fscanf(f, "%*d %*s %c", &state) == 1 && state == 'Z') {
			fclose(f);
			break;
		}
		if (f)
			fclose(f);
		usleep(10000);
	}
	cr_assert_eq(auxv_read(pid, &auxv), -pse_noproc);
	waitpid(pid, NULL, 0);
	cr_assert_eq(auxv_read(pid, &auxv), -pse_noproc);
	cr_assert_eq(auxv.len, 0);
}

Test(auxv, lookup_stops_at_at_null_and_the_end)
{
	const uint64_t vec[] = {
		AT_PHDR, 0x1000, AT_PHNUM, 13, AT_PHDR, 0x2000,
		AT_NULL, 0, AT_ENTRY, 99,
	};
	uint64_t v = 7;

	cr_assert_eq(auxv_lookup(vec, sizeof(vec), AT_PHNUM, &v), 0);
	cr_assert_eq(v, 13);
	/* The first entry of a type wins.  */
	cr_assert_eq(auxv_lookup(vec, sizeof(vec), AT_PHDR, &v), 0);
	cr_assert_eq(v, 0x1000);
	/* Nothing after AT_NULL counts.  */
	v = 7;
	cr_assert_eq(auxv_lookup(vec, sizeof(vec), AT_ENTRY, &v), -pse_notfound);
	cr_assert_eq(v, 7);
	/* Nor a partial entry, nor anything past LEN.  */
	cr_assert_eq(auxv_lookup(vec, 24, AT_PHNUM, &v), -pse_notfound);
	cr_assert_eq(auxv_lookup(vec, 32, AT_PHNUM, &v), 0);
	cr_assert_eq(auxv_lookup(vec, 0, AT_PHDR, &v), -pse_notfound);
}
