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
