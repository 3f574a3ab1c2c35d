#include <criterion/criterion.h>

#include "common/ps_error.h"
#include "nat/debugregs.h"
#include "testsuite/unit/debugregs_probe.h"
#include "testsuite/unit/tracee.h"
#include "testsuite/emu/emu_test_main.h"

static volatile long watched[4];

static void write_watched(void)
{
	watched[1] = 42;
}

Test(debugregs, dr7_encodes_kind_and_length)
{
	struct nat_debugregs dr;

	nat_debugregs_init(&dr);
	cr_assert_eq(nat_debugregs_dr7(&dr), 0);
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_exec, 0x1000, 1), 0);
	/* L0, RW0=00 (exec), LEN0=00, plus LE.  */
	cr_assert_eq(nat_debugregs_dr7(&dr), 0x101);
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_write, 0x2000, 8), 0);
	/* L1, RW1=01, LEN1=10 (8 bytes).  */
	cr_assert_eq(nat_debugregs_dr7(&dr), 0x101 | 0x4 | (0x9ull << 20));
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_access, 0x3002, 2), 0);
	/* L2, RW2=11, LEN2=01.  */
	cr_assert_eq(nat_debugregs_dr7(&dr) & (0xfull << 24), 0x7ull << 24);
}

Test(debugregs, unaligned_regions_take_several_slots)
{
	struct nat_debugregs dr;

	nat_debugregs_init(&dr);
	/* 0x1003..0x100a: pieces of 1, 4, 2, 1 bytes.  */
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_write, 0x1003, 8), 0);
	cr_assert_eq(dr.slot[0].len, 1);
	cr_assert_eq(dr.slot[1].len, 4);
	cr_assert_eq(dr.slot[2].len, 2);
	cr_assert_eq(dr.slot[3].len, 1);
	/* No room left: all or nothing.  */
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_write, 0x2000, 2),
		     -pse_nospace);
	cr_assert_eq(nat_debugregs_remove(&dr, nat_dr_write, 0x1003, 8), 0);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(dr.slot[i].refs, 0);
}

Test(debugregs, same_region_twice_is_counted)
{
	struct nat_debugregs dr;

	nat_debugregs_init(&dr);
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_write, 0x1000, 4), 0);
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_write, 0x1000, 4), 0);
	cr_assert_eq(nat_debugregs_remove(&dr, nat_dr_write, 0x1000, 4), 0);
	cr_assert_neq(nat_debugregs_dr7(&dr), 0);
	cr_assert_eq(nat_debugregs_remove(&dr, nat_dr_write, 0x1000, 4), 0);
	cr_assert_eq(nat_debugregs_dr7(&dr), 0);
	cr_assert_eq(nat_debugregs_remove(&dr, nat_dr_write, 0x1000, 4),
		     -pse_notfound);
}

Test(debugregs, read_watchpoints_are_unsupported)
{
	struct nat_debugregs dr;

	nat_debugregs_init(&dr);
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_read, 0x1000, 4),
		     -pse_unsupported);
}

Test(debugregs, write_watchpoint_fires_in_a_real_thread)
{
	struct nat_debugregs dr;
	int status, slot;
	pid_t pid;

	debugregs_skip_unless_they_trap();
	pid = tracee_start(write_watched);

	cr_assert_gt(pid, 0);
	nat_debugregs_init(&dr);
	cr_assert_eq(nat_debugregs_insert(&dr, nat_dr_write,
					  (uint64_t) &watched[1], 8), 0);
	cr_assert_eq(nat_debugregs_apply(&dr, pid), 0);
	cr_assert_eq(ptrace(PTRACE_CONT, pid, 0, 0), 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	slot = nat_debugregs_hit(&dr, pid);
	cr_assert_eq(slot, 0);
	cr_assert_eq(dr.slot[slot].addr, (uint64_t) &watched[1]);
	/* DR6 was reset: asking again finds nothing.  */
	cr_assert_eq(nat_debugregs_hit(&dr, pid), -pse_notfound);
	cr_assert_eq(nat_debugregs_clear(pid), 0);
	tracee_kill(pid);
}
