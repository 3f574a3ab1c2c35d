#include "server/srv_osdata.h"
#include "server/srv_osdata_sys.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"
#include "nat/osdata.h"
#include "nat/procinfo.h"

#include <stdlib.h>
#include <string.h>

#define put_column srv_osdata_column

static void put_column_int(struct ps_buf *out, const char *name, long value)
{
	ps_buf_printf(out, "<column name=\"%s\">%ld</column>", name, value);
}

static int osdata_processes(struct ps_buf *out)
{
	struct osdata_pids pids;
	struct ps_buf user, cmd, cores;
	int err;

	osdata_pids_init(&pids);
	ps_buf_init(&user);
	ps_buf_init(&cmd);
	ps_buf_init(&cores);
	err = osdata_pids_read(&pids, NULL);
	ps_buf_puts(out, "<osdata type=\"processes\">\n");
	for (size_t i = 0; i < pids.count && !err; i++) {
		pid_t pid = pids.pids[i];

		ps_buf_reset(&user);
		ps_buf_reset(&cmd);
		ps_buf_reset(&cores);
		/* A process that exits meanwhile is simply not listed.  */
		if (osdata_command_line(pid, &cmd) < 0)
			continue;
		osdata_user(pid, &user);
		osdata_cores(pid, &cores);
		ps_buf_puts(out, "<item>");
		put_column_int(out, "pid", pid);
		put_column(out, "user", user.len ? user.data : "");
		put_column(out, "command", cmd.data);
		put_column(out, "cores", cores.len ? cores.data : "");
		err = ps_buf_puts(out, "</item>");
	}
	if (!err)
		err = ps_buf_puts(out, "</osdata>\n");
	ps_buf_fini(&cores);
	ps_buf_fini(&cmd);
	ps_buf_fini(&user);
	osdata_pids_fini(&pids);
	return err;
}

struct pid_pgid {
	pid_t pid, pgid;
};

/* By group; within one its leader first, then by pid, as gdbserver
   lists them.  */
static int pid_pgid_cmp(const void *a, const void *b)
{
	const struct pid_pgid *x = a, *y = b;
	int xl = x->pid == x->pgid, yl = y->pid == y->pgid;

	if (x->pgid != y->pgid)
		return x->pgid < y->pgid ? -1 : 1;
	if (xl != yl)
		return xl ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int osdata_procgroups(struct ps_buf *out)
{
	struct osdata_pids pids;
	struct pid_pgid *list = NULL;
	struct ps_buf leader, cmd;
	size_t n = 0;
	int err;

	osdata_pids_init(&pids);
	ps_buf_init(&leader);
	ps_buf_init(&cmd);
	err = osdata_pids_read(&pids, NULL);
	if (!err && pids.count) {
		list = calloc(pids.count, sizeof(*list));
		if (!list)
			err = -pse_nomem;
	}
	for (size_t i = 0; i < pids.count && !err; i++) {
		pid_t pgid;

		if (osdata_pgid(pids.pids[i], &pgid) == 0 && pgid > 0) {
			list[n].pid = pids.pids[i];
			list[n++].pgid = pgid;
		}
	}
	if (n)
		qsort(list, n, sizeof(*list), pid_pgid_cmp);
	ps_buf_puts(out, "<osdata type=\"process groups\">\n");
	for (size_t i = 0; i < n && !err; i++) {
		ps_buf_reset(&leader);
		ps_buf_reset(&cmd);
		osdata_command(list[i].pgid, &leader);
		if (osdata_command_line(list[i].pid, &cmd) < 0)
			continue;
		ps_buf_puts(out, "<item>");
		put_column_int(out, "pgid", list[i].pgid);
		put_column(out, "leader command", leader.len ? leader.data : "");
		put_column_int(out, "pid", list[i].pid);
		put_column(out, "command line", cmd.data);
		err = ps_buf_puts(out, "</item>");
	}
	if (!err)
		err = ps_buf_puts(out, "</osdata>\n");
	free(list);
	ps_buf_fini(&cmd);
	ps_buf_fini(&leader);
	osdata_pids_fini(&pids);
	return err;
}

static int osdata_threads(struct ps_buf *out)
{
	struct osdata_pids pids;
	struct procinfo_tids tids;
	struct ps_buf cmd;
	int err;

	osdata_pids_init(&pids);
	procinfo_tids_init(&tids);
	ps_buf_init(&cmd);
	err = osdata_pids_read(&pids, NULL);
	ps_buf_puts(out, "<osdata type=\"threads\">\n");
	for (size_t i = 0; i < pids.count && !err; i++) {
		pid_t pid = pids.pids[i];

		ps_buf_reset(&cmd);
		if (osdata_command(pid, &cmd) < 0 ||
		    procinfo_threads(pid, &tids) < 0)
			continue;
		for (size_t j = 0; j < tids.count && !err; j++) {
			ps_buf_puts(out, "<item>");
			put_column_int(out, "pid", pid);
			put_column(out, "command", cmd.data);
			put_column_int(out, "tid", tids.tids[j]);
			put_column_int(out, "core",
				       procinfo_thread_core(pid, tids.tids[j]));
			err = ps_buf_puts(out, "</item>");
		}
	}
	if (!err)
		err = ps_buf_puts(out, "</osdata>\n");
	ps_buf_fini(&cmd);
	procinfo_tids_fini(&tids);
	osdata_pids_fini(&pids);
	return err;
}

static int osdata_files(struct ps_buf *out)
{
	struct osdata_pids pids, fds;
	struct ps_buf cmd, name;
	int err;

	osdata_pids_init(&pids);
	osdata_pids_init(&fds);
	ps_buf_init(&cmd);
	ps_buf_init(&name);
	err = osdata_pids_read(&pids, NULL);
	ps_buf_puts(out, "<osdata type=\"files\">\n");
	for (size_t i = 0; i < pids.count && !err; i++) {
		pid_t pid = pids.pids[i];

		ps_buf_reset(&cmd);
		if (osdata_command(pid, &cmd) < 0 ||
		    osdata_fds_read(pid, &fds) < 0)
			continue;
		for (size_t j = 0; j < fds.count && !err; j++) {
			ps_buf_reset(&name);
			osdata_fd_name(pid, fds.pids[j], &name);
			ps_buf_puts(out, "<item>");
			put_column_int(out, "pid", pid);
			put_column(out, "command", cmd.data);
			put_column_int(out, "file descriptor", fds.pids[j]);
			put_column(out, "name", name.data);
			err = ps_buf_puts(out, "</item>");
		}
	}
	if (!err)
		err = ps_buf_puts(out, "</osdata>\n");
	ps_buf_fini(&name);
	ps_buf_fini(&cmd);
	osdata_pids_fini(&fds);
	osdata_pids_fini(&pids);
	return err;
}

static const struct {
	const char *type, *title, *description;
	int (*build)(struct ps_buf *out);
} osdata_types[] = {
	/* gdbserver's types, titles and descriptions: GDB shows them.  */
	{ "cpus", "CPUs", "Listing of all cpus/cores on the system",
	  srv_osdata_cpus },
	{ "files", "File descriptors", "Listing of all file descriptors",
	  osdata_files },
	{ "modules", "Kernel modules", "Listing of all loaded kernel modules",
	  srv_osdata_modules },
	{ "msg", "Message queues", "Listing of all message queues",
	  srv_osdata_msg },
	{ "processes", "Processes", "Listing of all processes",
	  osdata_processes },
	{ "procgroups", "Process groups", "Listing of all process groups",
	  osdata_procgroups },
	{ "semaphores", "Semaphores", "Listing of all semaphores",
	  srv_osdata_sem },
	{ "shm", "Shared-memory regions", "Listing of all shared-memory regions",
	  srv_osdata_shm },
	{ "sockets", "Sockets", "Listing of all internet-domain sockets",
	  srv_osdata_sockets },
	{ "threads", "Threads", "Listing of all threads", osdata_threads },
};

#define NTYPES (sizeof(osdata_types) / sizeof(osdata_types[0]))

int srv_osdata_xml(const char *type, struct ps_buf *out)
{
	if (!*type || !strcmp(type, "types")) {
		ps_buf_puts(out, "<osdata type=\"types\">\n");
		for (size_t i = 0; i < NTYPES; i++) {
			ps_buf_puts(out, "<item>");
			put_column(out, "Type", osdata_types[i].type);
			put_column(out, "Description", osdata_types[i].description);
			put_column(out, "Title", osdata_types[i].title);
			ps_buf_puts(out, "</item>");
		}
		return ps_buf_puts(out, "</osdata>\n");
	}
	for (size_t i = 0; i < NTYPES; i++)
		if (!strcmp(type, osdata_types[i].type))
			return osdata_types[i].build(out);
	return 0;
}
