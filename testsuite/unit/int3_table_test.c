#include <criterion/criterion.h>

#include "common/ps_error.h"
#include "nat/int3_table.h"
#include "nat/mem.h"
#include "testsuite/unit/tracee.h"
#include "testsuite/emu/emu_test_main.h"

#include <string.h>

/* Code-like bytes in the child's copy of this test's data.  */
static uint8_t code[64] = {
	0x55, 0x48, 0x89, 0xe5, 0x90, 0x90, 0xc3, 0x0f, 0x1f, 0x00,
};

static pid_t pid;
static struct nat_mem mem;
static struct int3_table table;

static void setup(void)
{
	pid = tracee_start(NULL);
	cr_assert_gt(pid, 0);
	nat_mem_init(&mem, pid);
	int3_table_init(&table);
}

static void teardown(void)
{
	int3_table_fini(&table);
	nat_mem_fini(&mem);
	tracee_kill(pid);
}

static uint8_t child_byte(uint64_t addr)
{
	uint8_t b = 0;

	cr_assert_eq(nat_mem_read(&mem, addr, &b, 1), 1);
	return b;
}

TestSuite(int3_table, .init = setup, .fini = teardown);

Test(int3_table, insert_plants_and_remove_restores)
{
	uint64_t addr = (uint64_t) &code[1];

	cr_assert_eq(int3_insert(&table, &mem, addr, int3_owner_gdb), 0);
	cr_assert_eq(child_byte(addr), 0xcc);
	cr_assert_eq(int3_lookup(&table, addr)->orig, 0x48);
	cr_assert_eq(int3_remove(&table, &mem, addr, int3_owner_gdb), 0);
	cr_assert_eq(child_byte(addr), 0x48);
	cr_assert_null(int3_lookup(&table, addr));
}

Test(int3_table, owners_share_one_site)
{
	uint64_t addr = (uint64_t) &code[2];

	cr_assert_eq(int3_insert(&table, &mem, addr, int3_owner_gdb), 0);
	cr_assert_eq(int3_insert(&table, &mem, addr, int3_owner_emu), 0);
	cr_assert_eq(table.count, 1);
	/* Removing one owner keeps the int3 for the other.  */
	cr_assert_eq(int3_remove(&table, &mem, addr, int3_owner_gdb), 0);
	cr_assert_eq(child_byte(addr), 0xcc);
	cr_assert_eq(int3_remove(&table, &mem, addr, int3_owner_gdb),
		     -pse_notfound);
	cr_assert_eq(int3_remove(&table, &mem, addr, int3_owner_emu), 0);
	cr_assert_eq(child_byte(addr), 0x89);
}

Test(int3_table, shadow_hides_planted_bytes)
{
	uint8_t buf[10];

	for (int i = 0; i < 10; i += 3)
		cr_assert_eq(int3_insert(&table, &mem, (uint64_t) &code[i],
					 int3_owner_emu), 0);
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) code, buf, sizeof(buf)), 10);
	cr_assert_eq(buf[0], 0xcc);
	int3_shadow(&table, (uint64_t) code, buf, sizeof(buf));
	cr_assert_arr_eq(buf, code, sizeof(buf));

	/* A window that starts inside the planted range.  */
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) &code[2], buf, 5), 5);
	int3_shadow(&table, (uint64_t) &code[2], buf, 5);
	cr_assert_arr_eq(buf, &code[2], 5);
}

Test(int3_table, write_through_keeps_int3_and_new_original)
{
	uint64_t addr = (uint64_t) &code[4];
	uint8_t patch[3] = { 0x11, 0x22, 0x33 };

	cr_assert_eq(int3_insert(&table, &mem, addr + 1, int3_owner_gdb), 0);
	cr_assert_eq(int3_write_through(&table, &mem, addr, patch, 3), 0);
	cr_assert_eq(child_byte(addr), 0x11);
	cr_assert_eq(child_byte(addr + 1), 0xcc);
	cr_assert_eq(child_byte(addr + 2), 0x33);
	cr_assert_eq(int3_lookup(&table, addr + 1)->orig, 0x22);
	cr_assert_eq(int3_remove(&table, &mem, addr + 1, int3_owner_gdb), 0);
	cr_assert_eq(child_byte(addr + 1), 0x22);
}

Test(int3_table, remove_all_of_one_owner)
{
	for (int i = 0; i < 8; i++)
		cr_assert_eq(int3_insert(&table, &mem, (uint64_t) &code[i],
					 i % 2 ? int3_owner_gdb : int3_owner_emu), 0);
	cr_assert_eq(int3_remove_all(&table, &mem, int3_owner_emu), 0);
	cr_assert_eq(table.count, 4);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(child_byte((uint64_t) &code[i]),
			     i % 2 ? 0xcc : code[i]);
	cr_assert_eq(int3_remove_all(&table, &mem, ~0u), 0);
	cr_assert_eq(table.count, 0);
}

Test(int3_table, sites_stay_sorted_and_copy)
{
	struct int3_table copy;
	int order[] = { 7, 1, 5, 3, 0 };

	for (size_t i = 0; i < 5; i++)
		cr_assert_eq(int3_insert(&table, &mem, (uint64_t) &code[order[i]],
					 int3_owner_gdb), 0);
	for (size_t i = 1; i < table.count; i++)
		cr_assert_lt(table.sites[i - 1].addr, table.sites[i].addr);

	int3_table_init(&copy);
	cr_assert_eq(int3_table_copy(&copy, &table), 0);
	cr_assert_eq(copy.count, 5);
	cr_assert_eq(int3_lookup(&copy, (uint64_t) &code[5])->orig, code[5]);
	int3_table_fini(&copy);
}

Test(int3_table, unmapped_address_fails_cleanly)
{
	cr_assert_eq(int3_insert(&table, &mem, 8, int3_owner_gdb), -pse_fault);
	cr_assert_eq(table.count, 0);
}

/* A library unloaded and another mapped at the same address: the site
   is still in the table but its int3 is gone; inserting again plants it
   and takes the new code's byte as the original.  */
Test(int3_table, insert_replants_a_site_whose_code_was_replaced)
{
	uint64_t addr = (uint64_t) &code[5];
	uint8_t other = 0x77;

	cr_assert_eq(int3_insert(&table, &mem, addr, int3_owner_gdb), 0);
	cr_assert_eq(nat_mem_write(&mem, addr, &other, 1), 0);
	cr_assert_eq(int3_insert(&table, &mem, addr, int3_owner_gdb), 0);
	cr_assert_eq(child_byte(addr), 0xcc);
	cr_assert_eq(int3_lookup(&table, addr)->orig, 0x77);
	cr_assert_eq(int3_remove(&table, &mem, addr, int3_owner_gdb), 0);
	cr_assert_eq(child_byte(addr), 0x77);
}
