#include "server/srv_osdata_sys.h"
#include "common/ps_error.h"
#include "nat/osdata.h"
#include "nat/osdata_sys.h"

#include <string.h>
#include <sys/socket.h>

/* Reset SCRATCH, let CALL fill it, and give its text ("" if none).  */
#define TEXT(scratch, call) \
	(ps_buf_reset(scratch), (call), (scratch)->len ? (scratch)->data : "")

struct cpus_state {
	struct ps_buf *out;
	int in_item;
};

static int cpus_row(void *ctx, const char *key, const char *value)
{
	struct cpus_state *st = ctx;
	struct ps_buf *out = st->out;

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
	struct cpus_state st = { .out = out };
	int err;

	ps_buf_puts(out, "<osdata type=\"cpus\">\n");
	err = osdata_read_cpuinfo(cpus_row, &st);
	if (st.in_item)
		ps_buf_puts(out, "</item>");
	return err ? err : ps_buf_puts(out, "</osdata>\n");
}

static int modules_row(void *ctx, const struct osdata_module *mod)
{
	struct ps_buf *out = ctx;

	ps_buf_puts(out, "<item>");
	srv_osdata_column(out, "name", mod->name);
	ps_buf_printf(out, "<column name=\"size\">%u</column>"
		      "<column name=\"num uses\">%d</column>", mod->size,
		      mod->uses);
	srv_osdata_column(out, "dependencies", mod->dependencies);
	srv_osdata_column(out, "status", mod->status);
	ps_buf_printf(out, "<column name=\"address\">%llx</column>",
		      mod->address);
	return ps_buf_puts(out, "</item>");
}

int srv_osdata_modules(struct ps_buf *out)
{
	int err;

	ps_buf_puts(out, "<osdata type=\"modules\">\n");
	err = osdata_read_modules(modules_row, out);
	return err ? err : ps_buf_puts(out, "</osdata>\n");
}

struct sockets_state {
	struct ps_buf *out;
	struct ps_buf user;
};

static int sockets_row(void *ctx, const struct osdata_socket *s,
		       int family, int tcp)
{
	struct sockets_state *st = ctx;
	struct ps_buf *out = st->out;

	ps_buf_puts(out, "<item>");
	srv_osdata_column(out, "local address", s->local_address);
	srv_osdata_column(out, "local port", s->local_port);
	srv_osdata_column(out, "remote address", s->remote_address);
	srv_osdata_column(out, "remote port", s->remote_port);
	srv_osdata_column(out, "state", osdata_socket_state(s->state));
	srv_osdata_column(out, "user", TEXT(&st->user,
					    osdata_user_name(s->uid, &st->user)));
	srv_osdata_column(out, "family", family == AF_INET ? "INET"
							       : "INET6");
	srv_osdata_column(out, "protocol", tcp ? "STREAM" : "DGRAM");
	return ps_buf_puts(out, "</item>");
}

int srv_osdata_sockets(struct ps_buf *out)
{
	struct sockets_state st = { .out = out };
	int err;

	ps_buf_init(&st.user);
	ps_buf_puts(out, "<osdata type=\"I sockets\">\n");
	err = osdata_read_sockets(sockets_row, &st);
	ps_buf_fini(&st.user);
	return err ? err : ps_buf_puts(out, "</osdata>\n");
}

/* The listing, and scratch texts for the IPC rows: owners, commands,
   times.  */
struct ipc_state {
	struct ps_buf *out;
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

static int shm_row(void *ctx, const struct osdata_shm *s)
{
	struct ps_buf *out = ((struct ipc_state *) ctx)->out;

	ps_buf_printf(out, "<item><column name=\"key\">%d</column>"
		      "<column name=\"shmid\">%d</column>"
		      "<column name=\"permissions\">%o</column>"
		      "<column name=\"size\">%d</column>", s->key, s->shmid,
		      s->perms, s->size);
	ipc_command(ctx, out, "creator command", s->cpid);
	ipc_command(ctx, out, "last op. command", s->lpid);
	ps_buf_printf(out, "<column name=\"num attached\">%d</column>",
		      s->nattch);
	ipc_owners(ctx, out, s->uid, s->gid, s->cuid, s->cgid);
	ipc_time(ctx, out, "last shmat() time", s->atime);
	ipc_time(ctx, out, "last shmdt() time", s->dtime);
	ipc_time(ctx, out, "last shmctl() time", s->ctime);
	return ps_buf_puts(out, "</item>");
}

static int sem_row(void *ctx, const struct osdata_sem *s)
{
	struct ps_buf *out = ((struct ipc_state *) ctx)->out;

	ps_buf_printf(out, "<item><column name=\"key\">%d</column>"
		      "<column name=\"semid\">%d</column>"
		      "<column name=\"permissions\">%o</column>"
		      "<column name=\"num semaphores\">%u</column>", s->key,
		      s->semid, s->perms, s->nsems);
	ipc_owners(ctx, out, (uid_t) s->uid, (gid_t) s->gid, (uid_t) s->cuid,
		   (gid_t) s->cgid);
	ipc_time(ctx, out, "last semop() time", s->otime);
	ipc_time(ctx, out, "last semctl() time", s->ctime);
	return ps_buf_puts(out, "</item>");
}

static int msg_row(void *ctx, const struct osdata_msg *m)
{
	struct ps_buf *out = ((struct ipc_state *) ctx)->out;

	ps_buf_printf(out, "<item><column name=\"key\">%d</column>"
		      "<column name=\"msqid\">%d</column>"
		      "<column name=\"permissions\">%o</column>"
		      "<column name=\"num used bytes\">%u</column>"
		      "<column name=\"num messages\">%u</column>", m->key,
		      m->msqid, m->perms, m->cbytes, m->qnum);
	ipc_command(ctx, out, "last msgsnd() command", m->lspid);
	ipc_command(ctx, out, "last msgrcv() command", m->lrpid);
	ipc_owners(ctx, out, (uid_t) m->uid, (gid_t) m->gid, (uid_t) m->cuid,
		   (gid_t) m->cgid);
	ipc_time(ctx, out, "last msgsnd() time", m->stime);
	ipc_time(ctx, out, "last msgrcv() time", m->rtime);
	ipc_time(ctx, out, "last msgctl() time", m->ctime);
	return ps_buf_puts(out, "</item>");
}

/* Open an IPC listing of TYPE on OUT, with its scratch texts.  */
static void ipc_begin(struct ipc_state *st, struct ps_buf *out,
		      const char *type)
{
	st->out = out;
	ipc_init(st);
	ps_buf_printf(out, "<osdata type=\"%s\">\n", type);
}

/* Close it after reading its rows, which ended with ERR.  */
static int ipc_end(struct ipc_state *st, int err)
{
	ipc_fini(st);
	return err ? err : ps_buf_puts(st->out, "</osdata>\n");
}

int srv_osdata_shm(struct ps_buf *out)
{
	struct ipc_state st;

	ipc_begin(&st, out, "shared memory");
	return ipc_end(&st, osdata_read_shm(shm_row, &st));
}

int srv_osdata_sem(struct ps_buf *out)
{
	struct ipc_state st;

	ipc_begin(&st, out, "semaphores");
	return ipc_end(&st, osdata_read_sem(sem_row, &st));
}

int srv_osdata_msg(struct ps_buf *out)
{
	struct ipc_state st;

	ipc_begin(&st, out, "message queues");
	return ipc_end(&st, osdata_read_msg(msg_row, &st));
}
