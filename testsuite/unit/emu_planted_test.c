/* The set of addresses the engine planted traps at.  */
#include "nat/emu/emu_planted.h"

#include <criterion/criterion.h>

Test(planted, add_find_clear)
{
	struct emu_planted set;

	emu_planted_init(&set);
	cr_expect_not(emu_planted_has(&set, 0x1000));
	/* Out of order, with duplicates, past the first allocation.  */
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t addr = 0x400000 + ((i * 7919) % 1000) * 16;

		cr_assert_eq(emu_planted_add(&set, addr), 0);
		cr_assert_eq(emu_planted_add(&set, addr), 0);
	}
	cr_expect_eq(set.count, 1000);
	for (size_t i = 1; i < set.count; i++)
		cr_assert_lt(set.addrs[i - 1], set.addrs[i]);
	cr_expect(emu_planted_has(&set, 0x400000));
	cr_expect(emu_planted_has(&set, 0x400000 + 999 * 16));
	cr_expect_not(emu_planted_has(&set, 0x400001));
	cr_expect_not(emu_planted_has(&set, 0x400000 + 1000 * 16));
	emu_planted_clear(&set);
	cr_expect_eq(set.count, 0);
	cr_expect_not(emu_planted_has(&set, 0x400000));
	emu_planted_fini(&set);
}
