/* The queries LLDB sends beyond GDB's: qHostInfo, qProcessInfo,
   qShlibInfoAddr, qMemoryRegionInfo and jThreadsInfo, answered as lldb-server answers them.  GDB never
   sends these, so nothing here changes what GDB sees.  */
#include "server/server.h"
#include "server/srv_lldb.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "nat/maps.h"
#include "nat/procinfo.h"
#include "nat/svr4.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char srv_lldb_triple[] = "x86_64-pc-linux-gnu";

static void srv_put_hex_str(struct ps_buf *out, const char *key,
			    const char *text)
{
	ps_buf_printf(out, "%s:", key);
	ps_buf_put_hex(out, text, strlen(text));
	ps_buf_putc(out, ';');
}

static int srv_host_info(struct srv *srv)
{
	struct ps_buf *r = &srv->reply;
	struct utsname uts;
	char host[256];

	srv_put_hex_str(r, "triple", srv_lldb_triple);
	ps_buf_puts(r, "ptrsize:8;");
	/* x86 reports a watchpoint after the access, as lldb-server says.  */
	ps_buf_puts(r, "watchpoint_exceptions_received:after;endian:little;");
	if (uname(&uts) == 0) {
		int major = 0, minor = 0, patch = 0;

		if (sscanf(uts.release, "%d.%d.%d", &major, &minor, &patch) >= 2)
			ps_buf_printf(r, "os_version:%d.%d.%d;", major, minor,
				      patch);
		srv_put_hex_str(r, "os_build", uts.release);
		srv_put_hex_str(r, "os_kernel", uts.version);
	}
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		srv_put_hex_str(r, "hostname", host);
	}
	return srv_reply;
}

static int srv_process_info(struct srv *srv)
{
	struct nat_process *proc = srv_general_process(srv);
	struct ps_buf *r = &srv->reply;
	struct procinfo_ids ids;

	if (!proc)
		return srv_lldb_error(srv, "No process.");
	if (procinfo_ids(nat_process_pid(proc), &ids) < 0)
		return srv_lldb_error(srv, "No such process.");
	ps_buf_printf(r, "pid:%x;parent-pid:%lx;real-uid:%lx;real-gid:%lx;"
		      "effective-uid:%lx;effective-gid:%lx;",
		      (unsigned) nat_process_pid(proc), ids.ppid, ids.uid, ids.gid,
		      ids.euid, ids.egid);
	srv_put_hex_str(r, "triple", srv_lldb_triple);
	ps_buf_puts(r, "ostype:linux;endian:little;ptrsize:8;");
	return srv_reply;
}

static long srv_lldb_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nat_read_memory(ctx, addr, buf, len);
}

/* Where the pointer to r_debug lives (DT_DEBUG's value).  Without this
   answer LLDB takes the library list's main-lm (GDB's link_map of the
   executable) for that place and plants a breakpoint at garbage.  */
static int srv_shlib_info_addr(struct srv *srv)
{
	struct nat_process *proc = srv_general_process(srv);
	uint64_t slot;

	if (!proc)
		return srv_lldb_error(srv, "No process.");
	if (svr4_debug_slot(nat_process_pid(proc), srv_lldb_read, proc, &slot) < 0)
		return srv_lldb_error(srv, "No DT_DEBUG in the executable.");
	ps_buf_printf(&srv->reply, "%llx", (unsigned long long) slot);
	return srv_reply;
}

static int srv_memory_region(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qMemoryRegionInfo:"), *end = pkt + len;
	struct nat_process *proc = srv_general_process(srv);
	struct ps_buf *r = &srv->reply;
	struct nat_maps maps;
	uint64_t addr, next = UINT64_MAX, prev = 0;
	int err;

	if (ps_hex_parse_u64(&p, end, &addr) < 0 || p != end)
		return srv_lldb_error(srv, "Bad address.");
	if (!proc)
		return srv_lldb_error(srv, "No process.");
	nat_maps_init(&maps);
	err = nat_maps_read(&maps, nat_process_pid(proc));
	if (err < 0) {
		nat_maps_fini(&maps);
		return srv_lldb_error(srv, "Cannot read the memory map.");
	}
	for (size_t i = 0; i < maps.count; i++) {
		const struct nat_map *m = &maps.map[i];

		if (addr >= m->start && addr < m->end) {
			ps_buf_printf(r, "start:%llx;size:%llx;permissions:%s%s%s;"
				      "flags:;",
				      (unsigned long long) m->start,
				      (unsigned long long) (m->end - m->start),
				      m->prot & PROT_READ ? "r" : "",
				      m->prot & PROT_WRITE ? "w" : "",
				      m->prot & PROT_EXEC ? "x" : "");
			if (m->path && *m->path) {
				ps_buf_puts(r, "name:");
				ps_buf_put_hex(r, m->path, strlen(m->path));
				ps_buf_putc(r, ';');
			}
			nat_maps_fini(&maps);
			return srv_reply;
		}
		if (m->end <= addr && m->end > prev)
			prev = m->end;
		if (m->start > addr && m->start < next)
			next = m->start;
	}
	nat_maps_fini(&maps);
	/* A hole: its extent, no permissions (lldb-server's answer).  */
	ps_buf_printf(r, "start:%llx;size:%llx;", (unsigned long long) prev,
		      (unsigned long long) (next - prev));
	return srv_reply;
}

/* Every thread's id and name; stop reasons stay the stop reply's.  */
static int srv_threads_info(struct srv *srv)
{
	json_t *list = json_array();
	struct ps_buf name;
	int err = 0;

	if (!list)
		return -pse_nomem;
	ps_buf_init(&name);
	for (struct nat_process *p = nat_first_process(srv->target); p && !err;
	     p = nat_process_next(p))
		for (struct nat_thread *t = nat_process_first_thread(p);
		     t && !err; t = nat_thread_next(t)) {
			json_t *o = json_object();

			ps_buf_reset(&name);
			if (!o || json_object_set_new(o, "tid",
						      json_integer(nat_thread_tid(t))) ||
			    (procinfo_thread_name(nat_process_pid(p), nat_thread_tid(t), &name) == 0 &&
			     json_object_set_new(o, "name",
				     json_stringn(name.data, name.len))) ||
			    json_array_append_new(list, o))
				err = -pse_nomem;
		}
	ps_buf_fini(&name);
	if (err) {
		json_decref(list);
		return -pse_nomem;
	}
	return srv_lldb_reply_json(srv, list);
}

int srv_handle_lldb_kill(struct srv *srv, const char *pkt, size_t len)
{
	struct nat_process *proc = nat_first_process(srv->target);
	pid_t pid = proc ? nat_process_pid(proc) : 0;
	int res = srv_handle_process(srv, pkt, len);

	/* GDB reads no reply to k; LLDB waits for one, and says "failed to
	   send k packet" without it.  */
	if (res != srv_no_reply || !srv->lldb || !srv->lldb->client || !pid)
		return res;
	ps_buf_printf(&srv->reply, "X09;process:%x", (unsigned) pid);
	return srv_reply;
}

int srv_handle_lldb_query(struct srv *srv, const char *pkt, size_t len)
{
	if (len == strlen("qHostInfo") && srv_prefix(pkt, len, "qHostInfo")) {
		struct srv_lldb *st = srv_lldb_state(srv);

		if (st)
			st->client = 1;
		return srv_host_info(srv);
	}
	if (len == strlen("qProcessInfo") &&
	    srv_prefix(pkt, len, "qProcessInfo"))
		return srv_process_info(srv);
	if (len == strlen("qShlibInfoAddr") &&
	    srv_prefix(pkt, len, "qShlibInfoAddr"))
		return srv_shlib_info_addr(srv);
	if (srv_prefix(pkt, len, "qMemoryRegionInfo:"))
		return srv_memory_region(srv, pkt, len);
	if (len == strlen("qMemoryRegionInfo") &&
	    srv_prefix(pkt, len, "qMemoryRegionInfo")) {
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}
	if (len == strlen("jThreadsInfo") && srv_prefix(pkt, len, "jThreadsInfo"))
		return srv_threads_info(srv);
	return srv_reply;
}
