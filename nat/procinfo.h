/* Small readers of /proc for what the server reports about a process:
   its executable (qXfer:exec-file:read), its threads' names and cores
   (qXfer:threads:read) and its list of threads (attach).  Every one
   fails with -pse_noproc once the process is gone and -pse_nothread
   when only the thread is.  */
#ifndef NAT_PROCINFO_H
#define NAT_PROCINFO_H

#include <stddef.h>
#include <sys/types.h>

struct ps_buf;

/* Append the path of PID's executable (/proc/PID/exe's target, with
   " (deleted)" if the kernel says so) to PATH.  */
int procinfo_exe_path(pid_t pid, struct ps_buf *path);

/* Append thread TID's name (its comm, without the newline) to NAME.  */
int procinfo_thread_name(pid_t pid, pid_t tid, struct ps_buf *name);

/* PID's parent and its real and effective user and group ids, from
   /proc/PID/status (LLDB's qProcessInfo).  */
struct procinfo_ids {
	long ppid;
	long uid, euid, gid, egid;
};
int procinfo_ids(pid_t pid, struct procinfo_ids *ids);

/* The CPU thread TID last ran on (>= 0).  */
int procinfo_thread_core(pid_t pid, pid_t tid);

/* A process's thread ids, ascending.  */
struct procinfo_tids {
	pid_t *tids;
	size_t count;
	size_t cap;
};

void procinfo_tids_init(struct procinfo_tids *list);
void procinfo_tids_fini(struct procinfo_tids *list);

/* Replace LIST's contents with PID's threads as /proc/PID/task lists
   them now.  Threads come and go: attach calls this until it finds no
   thread it has not attached to.  */
int procinfo_threads(pid_t pid, struct procinfo_tids *list);

#endif
