/* --trigger's lookup: a function of a running program at the address it
   has there (this test's own child: its addresses are ours).  */
#include "rec/recorder.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

void __attribute__((noinline)) rec_symbol_target(void)
{
	__asm__ volatile("");
}

Test(rec_symbol, a_function_is_found_where_it_runs)
{
	pid_t child = fork();
	uint64_t addr = 0;
	int st;

	if (child == 0) {
		pause();
		_exit(0);
	}
	cr_assert_eq(rec_symbol_lookup(child, "rec_symbol_target", &addr), 0);
	cr_assert_eq(addr, (uint64_t) (uintptr_t) rec_symbol_target);
	cr_assert_eq(rec_symbol_lookup(child, "no_such_function_here", &addr),
		     -pse_notfound);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	cr_assert_eq(rec_symbol_lookup(child, "main", &addr), -pse_noproc);
}
