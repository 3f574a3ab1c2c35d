/* A nat_target with the native-layer test program, for the tests of
   nat/inferior.c, nat/wait*.c, nat/stop_all.c and nat/resume.c.  */
#ifndef TESTSUITE_UNIT_NAT_FIXTURE_H
#define TESTSUITE_UNIT_NAT_FIXTURE_H

#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <unistd.h>

#include "common/ps_error.h"
#include "nat/target.h"
#include "testsuite/unit/elfsym.h"

static struct nat_target target;
static char prog[4096];

static inline void nat_fixture_setup(void)
{
	const char *top = getenv("top_builddir");

	snprintf(prog, sizeof(prog), "%s/testsuite/unit/progs/nat_prog",
		 top ? top : ".");
	cr_assert_eq(access(prog, X_OK), 0, "no %s", prog);
	cr_assert_eq(nat_target_init(&target), 0);
	target.start.startup_with_shell = 0;
}

static inline void nat_fixture_teardown(void)
{
	nat_target_fini(&target);
}

/* Start the program in MODE (with an optional argument).  */
static inline pid_t nat_fixture_start(const char *mode, const char *arg)
{
	char *argv[] = { prog, (char *) mode, (char *) arg, NULL };
	int status;
	pid_t pid = 0;

	cr_assert_eq(nat_create_inferior(&target, argv, &pid, &status), 0);
	return pid;
}

static inline void nat_fixture_resume_all(enum nat_resume_kind kind)
{
	struct nat_resume all = { -1, -1, kind, 0 };

	cr_assert_eq(nat_resume(&target, &all, 1), 0);
}

static inline void nat_fixture_wait(struct nat_event *ev)
{
	cr_assert_eq(nat_wait(&target, ev, NULL), 0);
}

static inline uint64_t nat_fixture_pc(pid_t tid)
{
	return (uint64_t) ptrace(PTRACE_PEEKUSER, tid,
				 (void *) offsetof(struct user_regs_struct, rip), 0);
}

#endif
