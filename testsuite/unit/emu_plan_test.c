/* The resume planner without a process: a chain starts with a copy of
   its walk at the thread's RSP, and goes no further when shortcuts
   cannot be taken (several traced threads, or a walk that does not end
   at an emulated branch).  */
#include "nat/emu/emu_plan.h"
#include "nat/emu/emu_engine.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static struct emu_thread *thread_new(void)
{
	struct emu_thread *th = calloc(1, sizeof(*th));

	cr_assert_not_null(th);
	th->nchain = 5;   /* what a former plan left */
	return th;
}

static void plan(struct emu *emu, struct emu_thread *th,
		 const struct emu_walk *walk)
{
	struct user_regs_struct regs;

	memset(&regs, 0, sizeof(regs));
	regs.rip = walk->stop;
	regs.rsp = 0x7ff000;
	regs.rbp = 0x7ff100;
	emu_plan_chain(emu, th, walk, &regs);
}

Test(emu_plan, several_traced_threads_keep_one_link)
{
	struct emu emu;
	struct emu_walk walk;
	struct emu_thread *th = thread_new();
	struct emu_alu_rec rec;

	memset(&emu, 0, sizeof(emu));
	memset(&walk, 0, sizeof(walk));
	emu.ntraced = 2;
	walk.stop = 0x401000;
	walk.kind = emu_stop_emulate;
	walk.recs = &rec;
	plan(&emu, th, &walk);
	cr_assert_eq(th->nchain, 1);
	cr_assert_eq(th->chain[0].rsp0, 0x7ff000);
	cr_assert_eq(th->chain[0].walk.stop, 0x401000);
	cr_assert_eq(th->chain[0].walk.edges, th->chain[0].edges);
	cr_assert_null(th->chain[0].walk.recs, "no pointer into the cache");
	cr_assert_eq(th->chain[0].ret_target, 0);
	cr_assert_not(th->chain[0].taken);
	free(th);
}

Test(emu_plan, walk_not_ending_at_an_emulated_branch_ends_the_chain)
{
	struct emu emu;
	struct emu_walk walk;
	struct emu_thread *th = thread_new();

	memset(&emu, 0, sizeof(emu));
	memset(&walk, 0, sizeof(walk));
	emu.ntraced = 1;
	emu.config.ret_shortcut = true;
	walk.stop = 0x401000;
	walk.kind = emu_stop_self;
	plan(&emu, th, &walk);
	cr_assert_eq(th->nchain, 1);
	cr_assert_eq(th->chain[0].walk.kind, emu_stop_self);
	free(th);
}
