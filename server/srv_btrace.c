/* Branch trace packets: Qbtrace:*, Qbtrace-conf:*, and the btrace and
   btrace-conf objects of qXfer, answered as gdbserver answers them.  */
#include "server/server.h"
#include "common/ps_error.h"
#include "nat/btrace.h"
#include "xml/btrace_xml.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The thread a btrace packet is about: Hg must name exactly one.  */
static struct nat_thread *srv_btrace_thread(struct srv *srv)
{
	struct nat_thread *thread;

	if (srv->general.pid == -1 || srv->general.tid == -1) {
		srv_error_text(srv, "Must select a single thread.");
		return NULL;
	}
	thread = srv_general_thread(srv);
	if (!thread)
		srv_error_text(srv, "No such thread.");
	return thread;
}

static int srv_btrace_enable(struct srv *srv, enum trace_format format)
{
	struct nat_thread *thread = srv_btrace_thread(srv);
	size_t size = format == trace_format_pt ? srv->btrace_pt_size
						 : srv->btrace_bts_size;
	char reason[256];

	if (!thread)
		return srv_reply;
	/* A thread traced since its clone (its parent's trace follows
	   clones) keeps what it recorded from its first instruction.  */
	if (nat_btrace_claim(thread, format)) {
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}
	if (nat_thread_traced(thread))
		return srv_error_text(srv, "Btrace already enabled.");
	reason[0] = '\0';
	if (nat_btrace_enable(srv->target, thread, format, size, reason,
			      sizeof(reason)) < 0)
		return srv_error_text(srv, reason[0] ? reason
					   : "Could not enable branch tracing.");
	/* GDB enables tracing for new threads itself, at their clone
	   event on its own target: here they are traced from there.  */
	nat_btrace_follow_clones(thread);
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

static int srv_btrace_size(struct srv *srv, const char *p, const char *end,
			   size_t *size)
{
	char text[32], *tail;
	unsigned long long v;

	if (end - p <= 0 || (size_t) (end - p) >= sizeof(text))
		return srv_error_text(srv, "Bad size value.");
	memcpy(text, p, (size_t) (end - p));
	text[end - p] = '\0';
	errno = 0;
	v = strtoull(text, &tail, 16);
	if (errno || *tail || v > 0xffffffffull)
		return srv_error_text(srv, "Bad size value.");
	*size = (size_t) v;
	ps_buf_puts(&srv->reply, "OK");
	return srv_reply;
}

int srv_handle_btrace(struct srv *srv, const char *pkt, size_t len)
{
	const char *end = pkt + len;

	if (srv_prefix(pkt, len, "Qbtrace-conf:")) {
		const char *p = pkt + strlen("Qbtrace-conf:");

		if (!srv_btrace_thread(srv))
			return srv_reply;
		if (srv_prefix(p, (size_t) (end - p), "bts:size="))
			return srv_btrace_size(srv, p + strlen("bts:size="), end,
					       &srv->btrace_bts_size);
		if (srv_prefix(p, (size_t) (end - p), "pt:size="))
			return srv_btrace_size(srv, p + strlen("pt:size="), end,
					       &srv->btrace_pt_size);
		return srv_error_text(srv, "Bad Qbtrace configuration option.");
	}

	if (!srv_btrace_thread(srv))
		return srv_reply;
	if (!strcmp(pkt, "Qbtrace:bts"))
		return srv_btrace_enable(srv, trace_format_bts);
	if (!strcmp(pkt, "Qbtrace:pt"))
		return srv_btrace_enable(srv, trace_format_pt);
	if (!strcmp(pkt, "Qbtrace:off")) {
		struct nat_thread *thread = srv_general_thread(srv);

		if (!nat_thread_traced(thread))
			return srv_error_text(srv, "Branch tracing not enabled.");
		if (nat_btrace_disable(srv->target, thread) < 0)
			return srv_error_text(srv, "Could not disable branch tracing.");
		ps_buf_puts(&srv->reply, "OK");
		return srv_reply;
	}
	return srv_error_text(srv, "Bad Qbtrace operation.  Use bts, pt, or off.");
}

static int srv_btrace_data(struct srv *srv, struct nat_thread *thread,
			   enum nat_btrace_read type, struct ps_buf *out)
{
	int err;

	if (nat_btrace_format(thread) == trace_format_pt) {
		struct trace_cpu cpu;
		struct ps_buf raw;

		ps_buf_init(&raw);
		err = nat_btrace_read_pt(thread, type, &raw);
		if (err == 0) {
			nat_btrace_cpu(thread, &cpu);
			err = btrace_xml_pt(out, &cpu, raw.data, raw.len);
		}
		ps_buf_fini(&raw);
	} else {
		struct trace_blocks blocks;

		trace_blocks_init(&blocks);
		err = nat_btrace_read_bts(thread, type, &blocks);
		if (err == 0)
			err = btrace_xml_bts(out, blocks.block, blocks.len);
		trace_blocks_fini(&blocks);
		if (err == -pse_nospace)
			return srv_error_text(srv, "Overflow."), err;
	}
	if (err < 0)
		srv_error_text(srv, "Generic Error.");
	return err;
}

int srv_btrace_object(struct srv *srv, const char *object, const char *annex,
		      struct ps_buf *out)
{
	int conf = !strcmp(object, "btrace-conf");
	struct nat_thread *thread;
	enum nat_btrace_read type;

	if (conf && *annex) {
		ps_buf_puts(&srv->reply, "E01");
		return -pse_invalid;
	}
	thread = srv_btrace_thread(srv);
	if (!thread)
		return -pse_nothread;
	if (!nat_thread_traced(thread)) {
		srv_error_text(srv, "Btrace not enabled.");
		return -pse_notfound;
	}
	if (conf)
		return btrace_xml_conf(out, nat_btrace_format(thread),
				       (unsigned) nat_btrace_size(thread));

	if (!strcmp(annex, "all"))
		type = nat_btrace_read_all;
	else if (!strcmp(annex, "new"))
		type = nat_btrace_read_new;
	else if (!strcmp(annex, "delta"))
		type = nat_btrace_read_delta;
	else {
		srv_error_text(srv, "Bad annex.");
		return -pse_invalid;
	}
	return srv_btrace_data(srv, thread, type, out);
}
