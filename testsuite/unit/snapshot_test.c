/* The one snapshot of a stopped process: the traced thread's trace and
   pc, the mappings by file (protections PROT_* alone), the vDSO by
   copy, [vvar] and [vsyscall] left out, the program's path; with a core
   every thread's registers, the writable memory and the auxv; written
   whole and read back by libptbundle.  */
#include "testsuite/unit/nat_fixture.h"
#include "testsuite/emu/emu_test_main.h"

#include "rec/snapshot.h"
#include "nat/auxv.h"
#include "nat/btrace.h"
#include "common/ps_buf.h"

#include <elf.h>
#include <string.h>
#include <sys/mman.h>

TestSuite(snapshot, .init = nat_fixture_setup, .fini = nat_fixture_teardown);

/* The program traced in FORMAT and stopped at marker.  */
static struct nat_thread *stopped_at_marker(enum trace_format format)
{
	pid_t pid = nat_fixture_start("marker", NULL);
	struct nat_thread *thread = nat_find_thread(&target, pid, pid);
	uint64_t marker = elfsym_addr(prog, "marker");
	char reason[256] = "";
	struct nat_event ev;

	cr_assert_not_null(thread);
	target.btrace_policy = nat_btrace_emulated;
	cr_assert_eq(nat_btrace_enable(&target, thread, format, 1 << 16,
				       reason, sizeof(reason)), 0, "%s", reason);
	cr_assert_eq(nat_insert_breakpoint(thread->proc, marker), 0);
	nat_fixture_resume_all(nat_resume_cont);
	nat_fixture_wait(&ev);
	cr_assert_eq(ev.reason, nat_stop_swbreak);
	return thread;
}

Test(snapshot, a_thread_its_trace_and_the_memory_map)
{
	struct nat_thread *thread = stopped_at_marker(trace_format_pt);
	struct snapshot_options opts = { .only = thread };
	struct snapshot snap;
	const struct bt_bundle *b = &snap.bundle;
	int prog_mapped = 0, vdso = 0;

	cr_assert_eq(snapshot_take(&snap, &target, thread->proc, &opts), 0);
	cr_assert_eq(b->format, btf_pt);
	cr_assert_eq(b->buffer_size, 1 << 16);
	cr_assert_eq(b->nthreads, 1);
	cr_assert_eq(b->pid, thread->proc->pid);
	cr_assert_eq(b->tid, thread->tid);
	cr_assert(b->has_pc);
	cr_assert_eq(b->pc, elfsym_addr(prog, "marker"));
	cr_assert_gt(b->trace_size, 16);
	cr_assert_eq(b->trace[0], 0x02, "the trace starts with a PSB");
	cr_assert_eq(b->trace[1], 0x82);
	cr_assert_str_eq(b->exe, prog);
	cr_assert_eq(b->ncore_threads, 0, "no core unless asked");
	cr_assert_eq(b->ncore_pages, 0);
	cr_assert_null(b->auxv);
	for (size_t i = 0; i < b->nmappings; i++) {
		const struct bt_mapping *m = &b->mappings[i];

		cr_assert_eq(m->path[0], '/', "%s", m->path);
		cr_assert_eq(m->prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC),
			     0);
		if (!strcmp(m->path, prog) && (m->prot & PROT_EXEC))
			prog_mapped = 1;
	}
	for (size_t i = 0; i < b->npages; i++) {
		cr_assert(b->pages[i].prot & PROT_EXEC);
		cr_assert_str_neq(b->pages[i].name, "[vvar]");
		cr_assert_str_neq(b->pages[i].name, "[vsyscall]");
		vdso |= !strcmp(b->pages[i].name, "[vdso]");
	}
	cr_assert(prog_mapped, "the program's code is mapped by its file");
	cr_assert(vdso, "the vDSO is copied");
	snapshot_fini(&snap);
}

Test(snapshot, a_core_has_registers_memory_and_auxv)
{
	struct nat_thread *thread = stopped_at_marker(trace_format_bts);
	struct snapshot_options opts = {
		.core = 1, .signal_tid = thread->tid, .signal = SIGSEGV,
	};
	struct snapshot snap;
	const struct bt_bundle *b = &snap.bundle;
	uint64_t entry;

	cr_assert_eq(snapshot_take(&snap, &target, thread->proc, &opts), 0);
	cr_assert_eq(b->format, btf_bts);
	cr_assert_eq(b->nthreads, 1);
	cr_assert_eq(b->trace_size % sizeof(struct bt_bts_block), 0);
	cr_assert_gt(b->trace_size, 0);
	cr_assert_eq(b->ncore_threads, 1);
	cr_assert_eq(b->core_threads[0].tid, thread->tid);
	cr_assert_eq(b->core_threads[0].signal, SIGSEGV);
	cr_assert_gt(b->core_threads[0].regs_size, 0);
	cr_assert_gt(b->ncore_pages, 0);
	for (size_t i = 0; i < b->ncore_pages; i++) {
		cr_assert(b->core_pages[i].prot & PROT_READ);
		cr_assert_str_neq(b->core_pages[i].name, "[vvar]");
	}
	cr_assert_gt(b->auxv_size, 0);
	cr_assert_eq(auxv_lookup(b->auxv, b->auxv_size, AT_ENTRY, &entry), 0);
	cr_assert_neq(entry, 0);
	snapshot_fini(&snap);
}

Test(snapshot, written_whole_and_read_back)
{
	struct nat_thread *thread = stopped_at_marker(trace_format_pt);
	struct snapshot_options opts = { .only = thread };
	char dir[] = "/tmp/snapshot_XXXXXX", path[64];
	struct snapshot snap;
	struct bt_bundle back;
	struct bt_diag diag;
	size_t size = 0;
	int sys = -1;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.ptb", dir);
	cr_assert_eq(snapshot_take(&snap, &target, thread->proc, &opts), 0);
	cr_assert_eq(snapshot_write(&snap.bundle, path, &size, &sys), 0);
	cr_assert_eq(sys, 0);
	cr_assert_gt(size, snap.bundle.trace_size);
	bt_diag_init(&diag);
	cr_assert_eq(bt_bundle_load(&back, path, &diag), 0, "%s", diag.text);
	cr_assert_eq(back.nthreads, 1);
	cr_assert_eq(back.tid, thread->tid);
	cr_assert_eq(back.pc, snap.bundle.pc);
	cr_assert_eq(back.trace_size, snap.bundle.trace_size);
	cr_assert_eq(back.nmappings, snap.bundle.nmappings);
	cr_assert_eq(back.npages, snap.bundle.npages);
	cr_assert_str_eq(back.exe, prog);
	bt_bundle_fini(&back);

	snprintf(path, sizeof(path), "%s/missing/s.ptb", dir);
	cr_assert_eq(snapshot_write(&snap.bundle, path, &size, &sys),
		     -pse_io);
	cr_assert_eq(sys, ENOENT);
	snapshot_fini(&snap);
	snprintf(path, sizeof(path), "%s/s.ptb", dir);
	unlink(path);
	rmdir(dir);
}
