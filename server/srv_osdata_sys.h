/* The osdata listings of system tables (server/srv_osdata.c lists the
   processes): each appends its whole <osdata> object to OUT.  */
#ifndef SERVER_SRV_OSDATA_SYS_H
#define SERVER_SRV_OSDATA_SYS_H

#include "common/ps_buf.h"

int srv_osdata_cpus(struct ps_buf *out);
int srv_osdata_modules(struct ps_buf *out);
int srv_osdata_sockets(struct ps_buf *out);
int srv_osdata_shm(struct ps_buf *out);
int srv_osdata_sem(struct ps_buf *out);
int srv_osdata_msg(struct ps_buf *out);

/* One <column name="NAME">TEXT</column>, TEXT escaped.  */
static inline void srv_osdata_column(struct ps_buf *out, const char *name,
				     const char *text)
{
	ps_buf_printf(out, "<column name=\"%s\">", name);
	ps_buf_put_xml(out, text ? text : "");
	ps_buf_puts(out, "</column>");
}

#endif
