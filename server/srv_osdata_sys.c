#include "server/srv_osdata_sys.h"
#include "common/ps_error.h"
#include "nat/osdata.h"
#include "nat/osdata_sys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* Each line of the file PATH, to LINE(CTX, line, OUT); a file that
   cannot be opened lists nothing, as with gdbserver.  */
static int for_each_line(const char *path, struct ps_buf *out, void *ctx,
			 int (*line)(void *ctx, char *text, struct ps_buf *out))
{
	char buf[8192];
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return 0;
	while (!err && fgets(buf, sizeof(buf), f))
		err = line(ctx, buf, out);
	fclose(f);
	return err;
}

/* Reset SCRATCH, let CALL fill it, and give its text ("" if none).  */
#define TEXT(scratch, call) \
	(ps_buf_reset(scratch), (call), (scratch)->len ? (scratch)->data : "")

struct cpus_state {
	int in_item;
};

static int cpus_line(void *ctx, char *text, struct ps_buf *out)
{
	struct cpus_state *st = ctx;
	const char *key, *value;

	if (!osdata_cpuinfo_line(text, &key, &value))
		return 0;
	/* A "processor" line starts each CPU's item.  */
	if (!strcmp(key, "processor")) {
		ps_buf_puts(out, st->in_item ? "</item><item>" : "<item>");
		st->in_item = 1;
	}
	srv_osdata_column(out, key, value);
	return 0;
}

int srv_osdata_cpus(struct ps_buf *out)
{
	struct cpus_state st = { 0 };
	int err;

	ps_buf_puts(out, "<osdata type=\"cpus\">\n");
	err = for_each_line("/proc/cpuinfo", out, &st, cpus_line);
	if (st.in_item)
		ps_buf_puts(out, "</item>");
	return err ? err : ps_buf_puts(out, "</osdata>\n");
}

static int modules_line(void *ctx, char *text, struct ps_buf *out)
{
	struct osdata_module mod;

	(void) ctx;
	if (!osdata_module_line(text, &mod))
		return 0;
	ps_buf_puts(out, "<item>");
	srv_osdata_column(out, "name", mod.name);
	ps_buf_printf(out, "<column name=\"size\">%u</column>"
		      "<column name=\"num uses\">%d</column>", mod.size,
		      mod.uses);
	srv_osdata_column(out, "dependencies", mod.dependencies);
	srv_osdata_column(out, "status", mod.status);
	ps_buf_printf(out, "<column name=\"address\">%llx</column>",
		      mod.address);
	return ps_buf_puts(out, "</item>");
}

int srv_osdata_modules(struct ps_buf *out)
{
	int err;

	ps_buf_puts(out, "<osdata type=\"modules\">\n");
	err = for_each_line("/proc/modules", out, NULL, modules_line);
	return err ? err : ps_buf_puts(out, "</osdata>\n");
}

struct sockets_state {
	int family, tcp;
	struct ps_buf user;
};

static int sockets_line(void *ctx, char *text, struct ps_buf *out)
{
	struct sockets_state *st = ctx;
	struct osdata_socket s;

	if (!osdata_socket_line(text, st->family, st->tcp, &s))
		return 0;
	ps_buf_puts(out, "<item>");
	srv_osdata_column(out, "local address", s.local_address);
	srv_osdata_column(out, "local port", s.local_port);
	srv_osdata_column(out, "remote address", s.remote_address);
	srv_osdata_column(out, "remote port", s.remote_port);
	srv_osdata_column(out, "state", osdata_socket_state(s.state));
	srv_osdata_column(out, "user", TEXT(&st->user,
					    osdata_user_name(s.uid, &st->user)));
	srv_osdata_column(out, "family", st->family == AF_INET ? "INET"
							       : "INET6");
	srv_osdata_column(out, "protocol", st->tcp ? "STREAM" : "DGRAM");
	return ps_buf_puts(out, "</item>");
}

int srv_osdata_sockets(struct ps_buf *out)
{
	static const struct { const char *path; int family, tcp; } files[] = {
		{ "/proc/net/tcp", AF_INET, 1 }, { "/proc/net/udp", AF_INET, 0 },
		{ "/proc/net/tcp6", AF_INET6, 1 },
		{ "/proc/net/udp6", AF_INET6, 0 },
	};
	struct sockets_state st;
	int err = 0;

	ps_buf_init(&st.user);
	ps_buf_puts(out, "<osdata type=\"I sockets\">\n");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && !err; i++) {
		st.family = files[i].family;
		st.tcp = files[i].tcp;
		err = for_each_line(files[i].path, out, &st, sockets_line);
	}
	ps_buf_fini(&st.user);
	return err ? err : ps_buf_puts(out, "</osdata>\n");
}

/* Scratch texts for the IPC rows: owners, commands, times.  */
struct ipc_state {
	struct ps_buf t[6];
};

static void ipc_init(struct ipc_state *st)
{
	for (int i = 0; i < 6; i++)
		ps_buf_init(&st->t[i]);
}

static void ipc_fini(struct ipc_state *st)
{
	for (int i = 0; i < 6; i++)
		ps_buf_fini(&st->t[i]);
}

static void ipc_owners(struct ipc_state *st, struct ps_buf *out, uid_t uid,
		       gid_t gid, uid_t cuid, gid_t cgid)
{
	srv_osdata_column(out, "user", TEXT(&st->t[0],
		osdata_user_name(uid, &st->t[0])));
	srv_osdata_column(out, "group", TEXT(&st->t[0],
		osdata_group_name(gid, &st->t[0])));
	srv_osdata_column(out, "creator user", TEXT(&st->t[0],
		osdata_user_name(cuid, &st->t[0])));
	srv_osdata_column(out, "creator group", TEXT(&st->t[0],
		osdata_group_name(cgid, &st->t[0])));
}

static void ipc_time(struct ipc_state *st, struct ps_buf *out,
		     const char *name, long long seconds)
{
	srv_osdata_column(out, name, TEXT(&st->t[1],
		osdata_time(seconds, &st->t[1])));
}

static void ipc_command(struct ipc_state *st, struct ps_buf *out,
			const char *name, long long pid)
{
	srv_osdata_column(out, name, TEXT(&st->t[2],
		osdata_command((pid_t) pid, &st->t[2])));
}

static int shm_line(void *ctx, char *text, struct ps_buf *out)
{
	struct osdata_shm s;

	if (!osdata_shm_line(text, &s))
		return 0;
	ps_buf_printf(out, "<item><column name=\"key\">%d</column>"
		      "<column name=\"shmid\">%d</column>"
		      "<column name=\"permissions\">%o</column>"
		      "<column name=\"size\">%d</column>", s.key, s.shmid,
		      s.perms, s.size);
	ipc_command(ctx, out, "creator command", s.cpid);
	ipc_command(ctx, out, "last op. command", s.lpid);
	ps_buf_printf(out, "<column name=\"num attached\">%d</column>",
		      s.nattch);
	ipc_owners(ctx, out, s.uid, s.gid, s.cuid, s.cgid);
	ipc_time(ctx, out, "last shmat() time", s.atime);
	ipc_time(ctx, out, "last shmdt() time", s.dtime);
	ipc_time(ctx, out, "last shmctl() time", s.ctime);
	return ps_buf_puts(out, "</item>");
}

static int sem_line(void *ctx, char *text, struct ps_buf *out)
{
	struct osdata_sem s;

	if (!osdata_sem_line(text, &s))
		return 0;
	ps_buf_printf(out, "<item><column name=\"key\">%d</column>"
		      "<column name=\"semid\">%d</column>"
		      "<column name=\"permissions\">%o</column>"
		      "<column name=\"num semaphores\">%u</column>", s.key,
		      s.semid, s.perms, s.nsems);
	ipc_owners(ctx, out, (uid_t) s.uid, (gid_t) s.gid, (uid_t) s.cuid,
		   (gid_t) s.cgid);
	ipc_time(ctx, out, "last semop() time", s.otime);
	ipc_time(ctx, out, "last semctl() time", s.ctime);
	return ps_buf_puts(out, "</item>");
}

static int msg_line(void *ctx, char *text, struct ps_buf *out)
{
	struct osdata_msg m;

	if (!osdata_msg_line(text, &m))
		return 0;
	ps_buf_printf(out, "<item><column name=\"key\">%d</column>"
		      "<column name=\"msqid\">%d</column>"
		      "<column name=\"permissions\">%o</column>"
		      "<column name=\"num used bytes\">%u</column>"
		      "<column name=\"num messages\">%u</column>", m.key,
		      m.msqid, m.perms, m.cbytes, m.qnum);
	ipc_command(ctx, out, "last msgsnd() command", m.lspid);
	ipc_command(ctx, out, "last msgrcv() command", m.lrpid);
	ipc_owners(ctx, out, (uid_t) m.uid, (gid_t) m.gid, (uid_t) m.cuid,
		   (gid_t) m.cgid);
	ipc_time(ctx, out, "last msgsnd() time", m.stime);
	ipc_time(ctx, out, "last msgrcv() time", m.rtime);
	ipc_time(ctx, out, "last msgctl() time", m.ctime);
	return ps_buf_puts(out, "</item>");
}

static int ipc_listing(struct ps_buf *out, const char *type, const char *path,
		       int (*line)(void *ctx, char *text, struct ps_buf *out))
{
	struct ipc_state st;
	int err;

	ipc_init(&st);
	ps_buf_printf(out, "<osdata type=\"%s\">\n", type);
	err = for_each_line(path, out, &st, line);
	ipc_fini(&st);
	return err ? err : ps_buf_puts(out, "</osdata>\n");
}

int srv_osdata_shm(struct ps_buf *out)
{
	return ipc_listing(out, "shared memory", "/proc/sysvipc/shm", shm_line);
}

int srv_osdata_sem(struct ps_buf *out)
{
	return ipc_listing(out, "semaphores", "/proc/sysvipc/sem", sem_line);
}

int srv_osdata_msg(struct ps_buf *out)
{
	return ipc_listing(out, "message queues", "/proc/sysvipc/msg",
			   msg_line);
}
