/* qXfer:OBJECT:read:ANNEX:OFFSET,LENGTH (and siginfo write).  Objects
   are built whole at offset 0 and served from that copy in chunks, so a
   large object costs one build, not one per chunk.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"
#include "nat/amd64_regs.h"
#include "nat/auxv.h"
#include "nat/procinfo.h"
#include "nat/svr4.h"
#include "server/rsp_escape.h"
#include "server/srv_osdata.h"
#include "xml/tdesc_amd64.h"

#include <string.h>

static long srv_svr4_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return nat_read_memory(ctx, addr, buf, len);
}

/* THREAD's handle as gdbserver gives it from libthread_db: glibc's
   pthread_t, the address of the thread's TCB, which is where FS points
   (x86-64), in memory order.  None for a running thread or one with no
   TCB yet.  */
static void srv_thread_handle(struct nat_thread *thread, struct ps_buf *out)
{
	struct amd64_regs *regs;
	uint64_t tcb;
	char hex[2 * sizeof(tcb) + 1];

	if (nat_thread_regs(thread, &regs) < 0 || !regs->gpr.fs_base)
		return;
	tcb = regs->gpr.fs_base;
	ps_hex_encode(hex, &tcb, sizeof(tcb));
	hex[2 * sizeof(tcb)] = '\0';
	ps_buf_printf(out, " handle=\"%s\"", hex);
}

static int srv_threads_xml(struct srv *srv, struct ps_buf *out)
{
	struct ps_buf name;

	ps_buf_init(&name);
	ps_buf_puts(out, "<threads>\n");
	for (struct nat_process *p = nat_first_process(srv->target); p;
	     p = nat_process_next(p))
		for (struct nat_thread *t = nat_process_first_thread(p);
		     t; t = nat_thread_next(t)) {
			struct rsp_ptid ptid = { nat_process_pid(p), nat_thread_tid(t) };
			int core = procinfo_thread_core(nat_process_pid(p), nat_thread_tid(t));

			ps_buf_puts(out, "<thread id=\"");
			rsp_format_ptid(out, ptid, srv->multiprocess);
			ps_buf_putc(out, '"');
			if (core >= 0)
				ps_buf_printf(out, " core=\"%x\"", core);
			ps_buf_reset(&name);
			if (procinfo_thread_name(nat_process_pid(p), nat_thread_tid(t), &name) == 0) {
				ps_buf_puts(out, " name=\"");
				ps_buf_put_xml(out, name.data);
				ps_buf_putc(out, '"');
			}
			srv_thread_handle(t, out);
			ps_buf_puts(out, "/>\n");
		}
	ps_buf_puts(out, "</threads>\n");
	ps_buf_fini(&name);
	return 0;
}

/* Build OBJECT for ANNEX into OUT.  */
static int srv_build_object(struct srv *srv, const char *object,
			    const char *annex, struct ps_buf *out)
{
	struct nat_process *proc = srv_general_process(srv);
	struct nat_thread *thread = srv_general_thread(srv);

	if (!strcmp(object, "features")) {
		uint64_t xcr0 = 0;
		int err;

		if (!thread)
			return -pse_noproc;
		err = nat_thread_xcr0(thread, &xcr0);
		if (err < 0)
			return err;
		return tdesc_amd64_xml(xcr0, annex, out);
	}
	if (!strcmp(object, "threads"))
		return srv_threads_xml(srv, out);
	if (!strcmp(object, "btrace") || !strcmp(object, "btrace-conf"))
		return srv_btrace_object(srv, object, annex, out);
	if (!strcmp(object, "exec-file")) {
		uint64_t pid = 0;
		const char *p = annex;

		if (*annex && (ps_hex_parse_u64(&p, annex + strlen(annex), &pid) < 0 ||
			       *p))
			return -pse_invalid;
		if (!pid && proc)
			pid = (uint64_t) nat_process_pid(proc);
		if (!pid)
			return -pse_noproc;
		return procinfo_exe_path((pid_t) pid, out);
	}
	/* The system's, not the inferior's: it needs no process.  */
	if (!strcmp(object, "osdata"))
		return srv_osdata_xml(annex, out);
	if (!proc)
		return -pse_noproc;
	if (!strcmp(object, "auxv"))
		return auxv_read(nat_process_pid(proc), out);
	if (!strcmp(object, "libraries-svr4"))
		return svr4_library_list(nat_process_pid(proc), srv_svr4_read, proc, annex,
					 out);
	if (!strcmp(object, "siginfo")) {
		uint8_t info[128];
		int err;

		if (!thread)
			return -pse_nothread;
		err = nat_thread_siginfo(thread, info, sizeof(info));
		return err < 0 ? err : ps_buf_append(out, info, sizeof(info));
	}
	return -pse_unsupported;
}

static int srv_siginfo_write(struct srv *srv, const char *p, const char *end)
{
	struct nat_thread *thread = srv_general_thread(srv);
	uint8_t info[128], data[2 * sizeof(info)];
	uint64_t offset;
	long n;
	int err;

	if (ps_hex_parse_u64(&p, end, &offset) < 0 || rsp_expect(&p, end, ':') < 0)
		return -pse_invalid;
	if (!thread)
		return srv_error_text(srv, "No such thread.");
	/* Escaped data is at most twice its size: more cannot fit.  */
	if ((size_t) (end - p) > sizeof(data))
		return -pse_invalid;
	n = rsp_unescape(data, p, (size_t) (end - p));
	if (n < 0 || offset > sizeof(info) || (uint64_t) n > sizeof(info) - offset)
		return -pse_invalid;
	err = nat_thread_siginfo(thread, info, sizeof(info));
	if (err < 0)
		return err;
	memcpy(info + offset, data, (size_t) n);
	err = nat_thread_set_siginfo(thread, info, sizeof(info));
	if (err < 0)
		return err;
	ps_buf_printf(&srv->reply, "%lx", n);
	return srv_reply;
}

int srv_handle_qxfer(struct srv *srv, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qXfer:"), *end = pkt + len;
	const char *colon, *annex_end;
	char object[32], annex[256];
	uint64_t offset, length;
	size_t olen, alen, taken, want;
	int err;

	colon = memchr(p, ':', (size_t) (end - p));
	if (!colon || (size_t) (colon - p) >= sizeof(object))
		return -pse_invalid;
	olen = (size_t) (colon - p);
	memcpy(object, p, olen);
	object[olen] = '\0';
	p = colon + 1;

	if (!strcmp(object, "siginfo") && srv_prefix(p, (size_t) (end - p), "write::"))
		return srv_siginfo_write(srv, p + strlen("write::"), end);
	if (!srv_prefix(p, (size_t) (end - p), "read:"))
		return srv_reply;
	p += strlen("read:");
	annex_end = memchr(p, ':', (size_t) (end - p));
	if (!annex_end || (size_t) (annex_end - p) >= sizeof(annex))
		return -pse_invalid;
	alen = (size_t) (annex_end - p);
	memcpy(annex, p, alen);
	annex[alen] = '\0';
	p = annex_end + 1;
	if (rsp_parse_addr_len(&p, end, &offset, &length) < 0 || p != end)
		return -pse_invalid;

	/* A read from offset 0 starts a new transfer.  */
	if (offset == 0 || strcmp(srv->xfer_object, object) ||
	    strcmp(srv->xfer_annex, annex)) {
		ps_buf_reset(&srv->xfer);
		srv->xfer_object[0] = '\0';
		err = srv_build_object(srv, object, annex, &srv->xfer);
		if (err == -pse_unsupported)
			return srv_reply;
		/* Some objects answer their failures in gdbserver's words.  */
		if (err < 0)
			return srv->reply.len ? srv_reply : err;
		strcpy(srv->xfer_object, object);
		strcpy(srv->xfer_annex, annex);
	}
	if (offset > srv->xfer.len)
		return -pse_range;

	/* LENGTH counts the object's bytes; escaping them may take up to
	   twice as many characters, within the packet size.  */
	want = srv->xfer.len - offset;
	if (length < want)
		want = (size_t) length;
	ps_buf_putc(&srv->reply, 'm');
	taken = rsp_escape(&srv->reply, srv->xfer.data + offset, want,
			   SRV_PACKET_SIZE - 1);
	if (offset + taken == srv->xfer.len)
		srv->reply.data[0] = 'l';
	return srv_reply;
}
