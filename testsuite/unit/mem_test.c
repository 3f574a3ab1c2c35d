#include <criterion/criterion.h>

#include "common/ps_error.h"
#include "nat/mem.h"
#include "testsuite/unit/tracee.h"
#include "testsuite/emu/emu_test_main.h"

#include <string.h>
#include <sys/mman.h>

static uint8_t data[8192];

Test(mem, read_and_write_the_child)
{
	struct nat_mem mem;
	uint8_t buf[sizeof(data)];
	pid_t pid;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t) (i * 7);
	pid = tracee_start(NULL);
	cr_assert_gt(pid, 0);
	nat_mem_init(&mem, pid);

	cr_assert_eq(nat_mem_read(&mem, (uint64_t) data, buf, sizeof(buf)),
		     (long) sizeof(buf));
	cr_assert_arr_eq(buf, data, sizeof(buf));

	cr_assert_eq(nat_mem_write(&mem, (uint64_t) data + 100, "abc", 3), 0);
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) data + 99, buf, 5), 5);
	cr_assert_eq(buf[0], data[99]);
	cr_assert_arr_eq(buf + 1, "abc", 3);

	nat_mem_fini(&mem);
	tracee_kill(pid);
}

Test(mem, text_is_writable_through_proc_mem)
{
	struct nat_mem mem;
	uint8_t orig, patched = 0x90, back;
	uint64_t addr = (uint64_t) &memcpy;
	pid_t pid = tracee_start(NULL);

	cr_assert_gt(pid, 0);
	nat_mem_init(&mem, pid);
	cr_assert_eq(nat_mem_read(&mem, addr, &orig, 1), 1);
	cr_assert_eq(nat_mem_write(&mem, addr, &patched, 1), 0);
	cr_assert_eq(nat_mem_read(&mem, addr, &back, 1), 1);
	cr_assert_eq(back, 0x90);
	nat_mem_fini(&mem);
	tracee_kill(pid);
}

Test(mem, partial_read_stops_at_unmapped_page)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct nat_mem mem;
	uint8_t buf[64];
	pid_t pid;

	cr_assert_neq(map, MAP_FAILED);
	munmap(map + page, page);
	pid = tracee_start(NULL);
	cr_assert_gt(pid, 0);
	nat_mem_init(&mem, pid);
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) (map + page - 16), buf, 64),
		     16);
	cr_assert_eq(nat_mem_read(&mem, (uint64_t) (map + page), buf, 8),
		     -pse_fault);
	cr_assert_eq(nat_mem_write(&mem, (uint64_t) (map + page), buf, 8),
		     -pse_fault);
	nat_mem_fini(&mem);
	tracee_kill(pid);
}
