/* `ptstub --postmortem BUNDLE COMM`: a crash bundle served to GDB as a
   stopped process.  Registers, memory, threads, auxv, libraries and the
   exec-file come from the bundle's core; `record btrace` serves the
   saved trace, so GDB's record commands and reverse execution work on
   the history that led to the crash.  Anything that would run the
   process is refused: it is a post-mortem image.  */
#ifndef SRV_POSTMORTEM_H
#define SRV_POSTMORTEM_H

#include "server/srv_pm_image.h"
#include "common/ps_buf.h"

struct rsp_conn;

/* What every refusal to run says.  */
#define SRV_PM_REFUSAL "the process is a post-mortem image"

struct srv_pm {
	struct pm_image image;
	struct rsp_conn *conn;
	struct pm_thread *general;  /* Hg */
	struct ps_buf reply, xfer;
	char xfer_object[32], xfer_annex[64];
	int done;                   /* k, D or vKill: the session ends */
};

/* Load FILE; on failure print why to stderr.  */
int srv_pm_init(struct srv_pm *pm, const char *file);
void srv_pm_fini(struct srv_pm *pm);

/* Answer the client on CONN until it leaves, kills or detaches.  */
int srv_pm_serve(struct srv_pm *pm, struct rsp_conn *conn);

/* One packet into pm->reply (for the tests): 1 when there is a reply
   to send.  */
int srv_pm_dispatch(struct srv_pm *pm, const char *pkt, size_t len);

#endif
