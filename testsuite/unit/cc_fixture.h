/* What the code-cache engine's tests share: the engine's configuration,
   running a traced process until the engine reports a stop, and
   counting the lines of its map that name the cache's mappings.  */
#ifndef CC_FIXTURE_H
#define CC_FIXTURE_H

#include "nat/emu/cc_inject.h"
#include "testsuite/emu/emu_driver.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static const struct emu_config cache_engine = { .engine = emu_engine_cache };

/* Run the process until the engine reports a stop; its status.  */
static inline int cc_fx_run_to_report(struct emu *emu, pid_t pid, int sig)
{
	enum emu_resume how;
	enum emu_verdict verdict;
	int status;

	cr_assert_eq(emu_prepare(emu, pid, sig, false, &how), 0);
	for (;;) {
		ptrace(emu_ptrace_request(how), pid, 0, 0);
		cr_assert_eq(waitpid(pid, &status, __WALL), pid);
		cr_assert_eq(emu_on_stop(emu, pid, status, &verdict, &how), 0);
		if (verdict == emu_report)
			return status;
	}
}

/* How many of PID's mappings are the engine's memfd named WHAT
   (CC_MAP_NAME(...); CC_MAP_NAME("") for any of them).  The mapping's
   path is compared from its start: the program's own paths (the
   folder the project sits in) may contain the same words.  */
static inline int cc_fx_maps_count(pid_t pid, const char *what)
{
	char path[64], line[4096], prefix[256];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int) pid);
	snprintf(prefix, sizeof(prefix), "/memfd:%s", what);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *name = strchr(line, '/');

		n += name && strncmp(name, prefix, strlen(prefix)) == 0;
	}
	fclose(f);
	return n;
}

#endif
