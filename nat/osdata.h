/* The system-wide facts GDB's `info os` lists (qXfer:osdata:read), read
   from /proc as gdbserver reads them: every process, its owner, its
   command line, its process group and the cores its threads last ran
   on.  A process can exit while it is listed: each reader then fails
   with -pse_noproc and the caller skips it.  */
#ifndef NAT_OSDATA_H
#define NAT_OSDATA_H

#include <stddef.h>
#include <sys/types.h>

struct ps_buf;

/* The processes in /proc now, ascending.  */
struct osdata_pids {
	pid_t *pids;
	size_t count;
	size_t cap;
};

void osdata_pids_init(struct osdata_pids *list);
void osdata_pids_fini(struct osdata_pids *list);

/* Replace LIST's contents with the processes /proc lists (PROC_DIR:
   NULL for "/proc", another folder for tests).  */
int osdata_pids_read(struct osdata_pids *list, const char *proc_dir);

/* PID's open file descriptors, ascending (in a pid list).  */
int osdata_fds_read(pid_t pid, struct osdata_pids *fds);

/* Append what descriptor FD of PID names (its /proc link), or FD's
   number when that cannot be read.  */
int osdata_fd_name(pid_t pid, int fd, struct ps_buf *out);

/* Append PID's command line, each argument followed by a blank; for a
   process without one (a kernel thread, a zombie) its name in brackets,
   "[kthreadd]", as gdbserver does.  */
int osdata_command_line(pid_t pid, struct ps_buf *out);

/* Append PID's name (the comm in /proc/PID/stat).  */
int osdata_command(pid_t pid, struct ps_buf *out);

/* Append the name of PID's owner: its user name, "" for a uid without
   one, "?" when the owner cannot be told.  Never fails on a live
   process.  */
int osdata_user(pid_t pid, struct ps_buf *out);

/* PID's process group.  */
int osdata_pgid(pid_t pid, pid_t *pgid);

/* Append the cores PID's threads last ran on, ascending and without
   repeats, comma-separated ("0,1"); "" when none can be told.  */
int osdata_cores(pid_t pid, struct ps_buf *out);

#endif
