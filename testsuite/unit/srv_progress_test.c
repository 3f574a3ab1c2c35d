/* Progress lines' settings: PTSTUB_PROGRESS_MS and its bad values, and
   when a run gets a tick at all (not when off, not in non-stop).  The
   lines themselves are tested with real GDB (testsuite/robust/).  */
#include "server/server.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static struct srv_progress with_env(const char *value)
{
	struct srv_progress p;

	if (value)
		setenv("PTSTUB_PROGRESS_MS", value, 1);
	else
		unsetenv("PTSTUB_PROGRESS_MS");
	srv_progress_init(&p);
	unsetenv("PTSTUB_PROGRESS_MS");
	return p;
}

Test(srv_progress, defaults_are_five_seconds)
{
	struct srv_progress p = with_env(NULL);

	cr_assert_eq(p.delay_ms, 5000);
	cr_assert_eq(p.every_ms, 5000);
	cr_assert_eq(p.off, 0);
}

Test(srv_progress, the_environment_sets_delay_and_interval)
{
	struct srv_progress p = with_env("300,700");

	cr_assert_eq(p.delay_ms, 300);
	cr_assert_eq(p.every_ms, 700);
	p = with_env("0");
	cr_assert_eq(p.delay_ms, 0);
	cr_assert_eq(p.every_ms, 5000);
}

Test(srv_progress, bad_values_keep_the_defaults)
{
	struct srv_progress p = with_env("soon,-4");

	cr_assert_eq(p.delay_ms, 5000);
	cr_assert_eq(p.every_ms, 5000);
	p = with_env("100,0");
	cr_assert_eq(p.delay_ms, 100);
	cr_assert_eq(p.every_ms, 5000);
}

Test(srv_progress, a_run_gets_a_tick_unless_off_or_non_stop)
{
	static struct srv srv;
	struct nat_wait_hook hook;

	memset(&srv, 0, sizeof(srv));
	srv_progress_init(&srv.progress);
	memset(&hook, 0, sizeof(hook));
	srv_progress_start(&srv, &hook);
	cr_assert(hook.tick == srv_progress_tick);
	cr_assert_eq(hook.tick_ms, 5000);
	/* Not due yet: nothing is sent (there is no connection here).  */
	cr_assert_eq(srv_progress_tick(&srv), 0);

	memset(&hook, 0, sizeof(hook));
	srv.progress.off = 1;
	srv_progress_start(&srv, &hook);
	cr_assert_null(hook.tick);

	memset(&hook, 0, sizeof(hook));
	srv.progress.off = 0;
	srv.non_stop = 1;
	srv_progress_start(&srv, &hook);
	cr_assert_null(hook.tick);
}
