/* A small GDB remote-protocol client: packets with acks, binary escapes
   and run-length encoding in replies, and qXfer and vFile reads, for
   reading a trace from a live stub the way GDB does.  Like GDB it asks
   for no-ack mode and the stub's packet size, sends each packet in one
   write with Nagle off, and reads in large blocks: a request written in
   pieces, or an ack alone, otherwise waits for the peer's delayed ack
   (40 ms a packet on Linux).  */
#include "btrace/bt_rsp.h"
#include "common/ps_array.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct bt_rsp {
	int fd;
	char *buf;                /* the last reply, unescaped */
	size_t len, cap;
	int noack;                /* QStartNoAckMode accepted */
	size_t chunk;             /* bytes asked for per qXfer or pread */
	char *out;                /* the request being framed */
	size_t out_cap;
	size_t in_pos, in_len;    /* unread bytes in IN */
	char in[65536];
};

static int bt_rsp_handshake(struct bt_rsp *r);

int bt_rsp_open(struct bt_rsp **pr, const char *hostport,
		struct bt_diag *diag)
{
	struct addrinfo hints, *res = NULL, *ai;
	char host[256];
	const char *colon = hostport ? strrchr(hostport, ':') : NULL;
	struct bt_rsp *r;
	int fd = -1, status;

	if (!pr || !colon || (size_t) (colon - hostport) >= sizeof(host) ||
	    !colon[1])
		return bt_diag_set(diag, bte_invalid, 0, 0,
				   "%s: not HOST:PORT", hostport ? hostport
				   : "(null)");
	memcpy(host, hostport, (size_t) (colon - hostport));
	host[colon - hostport] = 0;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	status = getaddrinfo(host[0] ? host : "localhost", colon + 1, &hints,
			     &res);
	if (status != 0)
		return bt_diag_set(diag, bte_io, 0, 0, "%s: %s", hostport,
				   gai_strerror(status));
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		return bt_diag_set(diag, bte_io, 0, 0, "%s: cannot connect: "
				   "%s", hostport, strerror(errno));
	r = calloc(1, sizeof(*r));
	if (!r) {
		close(fd);
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	}
	r->fd = fd;
	r->chunk = 0xfff;
	/* Each request is one write; without this, the next one may wait
	   for the ack of the last.  Loopback or not, failure is harmless.  */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int) { 1 }, sizeof(int));
	status = bt_rsp_handshake(r);
	if (status < 0) {
		bt_rsp_close(r);
		return bt_diag_set(diag, -status, 0, 0, "%s: no reply from "
				   "the stub: %s", hostport, bt_errstr(status));
	}
	*pr = r;
	return 0;
}

void bt_rsp_close(struct bt_rsp *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r->buf);
	free(r->out);
	free(r);
}

static int bt_rsp_getc(struct bt_rsp *r)
{
	ssize_t n;

	if (r->in_pos == r->in_len) {
		do
			n = read(r->fd, r->in, sizeof(r->in));
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			return -1;
		r->in_pos = 0;
		r->in_len = (size_t) n;
	}
	return (unsigned char) r->in[r->in_pos++];
}

static int bt_rsp_put(struct bt_rsp *r, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(r->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -bte_io;
		p += n;
		len -= (size_t) n;
	}
	return 0;
}

static int bt_rsp_append(struct bt_rsp *r, char c)
{
	if (PS_ARRAY_RESERVE(r->buf, r->cap, r->len + 2))
		return -bte_nomem;
	r->buf[r->len++] = c;
	r->buf[r->len] = 0;
	return 0;
}

/* Read one packet into BUF (escapes and repeats undone) and ack it;
   stray acks and notifications before it are skipped.  */
static int bt_rsp_read_packet(struct bt_rsp *r)
{
	int c, prev = -1;
	unsigned int sum = 0;
	char cs[3];

	do
		c = bt_rsp_getc(r);
	while (c >= 0 && c != '$');
	if (c < 0)
		return -bte_io;
	r->len = 0;
	if (bt_rsp_append(r, 0) < 0)
		return -bte_nomem;
	r->len = 0;
	while ((c = bt_rsp_getc(r)) >= 0 && c != '#') {
		sum += (unsigned int) c;
		if (c == '}') {
			c = bt_rsp_getc(r);
			if (c < 0)
				return -bte_io;
			sum += (unsigned int) c;
			c ^= 0x20;
		} else if (c == '*' && prev >= 0) {
			int n = bt_rsp_getc(r);

			if (n < 0)
				return -bte_io;
			sum += (unsigned int) n;
			for (n -= 29; n > 0; --n)
				if (bt_rsp_append(r, (char) prev) < 0)
					return -bte_nomem;
			continue;
		}
		if (bt_rsp_append(r, (char) c) < 0)
			return -bte_nomem;
		prev = c;
	}
	if (c < 0 || (c = bt_rsp_getc(r)) < 0)
		return -bte_io;
	cs[0] = (char) c;
	if ((c = bt_rsp_getc(r)) < 0)
		return -bte_io;
	cs[1] = (char) c;
	cs[2] = 0;
	if (strtoul(cs, NULL, 16) != (sum & 0xff)) {
		if (!r->noack)
			bt_rsp_put(r, "-", 1);
		return -bte_bad_record;
	}
	return r->noack ? 0 : bt_rsp_put(r, "+", 1);
}

int bt_rsp_request(struct bt_rsp *r, const char *command, const char **reply,
		   size_t *len, struct bt_diag *diag)
{
	unsigned int sum = 0;
	size_t n;
	int errcode;

	if (!r || !command)
		return bt_diag_set(diag, bte_invalid, 0, 0, "bad arguments");
	n = strlen(command);
	if (n + 5 > r->out_cap) {
		char *grown = realloc(r->out, n + 5);

		if (!grown)
			return bt_diag_set(diag, bte_nomem, 0, 0,
					   "out of memory");
		r->out = grown;
		r->out_cap = n + 5;
	}
	for (const char *p = command; *p; ++p)
		sum += (unsigned char) *p;
	r->out[0] = '$';
	memcpy(r->out + 1, command, n);
	snprintf(r->out + 1 + n, 4, "#%02x", sum & 0xff);
	errcode = bt_rsp_put(r, r->out, n + 4);
	/* Replies to a console notification ('O') come before the real
	   one only for resumptions, which this client never sends.  */
	if (errcode >= 0)
		errcode = bt_rsp_read_packet(r);
	if (errcode < 0)
		return bt_diag_set(diag, -errcode, 0, 0, "%s: no reply from the "
				   "stub: %s", command, bt_errstr(errcode));
	*reply = r->buf;
	if (len)
		*len = r->len;
	return 0;
}

int bt_rsp_qxfer(struct bt_rsp *r, const char *object, const char *annex,
		 char **data, size_t *size, struct bt_diag *diag)
{
	char command[256];
	char *out = NULL;
	size_t total = 0;

	for (;;) {
		const char *reply;
		size_t len;
		char *grown;
		int errcode;

		snprintf(command, sizeof(command), "qXfer:%s:read:%s:%zx,%zx",
			 object, annex, total, r->chunk);
		errcode = bt_rsp_request(r, command, &reply, &len, diag);
		if (errcode < 0) {
			free(out);
			return errcode;
		}
		if (!len || (reply[0] != 'm' && reply[0] != 'l')) {
			free(out);
			/* An error reply: the object is not there.  */
			return bt_diag_set(diag, reply[0] == 'E' ? bte_notfound
					   : bte_unsupported, 0, 0,
					   "%s: the stub answered '%s'",
					   command, reply);
		}
		grown = realloc(out, total + len);
		if (!grown) {
			free(out);
			return bt_diag_set(diag, bte_nomem, 0, 0,
					   "out of memory");
		}
		out = grown;
		memcpy(out + total, reply + 1, len - 1);
		total += len - 1;
		out[total] = 0;
		if (reply[0] == 'l')
			break;
	}
	*data = out;
	*size = total;
	return 0;
}

static void bt_hex_encode(const char *text, char *out)
{
	for (; *text; ++text, out += 2)
		sprintf(out, "%02x", (unsigned char) *text);
	*out = 0;
}

int bt_rsp_read_file(struct bt_rsp *r, const char *path, char **data,
		     size_t *size, struct bt_diag *diag)
{
	char command[1200], hex[1100];
	const char *reply;
	char *out = NULL;
	size_t total = 0;
	long fd;
	int errcode;

	if (strlen(path) > 500)
		return bt_diag_set(diag, bte_invalid, 0, 0, "path too long");
	bt_hex_encode(path, hex);
	snprintf(command, sizeof(command), "vFile:open:%s,0,0", hex);
	errcode = bt_rsp_request(r, command, &reply, NULL, diag);
	if (errcode < 0)
		return errcode;
	if (reply[0] != 'F' || (fd = strtol(reply + 1, NULL, 16)) < 0)
		return bt_diag_set(diag, bte_notfound, 0, 0,
				   "%s: the stub cannot open it", path);
	for (;;) {
		size_t len;
		const char *semi;
		long n;
		char *grown;

		snprintf(command, sizeof(command), "vFile:pread:%lx,%zx,%zx",
			 fd, r->chunk, total);
		errcode = bt_rsp_request(r, command, &reply, &len, diag);
		if (errcode < 0)
			break;
		n = reply[0] == 'F' ? strtol(reply + 1, NULL, 16) : -1;
		semi = memchr(reply, ';', len);
		if (n < 0 || (n > 0 && (!semi || (size_t) (reply + len -
						semi - 1) < (size_t) n))) {
			errcode = bt_diag_set(diag, bte_io, 0, 0,
					      "%s: read failed", path);
			break;
		}
		if (n == 0)
			break;
		grown = realloc(out, total + (size_t) n + 1);
		if (!grown) {
			errcode = bt_diag_set(diag, bte_nomem, 0, 0,
					      "out of memory");
			break;
		}
		out = grown;
		memcpy(out + total, semi + 1, (size_t) n);
		total += (size_t) n;
		out[total] = 0;
	}
	snprintf(command, sizeof(command), "vFile:close:%lx", fd);
	bt_rsp_request(r, command, &reply, NULL, NULL);
	if (errcode < 0) {
		free(out);
		return errcode;
	}
	if (!out && !(out = calloc(1, 1)))
		return bt_diag_set(diag, bte_nomem, 0, 0, "out of memory");
	*data = out;
	*size = total;
	return 0;
}

/* qSupported as GDB sends it first, for the stub's PacketSize (larger
   chunks, fewer round trips) and no-ack mode.  A stub that knows neither
   keeps acks and 0xfff-byte chunks; only a lost connection fails.  */
static int bt_rsp_handshake(struct bt_rsp *r)
{
	const char *reply, *size;
	int errcode;

	errcode = bt_rsp_request(r, "qSupported", &reply, NULL, NULL);
	if (errcode == -bte_io || errcode == -bte_nomem)
		return errcode;
	if (errcode < 0)
		return 0;
	size = strstr(reply, "PacketSize=");
	if (size) {
		unsigned long packet = strtoul(size + 11, NULL, 16);

		/* Room for the reply's 'm' or 'l', the frame and escapes is
		   the stub's to keep: it trims what it sends.  */
		if (packet > 0x1000)
			r->chunk = packet > 0x100000 ? 0xfffff : packet - 1;
	}
	if (!strstr(reply, "QStartNoAckMode+"))
		return 0;
	errcode = bt_rsp_request(r, "QStartNoAckMode", &reply, NULL, NULL);
	if (errcode == -bte_io || errcode == -bte_nomem)
		return errcode;
	/* Our ack of the OK went out; from here on neither side acks.  */
	if (errcode >= 0 && !strcmp(reply, "OK"))
		r->noack = 1;
	return 0;
}
