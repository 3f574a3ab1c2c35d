#include <criterion/criterion.h>

#include "common/ps_error.h"
#include "nat/catch_syscall.h"
#include "testsuite/emu/emu_test_main.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

Test(catch_syscall, off_catches_nothing)
{
	struct nat_catch_syscall c;

	cr_assert_eq(nat_catch_syscall_set(&c, 0, NULL, 0), 0);
	cr_assert_not(nat_catch_syscall_wants(&c, 1));
	cr_assert_not(nat_catch_syscall_wants(&c, 0));
}

Test(catch_syscall, on_without_list_catches_all)
{
	struct nat_catch_syscall c;

	cr_assert_eq(nat_catch_syscall_set(&c, 1, NULL, 0), 0);
	cr_assert(nat_catch_syscall_wants(&c, 0));
	cr_assert(nat_catch_syscall_wants(&c, 5000));
}

Test(catch_syscall, list_catches_only_its_numbers)
{
	struct nat_catch_syscall c;
	uint64_t nrs[] = { 3, 231 };

	cr_assert_eq(nat_catch_syscall_set(&c, 1, nrs, 2), 0);
	cr_assert(nat_catch_syscall_wants(&c, 3));
	cr_assert(nat_catch_syscall_wants(&c, 231));
	cr_assert_not(nat_catch_syscall_wants(&c, 2));
	cr_assert_not(nat_catch_syscall_wants(&c, 232));
	cr_assert_not(nat_catch_syscall_wants(&c, 100000));
}

Test(catch_syscall, bad_number_changes_nothing)
{
	struct nat_catch_syscall c;
	uint64_t good[] = { 3 }, bad[] = { 4, NAT_CATCH_SYSCALL_MAX };

	cr_assert_eq(nat_catch_syscall_set(&c, 1, good, 1), 0);
	cr_assert_eq(nat_catch_syscall_set(&c, 1, bad, 2), -pse_invalid);
	cr_assert(nat_catch_syscall_wants(&c, 3));
	cr_assert_not(nat_catch_syscall_wants(&c, 4));
}

/* A real syscall stop: entry then return of getppid, by the kernel's
   word, with the call's number both times.  */
Test(catch_syscall, stop_info_of_a_real_child)
{
	pid_t pid = fork();
	uint64_t nr = 0;
	int ws, entry = -1;

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		syscall(SYS_getppid);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &ws, 0), pid);
	cr_assert_eq(ptrace(PTRACE_SETOPTIONS, pid, 0,
			    (void *) PTRACE_O_TRACESYSGOOD), 0);
	/* raise() itself may still be in a syscall: skip to getppid.  */
	for (int i = 0; i < 16; i++) {
		cr_assert_eq(ptrace(PTRACE_SYSCALL, pid, 0, 0), 0);
		cr_assert_eq(waitpid(pid, &ws, 0), pid);
		cr_assert(WIFSTOPPED(ws));
		cr_assert_eq(WSTOPSIG(ws), SIGTRAP | 0x80);
		cr_assert_eq(nat_syscall_stop_info(pid, &nr, &entry), 0);
		if (nr == SYS_getppid)
			break;
	}
	cr_assert_eq(nr, SYS_getppid);
	cr_assert_eq(entry, 1);
	cr_assert_eq(ptrace(PTRACE_SYSCALL, pid, 0, 0), 0);
	cr_assert_eq(waitpid(pid, &ws, 0), pid);
	cr_assert_eq(nat_syscall_stop_info(pid, &nr, &entry), 0);
	cr_assert_eq(nr, SYS_getppid);
	cr_assert_eq(entry, 0);
	kill(pid, SIGKILL);
	waitpid(pid, &ws, 0);
}
