/* Fuzz target: the RSP framing (rsp_read_packet on a stream of any
   bytes: '$', '#', checksums, escapes, Ctrl-C, acks, oversized packets)
   and the packet field parsers on each payload it yields.  */
#define _GNU_SOURCE
#include "common/ps_buf.h"
#include "common/ps_hex.h"
#include "server/rsp_conn.h"
#include "server/rsp_escape.h"
#include "server/rsp_parse.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void parse_fields(const char *p, size_t len)
{
	const char *end = p + len, *q, *field;
	struct rsp_feature f;
	struct rsp_ptid ptid;
	uint64_t addr, n, v;
	size_t flen;
	char *copy;

	q = p;
	rsp_parse_ptid(&q, end, &ptid);
	q = p;
	rsp_parse_addr_len(&q, end, &addr, &n);
	q = p;
	ps_hex_parse_u64(&q, end, &v);
	q = p;
	while (rsp_next_feature(&q, end, &f) == 1)
		rsp_feature_is(&f, "multiprocess");
	q = p;
	while (rsp_next_field(&q, end, ':', &field, &flen) == 1) {
		const char *r = field;

		rsp_parse_ptid(&r, field + flen, &ptid);
	}
	copy = malloc(len + 1);
	if (copy) {
		rsp_unescape(copy, p, len);
		ps_hex_decode(copy, p, len / 2);
		free(copy);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rsp_conn conn;
	struct ps_buf pkt, esc;
	int in[2], out;

	/* A pipe holds 64 KiB: more would block the write.  */
	if (size > 60000)
		size = 60000;
	if (pipe2(in, O_CLOEXEC) < 0)
		return 0;
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (write(in[1], data, size) != (ssize_t) size) {
		close(in[0]);
		close(in[1]);
		close(out);
		return 0;
	}
	close(in[1]);
	rsp_conn_init(&conn, in[0], out);
	/* Small enough that the fuzzer reaches the too-long path.  */
	conn.max_payload = 2048;
	if (size && data[0] & 1)
		rsp_conn_set_noack(&conn, 1);
	ps_buf_init(&pkt);
	ps_buf_init(&esc);
	for (int i = 0; i < 256; i++) {
		int r = rsp_read_packet(&conn, &pkt);

		if (r < 0)
			break;
		if (r == RSP_INTERRUPT)
			continue;
		parse_fields(pkt.data ? pkt.data : "", pkt.len);
		ps_buf_reset(&esc);
		rsp_escape(&esc, pkt.data, pkt.len, 4096);
		rsp_send_packet(&conn, pkt.data, pkt.len);
	}
	ps_buf_fini(&pkt);
	ps_buf_fini(&esc);
	rsp_conn_fini(&conn);
	close(in[0]);
	close(out);
	return 0;
}
