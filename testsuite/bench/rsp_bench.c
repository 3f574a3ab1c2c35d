/* The stub benchmark's RSP client: drives a stub over TCP with the
   packets GDB 13.1 sends for `record btrace pt` (Qbtrace-conf:pt:size,
   Qbtrace:pt, qXfer:btrace:read:all in 4 KiB requests, as GDB's
   target_read_alloc asks), so that the transfer is measured without
   GDB's decoding of what it receives.
     rsp_bench PORT PROG RING_BYTES REPS
   runs PROG (the stub started it, stopped at its entry) to `work`,
   enables PT there, continues to `done` (timed: the emulation through
   the stub) and reads the whole trace REPS times (timed, each a new
   transfer from offset 0; REPS may be 0).  Prints one line of key=value.  */
#define _GNU_SOURCE
#include "testsuite/emu/emu_driver.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* GDB reads qXfer objects 4096 bytes at a time (target_read_alloc_1).  */
#define XFER_CHUNK 0x1000

struct rsp_client {
	int fd;
	char *in;            /* the last reply, unescaped, NUL-terminated */
	size_t in_len, in_cap;
	char rbuf[1 << 16];  /* socket read buffer */
	size_t rpos, rlen;
	int no_ack;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int rsp_getc(struct rsp_client *c)
{
	if (c->rpos == c->rlen) {
		ssize_t n;

		do
			n = read(c->fd, c->rbuf, sizeof(c->rbuf));
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			return -1;
		c->rpos = 0;
		c->rlen = (size_t) n;
	}
	return (unsigned char) c->rbuf[c->rpos++];
}

static int rsp_write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t) n;
	}
	return 0;
}

static int rsp_put(struct rsp_client *c, const char *fmt, ...)
{
	char body[512], frame[600];
	unsigned sum = 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= sizeof(body))
		return -1;
	for (int i = 0; i < n; i++)
		sum += (unsigned char) body[i];
	n = snprintf(frame, sizeof(frame), "$%s#%02x", body, sum & 0xff);
	if (rsp_write_all(c->fd, frame, (size_t) n) < 0)
		return -1;
	if (!c->no_ack) {
		int ch;

		while ((ch = rsp_getc(c)) != '+')
			if (ch < 0)
				return -1;
	}
	return 0;
}

static int rsp_push(struct rsp_client *c, char ch)
{
	if (c->in_len + 2 > c->in_cap) {
		size_t cap = c->in_cap ? 2 * c->in_cap : 1 << 18;
		char *p = realloc(c->in, cap);

		if (!p)
			return -1;
		c->in = p;
		c->in_cap = cap;
	}
	c->in[c->in_len++] = ch;
	return 0;
}

/* Read one reply (skipping O console packets); 0 or -1.  */
static int rsp_get(struct rsp_client *c)
{
	for (;;) {
		int ch, escaped = 0;

		while ((ch = rsp_getc(c)) != '$')
			if (ch < 0)
				return -1;
		c->in_len = 0;
		while ((ch = rsp_getc(c)) != '#') {
			if (ch < 0)
				return -1;
			if (escaped) {
				ch ^= 0x20;
				escaped = 0;
			} else if (ch == '}') {
				escaped = 1;
				continue;
			}
			if (rsp_push(c, (char) ch) < 0)
				return -1;
		}
		if (rsp_getc(c) < 0 || rsp_getc(c) < 0)
			return -1;
		if (!c->no_ack && rsp_write_all(c->fd, "+", 1) < 0)
			return -1;
		c->in[c->in_len] = '\0';
		if (c->in[0] == 'O' && c->in[1] != 'K')
			continue;
		return 0;
	}
}

static int rsp_call(struct rsp_client *c, const char *what, const char *ok,
		    const char *fmt, ...)
{
	char body[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (rsp_put(c, "%s", body) < 0 || rsp_get(c) < 0) {
		fprintf(stderr, "rsp_bench: %s: connection lost\n", what);
		return -1;
	}
	if (ok && strncmp(c->in, ok, strlen(ok))) {
		fprintf(stderr, "rsp_bench: %s: %s answered %.80s\n", what, body,
			c->in);
		return -1;
	}
	return 0;
}

static int rsp_connect(struct rsp_client *c, int port)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	int one = 1;

	memset(c, 0, sizeof(*c));
	addr.sin_port = htons((uint16_t) port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* The stub may still be starting.  */
	for (int tries = 0; tries < 200; tries++) {
		c->fd = socket(AF_INET, SOCK_STREAM, 0);
		if (c->fd < 0)
			return -1;
		if (!connect(c->fd, (struct sockaddr *) &addr, sizeof(addr))) {
			/* GDB sets TCP_NODELAY on its remote socket too.  */
			setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
			return 0;
		}
		close(c->fd);
		usleep(50000);
	}
	return -1;
}

/* Read the whole btrace object as GDB does; returns its size or -1.  */
static long rsp_read_btrace(struct rsp_client *c, int *complete)
{
	unsigned long offset = 0;

	*complete = 0;
	for (;;) {
		if (rsp_call(c, "qXfer", NULL, "qXfer:btrace:read:all:%lx,%x",
			     offset, XFER_CHUNK) < 0)
			return -1;
		if (c->in[0] != 'm' && c->in[0] != 'l') {
			fprintf(stderr, "rsp_bench: qXfer answered %.80s\n", c->in);
			return -1;
		}
		offset += c->in_len - 1;
		if (c->in[0] == 'l') {
			static const char tail[] = "</btrace>\n";

			*complete = c->in_len >= sizeof(tail) &&
				!strcmp(c->in + c->in_len - strlen(tail), tail);
			return (long) offset;
		}
	}
}

static int rsp_stop_thread(struct rsp_client *c, long *pid, long *tid)
{
	const char *t = strstr(c->in, "thread:p");

	if (c->in[0] != 'T' || !t)
		return -1;
	return sscanf(t, "thread:p%lx.%lx", pid, tid) == 2 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct rsp_client c;
	long pid, tid, size = 0;
	uint64_t work, done;
	double emul, best = 0, total = 0;
	int reps, complete = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: rsp_bench PORT PROG RING_BYTES REPS\n");
		return 2;
	}
	reps = atoi(argv[4]);
	if (reps < 0)
		return 2;
	if (rsp_connect(&c, atoi(argv[1])) < 0) {
		fprintf(stderr, "rsp_bench: cannot connect to port %s\n", argv[1]);
		return 1;
	}
	if (rsp_call(&c, "qSupported", "", "qSupported:multiprocess+;"
		     "swbreak+;hwbreak+;qRelocInsn+;fork-events+;"
		     "vfork-events+;exec-events+;vContSupported+;"
		     "QThreadEvents+;no-resumed+;memory-tagging+") < 0 ||
	    rsp_call(&c, "no-ack", "OK", "QStartNoAckMode") < 0)
		return 1;
	c.no_ack = 1;
	if (rsp_call(&c, "stop reason", "T", "?") < 0 ||
	    rsp_stop_thread(&c, &pid, &tid) < 0)
		return 1;
	work = drv_symbol((pid_t) pid, argv[2], "work");
	done = drv_symbol((pid_t) pid, argv[2], "done");
	if (!work || !done) {
		fprintf(stderr, "rsp_bench: no work/done in %s\n", argv[2]);
		return 1;
	}
	if (rsp_call(&c, "break", "OK", "Z0,%llx,1", (unsigned long long) work) ||
	    rsp_call(&c, "continue", "T", "vCont;c") ||
	    rsp_call(&c, "unbreak", "OK", "z0,%llx,1", (unsigned long long) work) ||
	    rsp_call(&c, "break", "OK", "Z0,%llx,1", (unsigned long long) done) ||
	    rsp_call(&c, "thread", "OK", "Hgp%lx.%lx", pid, tid) ||
	    rsp_call(&c, "size", "OK", "Qbtrace-conf:pt:size=0x%lx",
		     strtol(argv[3], NULL, 0)) ||
	    rsp_call(&c, "enable", "OK", "Qbtrace:pt") ||
	    rsp_call(&c, "conf", "l", "qXfer:btrace-conf:read::0,fff"))
		return 1;
	emul = now();
	if (rsp_call(&c, "continue", "T", "vCont;c"))
		return 1;
	emul = now() - emul;

	for (int rep = 0; rep < reps; rep++) {
		double t = now();

		size = rsp_read_btrace(&c, &complete);
		t = now() - t;
		if (size < 0 || !complete) {
			fprintf(stderr, "rsp_bench: incomplete btrace document\n");
			return 1;
		}
		total += t;
		if (!rep || t < best)
			best = t;
	}
	rsp_call(&c, "disable", "OK", "Qbtrace:off");
	rsp_call(&c, "kill", NULL, "vKill;%lx", pid);
	printf("emulate=%.6f xfer_best=%.6f xfer_mean=%.6f xml_bytes=%ld "
	       "requests=%ld\n", emul, best, reps ? total / reps : 0, size,
	       (size + XFER_CHUNK - 1) / XFER_CHUNK);
	close(c.fd);
	free(c.in);
	return 0;
}
