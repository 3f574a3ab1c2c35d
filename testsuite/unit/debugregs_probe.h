/* Skip a test that needs hardware breakpoints or watchpoints where the
   machine ignores debug registers (testsuite/programs/debugregs_probe.c
   tells, with its reason).  */
#ifndef DEBUGREGS_PROBE_H
#define DEBUGREGS_PROBE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static inline void debugregs_skip_unless_they_trap(void)
{
	const char *top = getenv("top_builddir");
	char cmd[4096], line[256] = "";
	size_t n = 0;
	FILE *probe;
	int status;

	/* popen runs a shell: the path is single-quoted (the build may sit
	   in a folder whose name holds spaces or quotes).  */
	cmd[n++] = '\'';
	for (const char *c = top ? top : "."; *c && n < sizeof(cmd) - 64; c++)
		if (*c == '\'') {
			memcpy(cmd + n, "'\\''", 4);
			n += 4;
		} else {
			cmd[n++] = *c;
		}
	snprintf(cmd + n, sizeof(cmd) - n,
		 "/testsuite/programs/bin/debugregs_probe'");
	probe = popen(cmd, "r");
	cr_assert_not_null(probe, "cannot run %s", cmd);
	if (!fgets(line, sizeof(line), probe))
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	status = pclose(probe);
	cr_assert(WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
					WEXITSTATUS(status) == 77),
		  "%s failed: %s", cmd, line);
	if (WEXITSTATUS(status) == 77)
		cr_skip_test("debug registers %s", line);
}

#endif
