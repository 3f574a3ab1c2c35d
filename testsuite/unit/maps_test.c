#include <criterion/criterion.h>

#include "common/ps_error.h"
#include "nat/maps.h"
#include "testsuite/unit/tracee.h"
#include "testsuite/emu/emu_test_main.h"

#include <string.h>
#include <sys/mman.h>

Test(maps, lists_the_program_with_its_build_id)
{
	struct nat_maps maps;
	char self[4096];
	uint8_t id[64];
	int text = 0, vdso = 0, n;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid = tracee_start(NULL);

	cr_assert_gt(len, 0);
	self[len] = '\0';
	cr_assert_gt(pid, 0);
	n = nat_build_id(self, id, sizeof(id));
	cr_assert_gt(n, 0, "the test binary has a build-id");

	nat_maps_init(&maps);
	cr_assert_eq(nat_maps_read(&maps, pid), 0);
	for (size_t i = 0; i < maps.count; i++) {
		const struct nat_map *m = &maps.map[i];

		cr_assert_lt(m->start, m->end);
		if (!strcmp(m->path, self) && (m->prot & PROT_EXEC)) {
			text++;
			cr_assert_eq(m->build_id_size, (size_t) n);
			cr_assert_arr_eq(m->build_id, id, (size_t) n);
		}
		if (!strcmp(m->path, "[vdso]")) {
			vdso++;
			cr_assert(m->prot & PROT_EXEC);
			cr_assert_eq(m->build_id_size, 0);
		}
	}
	/* One mapping of the text, or two: criterion's worker patches
	   main() (ours, from emu_test_main.h) through mprotect, which may
	   split the text mapping at main's page.  */
	cr_assert(text == 1 || text == 2, "%d text mappings", text);
	cr_assert_eq(vdso, 1);
	nat_maps_fini(&maps);
	tracee_kill(pid);
}

Test(maps, missing_process_and_file)
{
	struct nat_maps maps;
	uint8_t id[64];

	nat_maps_init(&maps);
	cr_assert_eq(nat_maps_read(&maps, 0x7ffffff0), -pse_noproc);
	cr_assert_eq(maps.count, 0);
	cr_assert_eq(nat_build_id("/nonexistent", id, sizeof(id)), -pse_notfound);
	/* Not an ELF file at all.  */
	cr_assert_eq(nat_build_id("/etc/passwd", id, sizeof(id)), -pse_notfound);
	/* Too small a buffer for a 20-byte SHA-1 id.  */
	cr_assert_eq(nat_build_id("/proc/self/exe", id, 4), -pse_nospace);
}
