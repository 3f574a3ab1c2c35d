/* Which file `ptstub record -- PROG` runs: PROG found along PATH as
   execvp finds it, by ptstub itself, so that the recording starts at the
   program's own exec (no shell, no failed execs in the trace), and a
   program that cannot run is named with the reason before anything
   starts.  */
#include "rec/recorder.h"
#include "common/ps_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* execvp's PATH when there is none (glibc's confstr _CS_PATH).  */
#define REC_DEFAULT_PATH "/bin:/usr/bin"

/* Whether FILE is something execve could run: 0, or -errno as execve
   would fail (a directory: EACCES, said apart by the caller).  */
static int rec_runnable(const char *file)
{
	struct stat st;

	if (stat(file, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) || access(file, X_OK) < 0)
		return -EACCES;
	return 0;
}

static void rec_why(char *why, size_t len, const char *name, int err,
		    const char *path, const char *found)
{
	if (found && err == -EISDIR)
		snprintf(why, len, "%s: %s is a directory", name, found);
	else if (found)
		snprintf(why, len, "%s: %s is not executable (no execute "
			 "permission, or not a regular file)", name, found);
	else if (err == -ENOENT && !strchr(name, '/'))
		snprintf(why, len, "%s: not found in PATH (%s)", name, path);
	else if (err == -ENOENT)
		snprintf(why, len, "%s: no such file", name);
	else if (err == -EISDIR)
		snprintf(why, len, "%s: is a directory", name);
	else if (err == -EACCES)
		snprintf(why, len, "%s: not executable (no execute permission, "
			 "or not a regular file)", name);
	else
		snprintf(why, len, "%s: %s", name, strerror(-err));
}

int rec_find_program(const char *name, const char *path_env, char **file,
		     char *why, size_t why_len)
{
	const char *path = path_env ? path_env : REC_DEFAULT_PATH;
	int err = -ENOENT, seen_denied = 0;
	char *denied = NULL;

	*file = NULL;
	if (!*name) {
		snprintf(why, why_len, "an empty program name");
		return -ENOENT;
	}
	/* A name with a slash is a path: no search, as execvp.  */
	if (strchr(name, '/')) {
		err = rec_runnable(name);
		if (err == 0 && !(*file = strdup(name)))
			err = -ENOMEM;
		if (err < 0)
			rec_why(why, why_len, name, err, path, NULL);
		return err;
	}
	for (const char *dir = path;; ) {
		size_t dlen = strcspn(dir, ":");
		char *cand = malloc(dlen + strlen(name) + 3);
		int e;

		if (!cand)
			return -ENOMEM;
		/* An empty entry is the current directory, as execvp.  */
		if (dlen)
			sprintf(cand, "%.*s/%s", (int) dlen, dir, name);
		else
			sprintf(cand, "./%s", name);
		e = rec_runnable(cand);
		if (e == 0) {
			free(denied);
			*file = cand;
			return 0;
		}
		/* execvp goes on past one it may not run, and reports that
		   one if nothing else is found.  */
		if ((e == -EACCES || e == -EISDIR) && !denied) {
			seen_denied = e;
			denied = cand;
		} else {
			free(cand);
		}
		if (!dir[dlen])
			break;
		dir += dlen + 1;
	}
	if (seen_denied)
		err = seen_denied;
	rec_why(why, why_len, name, err, path, denied);
	free(denied);
	return err;
}

/* FILE's first bytes: "#!INTERP" or an ELF's PT_INTERP is what is
   missing when execve says ENOENT of a file that is there.  */
static void rec_missing_interp(const char *file, char *why, size_t len)
{
	char line[256];
	FILE *f = fopen(file, "r");
	size_t n;

	if (!f) {
		snprintf(why, len, "%s: %s", file, strerror(ENOENT));
		return;
	}
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	if (n > 2 && line[0] == '#' && line[1] == '!') {
		char *interp = line + 2;

		interp += strspn(interp, " \t");
		interp[strcspn(interp, " \t\n")] = '\0';
		snprintf(why, len, "%s: its interpreter %s (its #! line) was "
			 "not found", file, interp);
	} else if (n >= 4 && !memcmp(line, "\177ELF", 4)) {
		snprintf(why, len, "%s: its program interpreter (the dynamic "
			 "loader its ELF header names) was not found", file);
	} else {
		snprintf(why, len, "%s: %s", file, strerror(ENOENT));
	}
}

void rec_exec_error(const char *file, int err, char *why, size_t len)
{
	switch (err) {
	case ENOENT:
		rec_missing_interp(file, why, len);
		break;
	case ENOEXEC:
		snprintf(why, len, "%s: not a program the kernel can run (no "
			 "ELF header, no #! line; ptstub runs no shell)",
			 file);
		break;
	case EACCES:
		snprintf(why, len, "%s: not executable (%s)", file,
			 strerror(err));
		break;
	default:
		snprintf(why, len, "%s: %s", file, strerror(err));
	}
}
