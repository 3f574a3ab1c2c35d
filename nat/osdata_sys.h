/* The system tables GDB's `info os` lists besides processes: cpus
   (/proc/cpuinfo), kernel modules (/proc/modules), internet sockets
   (/proc/net/{tcp,udp}{,6}) and System V IPC objects (/proc/sysvipc/).
   Each parser takes one line of its file and says whether it is a row,
   so a line gdbserver would skip is skipped here too; each reader
   parses its whole file, so the server only formats the rows.  */
#ifndef NAT_OSDATA_SYS_H
#define NAT_OSDATA_SYS_H

#include <netdb.h>
#include <stdint.h>
#include <sys/types.h>

struct ps_buf;

/* One "key<TAB>: value" line of /proc/cpuinfo, split in place as
   gdbserver splits it: KEY up to its first tab, VALUE from after the
   first ':' up to the next ':' or tab (its leading blank and newline
   kept).  1 for a column, 0 for a line that is none.  */
int osdata_cpuinfo_line(char *line, const char **key, const char **value);

struct osdata_module {
	const char *name, *dependencies, *status;
	unsigned size;
	int uses;
	unsigned long long address;
};

/* One line of /proc/modules, split in place: 1 for a module, 0 not.  */
int osdata_module_line(char *line, struct osdata_module *mod);

struct osdata_socket {
	char local_address[NI_MAXHOST], local_port[NI_MAXSERV];
	char remote_address[NI_MAXHOST], remote_port[NI_MAXSERV];
	unsigned state;
	uid_t uid;
};

/* One line of /proc/net/tcp (FAMILY AF_INET or AF_INET6, TCP 1) or udp
   (TCP 0), addresses and ports in numeric form: 1 for a socket, 0 for
   the header or a line that is none.  */
int osdata_socket_line(const char *line, int family, int tcp,
		       struct osdata_socket *sock);

/* The TCP state's name as the kernel's tcp_states.h names it, or
   "(unknown)".  */
const char *osdata_socket_state(unsigned state);

struct osdata_shm {
	int key, shmid, size, nattch;
	unsigned perms;
	long long cpid, lpid, atime, dtime, ctime;
	unsigned uid, gid, cuid, cgid;
};

struct osdata_sem {
	int key, semid;
	unsigned perms, nsems;
	int uid, gid, cuid, cgid;
	long long otime, ctime;
};

struct osdata_msg {
	int key, msqid;
	unsigned perms, cbytes, qnum;
	long long lspid, lrpid, stime, rtime, ctime;
	int uid, gid, cuid, cgid;
};

/* One line of /proc/sysvipc/shm, sem or msg: 1 for an object, 0 for the
   header.  */
int osdata_shm_line(const char *line, struct osdata_shm *shm);
int osdata_sem_line(const char *line, struct osdata_sem *sem);
int osdata_msg_line(const char *line, struct osdata_msg *msg);

/* Readers: each row of a table, parsed, to EACH with CTX, in the file's
   order.  A file that cannot be opened has no rows, as with gdbserver.
   A nonzero return of EACH stops the reading and is returned.  */
int osdata_read_cpuinfo(int (*each)(void *ctx, const char *key,
				    const char *value), void *ctx);
int osdata_read_modules(int (*each)(void *ctx,
				    const struct osdata_module *mod),
			void *ctx);
/* /proc/net/tcp, udp, tcp6 and udp6 in turn; FAMILY AF_INET or
   AF_INET6, TCP 1 for tcp.  */
int osdata_read_sockets(int (*each)(void *ctx,
				    const struct osdata_socket *sock,
				    int family, int tcp), void *ctx);
int osdata_read_shm(int (*each)(void *ctx, const struct osdata_shm *shm),
		    void *ctx);
int osdata_read_sem(int (*each)(void *ctx, const struct osdata_sem *sem),
		    void *ctx);
int osdata_read_msg(int (*each)(void *ctx, const struct osdata_msg *msg),
		    void *ctx);

/* Append the name of user UID or group GID ("" for none).  */
int osdata_user_name(uid_t uid, struct ps_buf *out);
int osdata_group_name(gid_t gid, struct ps_buf *out);

/* Append SECONDS as ctime(3) writes it, newline included, as gdbserver
   lists times; "" for 0 (never).  */
int osdata_time(long long seconds, struct ps_buf *out);

#endif
