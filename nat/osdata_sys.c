#define _GNU_SOURCE
#include "nat/osdata_sys.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <arpa/inet.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

int osdata_cpuinfo_line(char *line, const char **key, const char **value)
{
	char *save = NULL, *k, *v;

	k = strtok_r(line, ":", &save);
	if (!k)
		return 0;
	v = strtok_r(NULL, ":", &save);
	if (!v)
		return 0;
	k[strcspn(k, "\t")] = '\0';
	v[strcspn(v, "\t")] = '\0';
	*key = k;
	*value = v;
	return 1;
}

int osdata_module_line(char *line, struct osdata_module *mod)
{
	char *save = NULL, *tok;

	mod->name = strtok_r(line, " ", &save);
	if (!mod->name)
		return 0;
	tok = strtok_r(NULL, " ", &save);
	if (!tok || sscanf(tok, "%u", &mod->size) != 1)
		return 0;
	tok = strtok_r(NULL, " ", &save);
	if (!tok || sscanf(tok, "%d", &mod->uses) != 1)
		return 0;
	mod->dependencies = strtok_r(NULL, " ", &save);
	if (!mod->dependencies)
		return 0;
	mod->status = strtok_r(NULL, " ", &save);
	if (!mod->status)
		return 0;
	tok = strtok_r(NULL, "\n", &save);
	return tok && sscanf(tok, "%llx", &mod->address) == 1;
}

const char *osdata_socket_state(unsigned state)
{
	static const char *const names[] = {
		NULL, "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1",
		"FIN_WAIT2", "TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK",
		"LISTEN", "CLOSING",
	};

	if (state < sizeof(names) / sizeof(names[0]) && names[state])
		return names[state];
	return "(unknown)";
}

int osdata_socket_line(const char *line, int family, int tcp,
		       struct osdata_socket *sock)
{
	char local[33], remote[33];
	unsigned lport, rport;
	struct sockaddr_storage la, ra;
	socklen_t len;
	int flags = NI_NUMERICHOST | NI_NUMERICSERV | (tcp ? 0 : NI_DGRAM);

	/* "sl: LOCAL:PORT REMOTE:PORT ST tx:rx tr:when retrnsmt UID ...",
	   addresses in hex as the kernel holds them (network order read
	   as host-order words).  */
	if (sscanf(line, "%*d: %32[0-9A-F]:%X %32[0-9A-F]:%X %X %*X:%*X "
		   "%*X:%*X %*X %u", local, &lport, remote, &rport,
		   &sock->state, &sock->uid) != 6)
		return 0;
	memset(&la, 0, sizeof(la));
	memset(&ra, 0, sizeof(ra));
	if (family == AF_INET) {
		struct sockaddr_in *l = (struct sockaddr_in *) &la;
		struct sockaddr_in *r = (struct sockaddr_in *) &ra;

		if (sscanf(local, "%X", &l->sin_addr.s_addr) != 1 ||
		    sscanf(remote, "%X", &r->sin_addr.s_addr) != 1)
			return 0;
		l->sin_family = r->sin_family = AF_INET;
		l->sin_port = htons((uint16_t) lport);
		r->sin_port = htons((uint16_t) rport);
		len = sizeof(struct sockaddr_in);
	} else {
		struct sockaddr_in6 *l = (struct sockaddr_in6 *) &la;
		struct sockaddr_in6 *r = (struct sockaddr_in6 *) &ra;
		uint32_t *lw = l->sin6_addr.s6_addr32;
		uint32_t *rw = r->sin6_addr.s6_addr32;

		if (sscanf(local, "%8X%8X%8X%8X", &lw[0], &lw[1], &lw[2],
			   &lw[3]) != 4 ||
		    sscanf(remote, "%8X%8X%8X%8X", &rw[0], &rw[1], &rw[2],
			   &rw[3]) != 4)
			return 0;
		l->sin6_family = r->sin6_family = AF_INET6;
		l->sin6_port = htons((uint16_t) lport);
		r->sin6_port = htons((uint16_t) rport);
		len = sizeof(struct sockaddr_in6);
	}
	if (getnameinfo((struct sockaddr *) &la, len, sock->local_address,
			sizeof(sock->local_address), sock->local_port,
			sizeof(sock->local_port), flags) != 0 ||
	    getnameinfo((struct sockaddr *) &ra, len, sock->remote_address,
			sizeof(sock->remote_address), sock->remote_port,
			sizeof(sock->remote_port), flags) != 0)
		return 0;
	return 1;
}

int osdata_shm_line(const char *line, struct osdata_shm *s)
{
	return sscanf(line, "%d %d %o %d %lld %lld %d %u %u %u %u %lld %lld "
		      "%lld", &s->key, &s->shmid, &s->perms, &s->size,
		      &s->cpid, &s->lpid, &s->nattch, &s->uid, &s->gid,
		      &s->cuid, &s->cgid, &s->atime, &s->dtime,
		      &s->ctime) == 14;
}

int osdata_sem_line(const char *line, struct osdata_sem *s)
{
	return sscanf(line, "%d %d %o %u %d %d %d %d %lld %lld", &s->key,
		      &s->semid, &s->perms, &s->nsems, &s->uid, &s->gid,
		      &s->cuid, &s->cgid, &s->otime, &s->ctime) == 10;
}

int osdata_msg_line(const char *line, struct osdata_msg *m)
{
	return sscanf(line, "%d %d %o %u %u %lld %lld %d %d %d %d %lld %lld "
		      "%lld", &m->key, &m->msqid, &m->perms, &m->cbytes,
		      &m->qnum, &m->lspid, &m->lrpid, &m->uid, &m->gid,
		      &m->cuid, &m->cgid, &m->stime, &m->rtime,
		      &m->ctime) == 14;
}

int osdata_user_name(uid_t uid, struct ps_buf *out)
{
	struct passwd pwd, *entry = NULL;
	char buf[1024];

	if (getpwuid_r(uid, &pwd, buf, sizeof(buf), &entry) != 0 || !entry)
		return 0;
	return ps_buf_puts(out, entry->pw_name);
}

int osdata_group_name(gid_t gid, struct ps_buf *out)
{
	struct group grp, *entry = NULL;
	char buf[4096];

	if (getgrgid_r(gid, &grp, buf, sizeof(buf), &entry) != 0 || !entry)
		return 0;
	return ps_buf_puts(out, entry->gr_name);
}

int osdata_time(long long seconds, struct ps_buf *out)
{
	char buf[32];
	time_t t = (time_t) seconds;

	if (!seconds)
		return 0;
	if (!ctime_r(&t, buf))
		return -pse_invalid;
	return ps_buf_puts(out, buf);
}

/* A reader's callback and context, for the row parser of its file.  */
struct osdata_reader {
	void *ctx;
	int family, tcp;
	union {
		int (*cpuinfo)(void *ctx, const char *key, const char *value);
		int (*module)(void *ctx, const struct osdata_module *mod);
		int (*socket)(void *ctx, const struct osdata_socket *sock,
			      int family, int tcp);
		int (*shm)(void *ctx, const struct osdata_shm *shm);
		int (*sem)(void *ctx, const struct osdata_sem *sem);
		int (*msg)(void *ctx, const struct osdata_msg *msg);
	} each;
};

/* Each line of the file PATH, to LINE(R, line); a file that cannot be
   opened has none.  */
static int osdata_for_each_line(const char *path, struct osdata_reader *r,
				int (*line)(struct osdata_reader *r,
					    char *text))
{
	char buf[8192];
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return 0;
	while (!err && fgets(buf, sizeof(buf), f))
		err = line(r, buf);
	fclose(f);
	return err;
}

static int cpuinfo_row(struct osdata_reader *r, char *text)
{
	const char *key, *value;

	if (!osdata_cpuinfo_line(text, &key, &value))
		return 0;
	return r->each.cpuinfo(r->ctx, key, value);
}

int osdata_read_cpuinfo(int (*each)(void *ctx, const char *key,
				    const char *value), void *ctx)
{
	struct osdata_reader r = { .ctx = ctx, .each.cpuinfo = each };

	return osdata_for_each_line("/proc/cpuinfo", &r, cpuinfo_row);
}

static int module_row(struct osdata_reader *r, char *text)
{
	struct osdata_module mod;

	if (!osdata_module_line(text, &mod))
		return 0;
	return r->each.module(r->ctx, &mod);
}

int osdata_read_modules(int (*each)(void *ctx,
				    const struct osdata_module *mod),
			void *ctx)
{
	struct osdata_reader r = { .ctx = ctx, .each.module = each };

	return osdata_for_each_line("/proc/modules", &r, module_row);
}

static int socket_row(struct osdata_reader *r, char *text)
{
	struct osdata_socket sock;

	if (!osdata_socket_line(text, r->family, r->tcp, &sock))
		return 0;
	return r->each.socket(r->ctx, &sock, r->family, r->tcp);
}

int osdata_read_sockets(int (*each)(void *ctx,
				    const struct osdata_socket *sock,
				    int family, int tcp), void *ctx)
{
	static const struct { const char *path; int family, tcp; } files[] = {
		{ "/proc/net/tcp", AF_INET, 1 }, { "/proc/net/udp", AF_INET, 0 },
		{ "/proc/net/tcp6", AF_INET6, 1 },
		{ "/proc/net/udp6", AF_INET6, 0 },
	};
	struct osdata_reader r = { .ctx = ctx, .each.socket = each };
	int err = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && !err; i++) {
		r.family = files[i].family;
		r.tcp = files[i].tcp;
		err = osdata_for_each_line(files[i].path, &r, socket_row);
	}
	return err;
}

static int shm_row(struct osdata_reader *r, char *text)
{
	struct osdata_shm shm;

	return osdata_shm_line(text, &shm) ? r->each.shm(r->ctx, &shm) : 0;
}

int osdata_read_shm(int (*each)(void *ctx, const struct osdata_shm *shm),
		    void *ctx)
{
	struct osdata_reader r = { .ctx = ctx, .each.shm = each };

	return osdata_for_each_line("/proc/sysvipc/shm", &r, shm_row);
}

static int sem_row(struct osdata_reader *r, char *text)
{
	struct osdata_sem sem;

	return osdata_sem_line(text, &sem) ? r->each.sem(r->ctx, &sem) : 0;
}

int osdata_read_sem(int (*each)(void *ctx, const struct osdata_sem *sem),
		    void *ctx)
{
	struct osdata_reader r = { .ctx = ctx, .each.sem = each };

	return osdata_for_each_line("/proc/sysvipc/sem", &r, sem_row);
}

static int msg_row(struct osdata_reader *r, char *text)
{
	struct osdata_msg msg;

	return osdata_msg_line(text, &msg) ? r->each.msg(r->ctx, &msg) : 0;
}

int osdata_read_msg(int (*each)(void *ctx, const struct osdata_msg *msg),
		    void *ctx)
{
	struct osdata_reader r = { .ctx = ctx, .each.msg = each };

	return osdata_for_each_line("/proc/sysvipc/msg", &r, msg_row);
}
