/* The packets of a post-mortem session: GDB's queries answered from the
   image, its btrace packets from the saved trace, its resumes refused.  */
#include "server/srv_postmortem.h"
#include "server/rsp_conn.h"
#include "server/rsp_escape.h"
#include "server/rsp_parse.h"
#include "nat/amd64_regs.h"
#include "nat/svr4.h"
#include "xml/btrace_xml.h"
#include "xml/tdesc_amd64.h"
#include "common/gdb_signals.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PM_PACKET_SIZE 0x4000

int srv_pm_init(struct srv_pm *pm, const char *file)
{
	char why[300] = "";
	int err;

	memset(pm, 0, sizeof(*pm));
	ps_buf_init(&pm->reply);
	ps_buf_init(&pm->xfer);
	err = pm_image_load(&pm->image, file, why, sizeof(why));
	if (err < 0) {
		fprintf(stderr, "Cannot serve %s: %s.\n", file,
			why[0] ? why : ps_errstr(err));
		return err;
	}
	pm->general = &pm->image.threads[pm->image.crashed];
	return 0;
}

void srv_pm_fini(struct srv_pm *pm)
{
	pm_image_fini(&pm->image);
	ps_buf_fini(&pm->reply);
	ps_buf_fini(&pm->xfer);
}

static int pm_prefix(const char *pkt, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(pkt, prefix, n);
}

static int pm_error(struct srv_pm *pm, const char *text)
{
	ps_buf_reset(&pm->reply);
	ps_buf_printf(&pm->reply, "E.%s", text);
	return 1;
}

static int pm_stop_reply(struct srv_pm *pm)
{
	struct pm_thread *t = &pm->image.threads[pm->image.crashed];
	int sig = t->sig ? gdb_signal_from_host(t->sig) : 5;

	ps_buf_printf(&pm->reply, "T%02xthread:%x;", sig, (unsigned) t->tid);
	return 1;
}

static long pm_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return pm_image_read(ctx, addr, buf, len);
}

static int pm_threads_xml(struct srv_pm *pm, struct ps_buf *out)
{
	ps_buf_puts(out, "<?xml version=\"1.0\"?>\n<threads>\n");
	for (size_t i = 0; i < pm->image.nthreads; i++)
		ps_buf_printf(out, "<thread id=\"%x\"/>\n",
			      (unsigned) pm->image.threads[i].tid);
	return ps_buf_puts(out, "</threads>\n");
}

/* The saved trace of the general thread, as GDB reads a live one: "all"
   and the first "new" give it whole, later "new" reads nothing (it never
   runs).  */
static int pm_btrace_xml(struct srv_pm *pm, const char *annex,
			 struct ps_buf *out)
{
	const struct bt_bundle *b = &pm->image.bundle;
	struct pm_thread *t = pm->general;
	int again, pt = b->format == btf_pt;

	if (!t->traced || !t->trace)
		return pm_error(pm, "Btrace not enabled."), -pse_notfound;
	/* No "delta" for either format: GDB's BTS enable starts its trace
	   at the current pc, which a saved trace ends at, not begins
	   from; refused, GDB reads "new" and takes it whole.  */
	if (!strcmp(annex, "delta"))
		return pm_error(pm, "Generic Error."), -pse_unsupported;
	if (strcmp(annex, "all") && strcmp(annex, "new") &&
	    strcmp(annex, "delta"))
		return pm_error(pm, "Bad annex."), -pse_invalid;
	again = strcmp(annex, "all") && t->read_once;
	t->read_once = 1;
	if (pt) {
		struct trace_cpu cpu;

		memset(&cpu, 0, sizeof(cpu));
		if (b->cpu.vendor == btv_intel) {
			strcpy(cpu.vendor, "GenuineIntel");
			cpu.family = b->cpu.family;
			cpu.model = b->cpu.model;
			cpu.stepping = b->cpu.stepping;
		}
		return btrace_xml_pt(out, &cpu, t->trace->trace,
				     again ? 0 : t->trace->trace_size);
	} else {
		size_t n = again ? 0 : t->trace->trace_size / 16;
		struct trace_block *blocks = calloc(n + 1, sizeof(*blocks));
		int err;

		if (!blocks)
			return -pse_nomem;
		/* Bundles keep them newest first; the writer wants oldest.  */
		for (size_t i = 0; i < n; i++) {
			memcpy(&blocks[n - 1 - i].begin,
			       t->trace->trace + 16 * i, 8);
			memcpy(&blocks[n - 1 - i].end,
			       t->trace->trace + 16 * i + 8, 8);
		}
		err = btrace_xml_bts(out, blocks, n);
		free(blocks);
		return err;
	}
}

static int pm_object(struct srv_pm *pm, const char *object,
		     const char *annex, struct ps_buf *out)
{
	struct bt_bundle *b = &pm->image.bundle;

	if (!strcmp(object, "features"))
		return tdesc_amd64_xml(pm->general->regs->xcr0, annex, out);
	if (!strcmp(object, "threads"))
		return pm_threads_xml(pm, out);
	if (!strcmp(object, "auxv"))
		return b->auxv ? ps_buf_append(out, b->auxv, b->auxv_size)
			: -pse_notfound;
	if (!strcmp(object, "exec-file"))
		return b->exe ? ps_buf_puts(out, b->exe) : -pse_notfound;
	if (!strcmp(object, "libraries-svr4"))
		return svr4_library_list_auxv(b->auxv, b->auxv_size, pm_read,
					      &pm->image, annex, out);
	if (!strcmp(object, "btrace-conf")) {
		if (!pm->general->traced)
			return pm_error(pm, "Btrace not enabled."),
				-pse_notfound;
		return btrace_xml_conf(out, b->format == btf_pt ?
				       trace_format_pt : trace_format_bts,
				       b->buffer_size);
	}
	if (!strcmp(object, "btrace"))
		return pm_btrace_xml(pm, annex, out);
	return -pse_unsupported;
}

static int pm_qxfer(struct srv_pm *pm, const char *pkt, size_t len)
{
	const char *p = pkt + strlen("qXfer:"), *end = pkt + len, *colon;
	char object[32], annex[64];
	uint64_t offset, length;
	size_t want, taken;
	int err;

	colon = memchr(p, ':', (size_t) (end - p));
	if (!colon || (size_t) (colon - p) >= sizeof(object))
		return pm_error(pm, "Bad packet.");
	memcpy(object, p, (size_t) (colon - p));
	object[colon - p] = 0;
	p = colon + 1;
	if (!pm_prefix(p, (size_t) (end - p), "read:"))
		return pm_error(pm, SRV_PM_REFUSAL);
	p += 5;
	colon = memchr(p, ':', (size_t) (end - p));
	if (!colon || (size_t) (colon - p) >= sizeof(annex))
		return pm_error(pm, "Bad packet.");
	memcpy(annex, p, (size_t) (colon - p));
	annex[colon - p] = 0;
	p = colon + 1;
	if (rsp_parse_addr_len(&p, end, &offset, &length) < 0 || p != end)
		return pm_error(pm, "Bad packet.");

	if (offset == 0 || strcmp(pm->xfer_object, object) ||
	    strcmp(pm->xfer_annex, annex)) {
		ps_buf_reset(&pm->xfer);
		pm->xfer_object[0] = 0;
		err = pm_object(pm, object, annex, &pm->xfer);
		if (err == -pse_unsupported)
			return 1;
		if (err < 0)
			return pm->reply.len ? 1 : pm_error(pm, ps_errstr(err));
		strcpy(pm->xfer_object, object);
		strcpy(pm->xfer_annex, annex);
	}
	if (offset > pm->xfer.len)
		return pm_error(pm, "Bad offset.");
	want = pm->xfer.len - offset;
	if (length < want)
		want = (size_t) length;
	ps_buf_putc(&pm->reply, 'm');
	taken = rsp_escape(&pm->reply, pm->xfer.data + offset, want,
			   PM_PACKET_SIZE - 1);
	if (offset + taken == pm->xfer.len)
		pm->reply.data[0] = 'l';
	return 1;
}

static int pm_memory(struct srv_pm *pm, const char *p, const char *end)
{
	uint64_t addr, len;
	uint8_t *buf;
	long n;

	if (rsp_parse_addr_len(&p, end, &addr, &len) < 0 || p != end)
		return pm_error(pm, "Bad packet.");
	if (len > PM_PACKET_SIZE / 2)
		len = PM_PACKET_SIZE / 2;
	buf = malloc(len + 1);
	if (!buf)
		return pm_error(pm, "Out of memory.");
	n = len ? pm_image_read(&pm->image, addr, buf, len) : 0;
	if (n < 0)
		ps_buf_puts(&pm->reply, "E01");
	else
		ps_buf_put_hex(&pm->reply, buf, (size_t) n);
	free(buf);
	return 1;
}

static int pm_register(struct srv_pm *pm, const char *p, const char *end)
{
	uint8_t value[64];
	uint64_t regno;
	int n;

	if (ps_hex_parse_u64(&p, end, &regno) < 0 || p != end)
		return pm_error(pm, "Bad packet.");
	n = amd64_regs_read(pm->general->regs, (unsigned) regno, value,
			    sizeof(value));
	if (n < 0)
		return pm_error(pm, "Bad register.");
	ps_buf_put_hex(&pm->reply, value, (size_t) n);
	return 1;
}

/* Hg, Hc, T: a thread id in hex; 0 and -1 mean "any".  */
static struct pm_thread *pm_parse_thread(struct srv_pm *pm, const char *p,
					 const char *end)
{
	struct rsp_ptid ptid;

	if (rsp_parse_ptid(&p, end, &ptid) < 0 || p != end)
		return NULL;
	if (ptid.tid <= 0)
		return &pm->image.threads[pm->image.crashed];
	return pm_image_thread(&pm->image, (int32_t) ptid.tid);
}

static int pm_btrace_enable(struct srv_pm *pm, const char *what)
{
	const struct bt_bundle *b = &pm->image.bundle;
	struct pm_thread *t = pm->general;

	if (!strcmp(what, "off")) {
		if (!t->traced)
			return pm_error(pm, "Branch tracing not enabled.");
		t->traced = 0;
		t->read_once = 0;
		return ps_buf_puts(&pm->reply, "OK"), 1;
	}
	if (strcmp(what, "pt") && strcmp(what, "bts"))
		return pm_error(pm, "Bad Qbtrace operation.  Use bts, pt, "
				"or off.");
	if (t->traced)
		return pm_error(pm, "Btrace already enabled.");
	if (!t->trace)
		return pm_error(pm, "The post-mortem image has no trace of "
				"this thread.");
	if (strcmp(what, b->format == btf_pt ? "pt" : "bts"))
		return pm_error(pm, b->format == btf_pt ?
				"The post-mortem image holds a PT trace: use "
				"record btrace pt." :
				"The post-mortem image holds a BTS trace: use "
				"record btrace bts.");
	t->traced = 1;
	return ps_buf_puts(&pm->reply, "OK"), 1;
}

static int pm_query(struct srv_pm *pm, const char *pkt, size_t len)
{
	struct ps_buf *r = &pm->reply;

	if (pm_prefix(pkt, len, "qSupported")) {
		ps_buf_printf(r, "PacketSize=%x;QStartNoAckMode+;"
			      "qXfer:features:read+;qXfer:auxv:read+;"
			      "qXfer:libraries-svr4:read+;"
			      "qXfer:exec-file:read+;qXfer:threads:read+;"
			      "qXfer:btrace:read+;qXfer:btrace-conf:read+;"
			      "Qbtrace:bts+;Qbtrace:pt+;Qbtrace:off+;"
			      "Qbtrace-conf:bts:size+;Qbtrace-conf:pt:size+;"
			      "vContSupported+", PM_PACKET_SIZE);
		return 1;
	}
	if (pm_prefix(pkt, len, "qXfer:"))
		return pm_qxfer(pm, pkt, len);
	if (len == 2 && !memcmp(pkt, "qC", 2)) {
		ps_buf_printf(r, "QC%x", (unsigned) pm->general->tid);
		return 1;
	}
	if (pm_prefix(pkt, len, "qfThreadInfo")) {
		ps_buf_putc(r, 'm');
		for (size_t i = 0; i < pm->image.nthreads; i++)
			ps_buf_printf(r, "%s%x", i ? "," : "",
				      (unsigned) pm->image.threads[i].tid);
		return 1;
	}
	if (pm_prefix(pkt, len, "qsThreadInfo"))
		return ps_buf_putc(r, 'l'), 1;
	if (pm_prefix(pkt, len, "qAttached"))
		return ps_buf_putc(r, '1'), 1;
	if (pm_prefix(pkt, len, "qSymbol"))
		return ps_buf_puts(r, "OK"), 1;
	return 1;   /* everything else: not supported (empty) */
}

int srv_pm_dispatch(struct srv_pm *pm, const char *pkt, size_t len)
{
	const char *end = pkt + len;
	struct ps_buf *r = &pm->reply;
	struct pm_thread *t;

	ps_buf_reset(r);
	if (!len)
		return 1;
	switch (pkt[0]) {
	case '?':
		return pm_stop_reply(pm);
	case 'g':
		return amd64_regs_g_packet(pm->general->regs, r) < 0 ?
			pm_error(pm, "Cannot read registers.") : 1;
	case 'p':
		return pm_register(pm, pkt + 1, end);
	case 'm':
		return pm_memory(pm, pkt + 1, end);
	case 'H':
		if (len < 2)
			return pm_error(pm, "Bad packet.");
		t = pm_parse_thread(pm, pkt + 2, end);
		if (!t)
			return pm_error(pm, "No such thread.");
		if (pkt[1] == 'g')
			pm->general = t;
		return ps_buf_puts(r, "OK"), 1;
	case 'T':
		return pm_parse_thread(pm, pkt + 1, end) ?
			(ps_buf_puts(r, "OK"), 1) : pm_error(pm, "E01");
	case 'k':
		pm->done = 1;
		return 0;
	case 'D':
		pm->done = 1;
		return ps_buf_puts(r, "OK"), 1;
	case 'q':
		return pm_query(pm, pkt, len);
	case 'Q':
		if (pm_prefix(pkt, len, "QStartNoAckMode")) {
			ps_buf_puts(r, "OK");
			return 2;
		}
		if (pm_prefix(pkt, len, "Qbtrace:")) {
			char what[8] = "";

			snprintf(what, sizeof(what), "%.*s",
				 (int) (len - 8), pkt + 8);
			return pm_btrace_enable(pm, what);
		}
		if (pm_prefix(pkt, len, "Qbtrace-conf:") ||
		    pm_prefix(pkt, len, "QNonStop:0") ||
		    pm_prefix(pkt, len, "QPassSignals:") ||
		    pm_prefix(pkt, len, "QProgramSignals:"))
			return ps_buf_puts(r, "OK"), 1;
		return 1;
	case 'v':
		if (pm_prefix(pkt, len, "vCont?"))
			return ps_buf_puts(r, "vCont;c;C;s;S;t"), 1;
		if (pm_prefix(pkt, len, "vKill")) {
			pm->done = 1;
			return ps_buf_puts(r, "OK"), 1;
		}
		if (pm_prefix(pkt, len, "vCont") || pm_prefix(pkt, len, "vRun") ||
		    pm_prefix(pkt, len, "vAttach"))
			return pm_error(pm, SRV_PM_REFUSAL);
		return 1;
	case 'Z':
	case 'z':
		/* Breakpoints: record-btrace inserts them while it replays
		   (reverse-finish, reverse-next), and checks them itself;
		   a process that never runs cannot hit one.  */
		if (len > 1 && (pkt[1] == '0' || pkt[1] == '1'))
			return ps_buf_puts(r, "OK"), 1;
		return pm_error(pm, SRV_PM_REFUSAL);
	case 'c': case 'C': case 's': case 'S': case 'G': case 'P':
	case 'M': case 'X': case 'R':
		return pm_error(pm, SRV_PM_REFUSAL);
	}
	return 1;
}

int srv_pm_serve(struct srv_pm *pm, struct rsp_conn *conn)
{
	struct ps_buf pkt;
	int err = 0;

	pm->conn = conn;
	ps_buf_init(&pkt);
	while (!pm->done) {
		int res;

		err = rsp_read_packet(conn, &pkt);
		if (err == RSP_INTERRUPT)
			continue;
		if (err < 0)
			break;
		res = srv_pm_dispatch(pm, pkt.data, pkt.len);
		if (res)
			err = rsp_send_packet(conn, pm->reply.data,
					      pm->reply.len);
		if (res == 2)
			rsp_conn_set_noack(conn, 1);
		if (err < 0)
			break;
	}
	ps_buf_fini(&pkt);
	return err == -pse_eof ? 0 : err;
}
