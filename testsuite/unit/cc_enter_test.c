/* Entering and leaving the code cache (nat/emu/cc_enter.c) on a real
   process: a breakpoint inserted into code already translated stops the
   thread at the original address, with registers and maps as the
   program and GDB must see them and the trace up to it single-step's;
   the mappings are gone after tracing.  */
#include "testsuite/unit/cc_fixture.h"
#include "testsuite/emu/emu_driver.h"
#include "testsuite/emu/emu_test_main.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#ifndef EMU_PROGDIR
#error "EMU_PROGDIR must name the built corpus"
#endif

/* Whether ADDR lies in a file mapping of PID (the program's code, not
   an anonymous cache).  */
static bool in_file_mapping(pid_t pid, uint64_t addr)
{
	char path[64], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) pid);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;

		if (sscanf(line, "%llx-%llx", &s, &e) == 2 && addr >= s &&
		    addr < e)
			found = strchr(line, '/') != NULL;
	}
	fclose(f);
	return found;
}

/* GDB's breakpoint at a function called in a loop stops it there; one
   inserted then at the return address in code the cache already runs
   stops it there too, at the original address, with the trace up to it
   equal to single-step's.  The cache's mappings are named while it
   records and gone afterwards.  */
Test(cc_enter, breakpoint_in_translated_code)
{
	char prog[512];
	struct drv_proc proc;
	struct drv_ips truth, pt;
	struct user_regs_struct regs;
	struct ps_buf raw;
	struct emu *emu;
	uint64_t signs, ret_addr;
	unsigned gaps;
	size_t first = 0;
	int status;

	snprintf(prog, sizeof(prog), "%s/loops", EMU_PROGDIR);
	drv_ips_init(&truth);
	drv_ips_init(&pt);
	cr_assert_eq(drv_start(&proc, prog, NULL, "run"), 0);
	drv_truth(&proc, &truth);
	drv_finish(&proc);

	cr_assert_eq(drv_start(&proc, prog, NULL, "run"), 0);
	signs = drv_symbol(proc.pid, prog, "signs");
	cr_assert_neq(signs, 0);
	cr_assert_eq(emu_alloc(&emu, proc.pid, &proc.sites, &proc.mem,
			       &cache_engine), 0);
	cr_assert_eq(emu_enable(emu, proc.pid, trace_format_pt, 1u << 20), 0);

	/* The first call of signs: the first breakpoint.  */
	cr_assert_eq(int3_insert(&proc.sites, &proc.mem, signs,
				 int3_owner_gdb), 0);
	status = cc_fx_run_to_report(emu, proc.pid, 0);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	cr_assert_eq(ptrace(PTRACE_GETREGS, proc.pid, 0, &regs), 0);
	cr_assert_eq(regs.rip - 1, signs);
	cr_expect_eq(regs.gs_base, 0);
	cr_expect_gt(cc_fx_maps_count(proc.pid, CC_MAP_NAME("")), 0,
		     "the cache's mappings are not there or not named");

	/* Past it, and a breakpoint where signs returns to.  */
	regs.rip -= 1;
	cr_assert_eq(ptrace(PTRACE_SETREGS, proc.pid, 0, &regs), 0);
	cr_assert_eq(nat_mem_read(&proc.mem, regs.rsp, &ret_addr, 8), 8);
	cr_assert_eq(int3_remove(&proc.sites, &proc.mem, signs,
				 int3_owner_gdb), 0);
	cr_assert_eq(int3_insert(&proc.sites, &proc.mem, ret_addr,
				 int3_owner_gdb), 0);
	status = cc_fx_run_to_report(emu, proc.pid, 0);
	cr_assert(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	cr_assert_eq(ptrace(PTRACE_GETREGS, proc.pid, 0, &regs), 0);
	cr_expect_eq(regs.rip - 1, ret_addr, "stopped at %#llx, not %#llx",
		     regs.rip - 1, (unsigned long long) ret_addr);
	cr_expect(in_file_mapping(proc.pid, regs.rip - 1));
	cr_expect_eq(regs.gs_base, 0);

	/* The trace so far is single-step's up to the first ret_addr.  */
	while (first < truth.count && truth.ips[first] != ret_addr)
		first++;
	cr_assert_lt(first, truth.count);
	ps_buf_init(&raw);
	cr_assert_eq(emu_read_pt(emu, proc.pid, false, &raw), 0);
	drv_decode_pt(&proc, &raw, &pt, &gaps);
	cr_expect_eq(gaps, 0);
	cr_expect_eq(pt.count, first, "decoded %zu instructions, want %zu",
		     pt.count, first);
	for (size_t i = 0; i < pt.count && i < first; i++)
		if (pt.ips[i] != truth.ips[i]) {
			cr_expect_fail("differs at %zu: %#llx, want %#llx", i,
				       (unsigned long long) pt.ips[i],
				       (unsigned long long) truth.ips[i]);
			break;
		}

	/* Tracing off: the mappings go.  */
	cr_assert_eq(emu_disable(emu, proc.pid), 0);
	cr_expect_eq(cc_fx_maps_count(proc.pid, CC_MAP_NAME("")), 0);
	emu_free(emu);
	ps_buf_fini(&raw);
	drv_finish(&proc);
	drv_ips_fini(&truth);
	drv_ips_fini(&pt);
}
