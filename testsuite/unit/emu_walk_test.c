/* Walks over real code placed in this process's memory.  */
#include "nat/emu/emu_walk.h"
#include "nat/emu/emu_maps.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long read_self(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void) ctx;
	memcpy(buf, (void *) (uintptr_t) addr, len);
	return (long) len;
}

/* Code at the start of a read+exec page:
     0: nop
     1: jmp +2        -> 5
     3: ud2           (skipped)
     5: call +3       -> 0xd
     a: nop
     b: nop
     c: nop
     d: add eax, 1
    10: jne -0x12     (the stop)  */
static const uint8_t code[] = {
	0x90, 0xeb, 0x02, 0x0f, 0x0b, 0xe8, 0x03, 0x00, 0x00, 0x00,
	0x90, 0x90, 0x90, 0x83, 0xc0, 0x01, 0x75, 0xee,
};

static uint8_t *page;
static struct emu_maps maps;
static struct emu_decoder *dec;

static void setup(void)
{
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(page, MAP_FAILED);
	memcpy(page, code, sizeof(code));
	memcpy(page + 4096, (uint8_t[]) { 0x90, 0x90, 0xc3 }, 3);
	mprotect(page, 4096, PROT_READ | PROT_EXEC);
	cr_assert_eq(emu_decoder_alloc(&dec), 0);
	emu_maps_init(&maps);
	cr_assert_eq(emu_maps_load(&maps, getpid()), 0);
}

static void teardown(void)
{
	emu_maps_fini(&maps);
	emu_decoder_free(dec);
	munmap(page, 8192);
}

TestSuite(walk, .init = setup, .fini = teardown);

Test(walk, follows_direct_branches_to_the_stop)
{
	uint64_t base = (uint64_t) (uintptr_t) page;
	struct emu_walk walk;
	uint64_t prev;
	uint16_t edges;
	uint32_t insns = 99;
	struct emu_sym rsp;

	cr_assert_eq(emu_walk_build(&walk, dec, &maps, read_self, NULL, base),
		     0);
	cr_expect_eq(walk.stop, base + 0x10);
	cr_expect_eq(walk.kind, emu_stop_emulate);
	cr_expect_eq(walk.insn.iclass, emu_ic_cond);
	cr_expect_eq(walk.ninsns, 4, "nop, jmp, call, add");
	cr_expect_eq(walk.last, base + 0xd);
	cr_assert_eq(walk.nedges, 2);
	cr_expect_eq(walk.edges[0].from, base + 1);
	cr_expect_eq(walk.edges[0].to, base + 5);
	cr_expect(!walk.edges[0].call);
	cr_expect_eq(walk.edges[1].from, base + 5);
	cr_expect_eq(walk.edges[1].to, base + 0xd);
	cr_expect(walk.edges[1].call);
	cr_expect_eq(walk.edges[1].len, 5);

	cr_assert(emu_walk_locate(&walk, dec, read_self, NULL, base + 0xd,
				  &prev, &edges, &rsp, &insns));
	cr_expect_eq(prev, base + 5);
	cr_expect_eq(edges, 2);
	cr_expect_eq(insns, 3, "nop, jmp, call");
	cr_assert(emu_walk_locate(&walk, dec, read_self, NULL, base + 0x10,
				  &prev, &edges, &rsp, &insns));
	cr_expect_eq(prev, base + 0xd);
	cr_expect_eq(insns, 4);
	cr_assert(emu_walk_locate(&walk, dec, read_self, NULL, base, &prev,
				  &edges, &rsp, &insns));
	cr_expect_eq(rsp.off, 0);
	cr_expect_eq(prev, 0);
	cr_expect_eq(edges, 0);
	cr_expect_eq(insns, 0);
	cr_expect(!emu_walk_locate(&walk, dec, read_self, NULL, base + 3,
				   &prev, &edges, &rsp, NULL),
		  "skipped by the jump");
	cr_expect(!emu_walk_locate(&walk, dec, read_self, NULL, base + 0xa,
				   &prev, &edges, &rsp, NULL), "after the call");
	emu_walk_fini(&walk);
}

Test(walk, stops_before_writable_code)
{
	uint64_t base = (uint64_t) (uintptr_t) page;
	struct emu_walk walk;

	/* The last bytes of the read+exec page fall through into the
	   writable one: the instruction before the boundary is stepped. */
	cr_assert_eq(mprotect(page, 4096, PROT_READ | PROT_WRITE), 0);
	memset(page + 4090, 0x90, 6);
	cr_assert_eq(mprotect(page, 4096, PROT_READ | PROT_EXEC), 0);
	cr_assert_eq(emu_maps_load(&maps, getpid()), 0);
	cr_assert_eq(emu_walk_build(&walk, dec, &maps, read_self, NULL,
				    base + 4090), 0);
	cr_expect_eq(walk.stop, base + 4095);
	cr_expect_eq(walk.kind, emu_stop_step);
	cr_expect_eq(walk.ninsns, 5);
	emu_walk_fini(&walk);
}

Test(walk, return_slot_proofs)
{
	uint64_t base = (uint64_t) (uintptr_t) page;
	struct emu_walk walk;
	/* push rbx; mov [rsp+0x10], eax; pop rbx; ret: the store is above
	   the slot.  Then: push rax; mov [rsp+8], eax; pop rax; ret: the
	   store is the slot itself.  Then a store through rdi.  */
	static const uint8_t good[] = { 0x53, 0x89, 0x44, 0x24, 0x10, 0x5b,
					0xc3 };
	static const uint8_t bad[] = { 0x50, 0x89, 0x44, 0x24, 0x08, 0x58,
				       0xc3 };
	static const uint8_t far_store[] = { 0x89, 0x07, 0xc3 };

	cr_assert_eq(mprotect(page, 4096, PROT_READ | PROT_WRITE), 0);
	memcpy(page + 0x100, good, sizeof(good));
	memcpy(page + 0x200, bad, sizeof(bad));
	memcpy(page + 0x300, far_store, sizeof(far_store));
	cr_assert_eq(mprotect(page, 4096, PROT_READ | PROT_EXEC), 0);
	cr_assert_eq(emu_maps_load(&maps, getpid()), 0);

	cr_assert_eq(emu_walk_build(&walk, dec, &maps, read_self, NULL,
				    base + 0x100), 0);
	cr_expect_eq(walk.insn.iclass, emu_ic_ret);
	cr_expect(walk.ret_known);
	cr_expect_eq(walk.slot.base, 0);
	cr_expect_eq(walk.slot.off, 0);
	cr_expect_eq(walk.rsp_after.off, 8);
	emu_walk_fini(&walk);
	cr_assert_eq(emu_walk_build(&walk, dec, &maps, read_self, NULL,
				    base + 0x200), 0);
	cr_expect(!walk.ret_known, "the slot is overwritten");
	emu_walk_fini(&walk);
	cr_assert_eq(emu_walk_build(&walk, dec, &maps, read_self, NULL,
				    base + 0x300), 0);
	cr_expect(!walk.ret_known, "a store that may alias");
	emu_walk_fini(&walk);
}
