/* The osdata object (qXfer:osdata:read:TYPE), what GDB's `info os TYPE`
   shows, in gdbserver's XML: <osdata type="T"> and one <item> of
   <column name="...">s per process, group or thread.  */
#ifndef SERVER_SRV_OSDATA_H
#define SERVER_SRV_OSDATA_H

struct ps_buf;

/* Append the listing of TYPE to OUT: "" (or "types") lists the types,
   gdbserver's ten: cpus, files, modules, msg, processes, procgroups,
   semaphores, shm, sockets and threads.  An unknown TYPE yields nothing
   (an empty object), as with gdbserver.  */
int srv_osdata_xml(const char *type, struct ps_buf *out);

#endif
