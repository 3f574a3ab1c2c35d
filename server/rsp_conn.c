#define _GNU_SOURCE
#include "server/rsp_conn.h"
#include "common/ps_error.h"
#include "common/ps_hex.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { rsp_ctrl_c = 0x03 };

int rsp_conn_init(struct rsp_conn *conn, int in_fd, int out_fd)
{
	if (in_fd < 0 || out_fd < 0)
		return -pse_invalid;
	conn->in_fd = in_fd;
	conn->out_fd = out_fd;
	conn->noack = 0;
	conn->interrupt_pending = 0;
	conn->out_is_socket = -1;
	conn->max_payload = RSP_MAX_PAYLOAD;
	conn->debug = NULL;
	ps_buf_init(&conn->frame);
	conn->in_pos = 0;
	conn->in_len = 0;
	return 0;
}

void rsp_conn_fini(struct rsp_conn *conn)
{
	ps_buf_fini(&conn->frame);
	conn->in_pos = conn->in_len = 0;
}

void rsp_conn_set_debug(struct rsp_conn *conn, FILE *log)
{
	conn->debug = log;
}

void rsp_conn_set_noack(struct rsp_conn *conn, int on)
{
	conn->noack = !!on;
}

int rsp_conn_poll_fd(const struct rsp_conn *conn)
{
	return conn->in_fd;
}

/* Print packet text readably: binary payloads would garble a log.  */
static void log_text(FILE *log, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			fputc(p[i], log);
		else
			fprintf(log, "\\x%02x", p[i]);
	}
}

static void log_packet(struct rsp_conn *conn, const char *func,
		       const char *what, const void *data, size_t len,
		       const char *note)
{
	if (!conn->debug)
		return;
	fprintf(conn->debug, "[remote] %s: %s (\"", func, what);
	log_text(conn->debug, data, len);
	fprintf(conn->debug, "\"); %s\n", note);
	fflush(conn->debug);
}

static void log_msg(struct rsp_conn *conn, const char *func, const char *msg)
{
	if (!conn->debug)
		return;
	fprintf(conn->debug, "[remote] %s: [%s]\n", func, msg);
	fflush(conn->debug);
}

/* "[WHAT 'c' (0xNN)]", as gdbserver logs single bytes.  */
static void log_char(struct rsp_conn *conn, const char *func,
		     const char *what, int c)
{
	if (!conn->debug)
		return;
	fprintf(conn->debug, "[remote] %s: [%s '%c' (0x%x)]\n", func, what,
		c >= 0x20 && c < 0x7f ? c : '.', c);
	fflush(conn->debug);
}

/* Read what is available into the input buffer.  BLOCK waits for at
   least one byte; otherwise returns 0 at once when nothing is there.
   Only a readable fd is read, so a blocking stdin is never made
   non-blocking (its file description is shared with other processes).  */
static int conn_fill(struct rsp_conn *conn, int block)
{
	struct pollfd pfd = { .fd = conn->in_fd, .events = POLLIN };
	ssize_t n;

	if (conn->in_pos == conn->in_len) {
		conn->in_pos = conn->in_len = 0;
	} else if (conn->in_pos) {
		memmove(conn->in, conn->in + conn->in_pos,
			conn->in_len - conn->in_pos);
		conn->in_len -= conn->in_pos;
		conn->in_pos = 0;
	}
	if (conn->in_len == sizeof(conn->in))
		return 0;

	for (;;) {
		if (!block) {
			int r = poll(&pfd, 1, 0);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return -pse_io;
			if (r == 0)
				return 0;
		}
		n = read(conn->in_fd, conn->in + conn->in_len,
			 sizeof(conn->in) - conn->in_len);
		if (n > 0) {
			conn->in_len += (size_t) n;
			return (int) n;
		}
		if (n == 0)
			return -pse_eof;
		if (errno == EINTR)
			continue;
		if (errno == ECONNRESET)
			return -pse_eof;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			/* Someone made the fd non-blocking; wait our way.  */
			if (!block)
				return 0;
			if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
				return -pse_io;
			continue;
		}
		return -pse_io;
	}
}

static int conn_getc(struct rsp_conn *conn)
{
	if (conn->in_pos == conn->in_len) {
		int err = conn_fill(conn, 1);

		if (err < 0)
			return err;
	}
	return conn->in[conn->in_pos++];
}

/* write(2) to a pipe whose reader is gone raises SIGPIPE, which would
   kill the stub; block it for the call and swallow it, leaving the
   process's disposition (inherited by the inferior) alone.  */
static ssize_t write_nosigpipe(int fd, const void *data, size_t len)
{
	sigset_t pipe_set, old;
	ssize_t n;
	int saved;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	n = write(fd, data, len);
	saved = errno;
	if (n < 0 && errno == EPIPE && !sigismember(&old, SIGPIPE)) {
		struct timespec zero = { 0, 0 };

		sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return n;
}

static int conn_write(struct rsp_conn *conn, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n;

		if (conn->out_is_socket) {
			n = send(conn->out_fd, p, len, MSG_NOSIGNAL);
			if (n < 0 && errno == ENOTSOCK) {
				conn->out_is_socket = 0;
				continue;
			}
			if (n >= 0)
				conn->out_is_socket = 1;
		} else {
			n = write_nosigpipe(conn->out_fd, p, len);
		}
		if (n < 0) {
			struct pollfd pfd = { .fd = conn->out_fd,
					      .events = POLLOUT };

			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
					return -pse_io;
				continue;
			}
			if (errno == EPIPE || errno == ECONNRESET)
				return -pse_eof;
			return -pse_io;
		}
		p += n;
		len -= (size_t) n;
	}
	return 0;
}

enum body_result { body_good, body_bad };

/* Read a packet's payload and checksum after its '$'.  An unescaped '$'
   inside cannot come from GDB (it escapes them), so it means the
   previous packet was cut short: start over there.  */
static int read_body(struct rsp_conn *conn, struct ps_buf *payload)
{
	unsigned char sum;
	int toolong, hi, lo, sent;

restart:
	ps_buf_reset(payload);
	sum = 0;
	toolong = 0;
	for (;;) {
		const unsigned char *start, *stop, *q;
		size_t n;
		int err;

		if (conn->in_pos == conn->in_len) {
			err = conn_fill(conn, 1);
			if (err < 0)
				return err;
		}
		start = conn->in + conn->in_pos;
		stop = conn->in + conn->in_len;
		for (q = start; q < stop && *q != '#' && *q != '$'; q++)
			sum += *q;
		n = (size_t) (q - start);
		if (!toolong && payload->len + n > conn->max_payload)
			toolong = 1;
		if (!toolong) {
			err = ps_buf_append(payload, start, n);
			if (err < 0)
				return err;
		}
		conn->in_pos += n;
		if (q == stop)
			continue;
		conn->in_pos++;
		if (*q == '#')
			break;
		log_msg(conn, "getpkt", "'$' inside a packet: restarting");
		goto restart;
	}

	hi = conn_getc(conn);
	if (hi < 0)
		return hi;
	lo = conn_getc(conn);
	if (lo < 0)
		return lo;

	if (toolong) {
		if (conn->debug)
			fprintf(conn->debug, "[remote] getpkt: packet longer "
				"than %zu bytes discarded\n",
				conn->max_payload);
		ps_buf_reset(payload);
		return body_bad;
	}
	hi = ps_hex_digit(hi);
	lo = ps_hex_digit(lo);
	sent = hi < 0 || lo < 0 ? -1 : hi << 4 | lo;
	if (sent != sum) {
		if (conn->debug) {
			fprintf(conn->debug, "[remote] getpkt: Bad checksum, "
				"sentsum=0x%x, csum=0x%x, buf=", sent, sum);
			log_text(conn->debug, payload->data, payload->len);
			fprintf(conn->debug, "%s\n", conn->noack ?
				" [no-ack-mode, Bad medium?]" : "");
		}
		if (!conn->noack)
			return body_bad;
	}
	return body_good;
}

int rsp_read_packet(struct rsp_conn *conn, struct ps_buf *payload)
{
	for (;;) {
		int c, err;

		if (conn->interrupt_pending) {
			conn->interrupt_pending = 0;
			log_msg(conn, "getpkt", "interrupt seen during ack");
			return RSP_INTERRUPT;
		}
		c = conn_getc(conn);
		if (c < 0)
			return c;
		if (c == rsp_ctrl_c) {
			log_msg(conn, "getpkt", "received interrupt (0x3)");
			return RSP_INTERRUPT;
		}
		if (c != '$') {
			log_char(conn, "getpkt", "getpkt: discarding char", c);
			continue;
		}

		err = read_body(conn, payload);
		if (err < 0)
			return err;
		if (err == body_bad) {
			if (!conn->noack) {
				err = conn_write(conn, "-", 1);
				if (err < 0)
					return err;
			}
			continue;
		}
		if (conn->noack) {
			log_packet(conn, "getpkt", "getpkt", payload->data,
				   payload->len, " [no ack sent]");
			return 0;
		}
		log_packet(conn, "getpkt", "getpkt", payload->data,
			   payload->len, " [sending ack]");
		return conn_write(conn, "+", 1);
	}
}

/* Wait for the ack of the packet just sent: 0 for '+', 1 for '-'.  */
static int wait_ack(struct rsp_conn *conn)
{
	for (;;) {
		int c = conn_getc(conn);

		if (c < 0)
			return c;
		log_char(conn, "putpkt", "received", c);
		switch (c) {
		case '+':
			return 0;
		case '-':
			return 1;
		case rsp_ctrl_c:
			conn->interrupt_pending = 1;
			break;
		case '$':
			/* GDB sent a new packet instead: it has our reply or
			   has given up on it; read that packet next.  */
			conn->in_pos--;
			return 0;
		default:
			break;
		}
	}
}

int rsp_send_packet(struct rsp_conn *conn, const void *payload, size_t len)
{
	int err;

	ps_buf_reset(&conn->frame);
	err = ps_buf_reserve(&conn->frame, len + 4);
	if (err < 0)
		return err;
	ps_buf_putc(&conn->frame, '$');
	ps_buf_append(&conn->frame, payload, len);
	ps_buf_printf(&conn->frame, "#%02x", ps_checksum(payload, len));

	for (int resends = 0;; resends++) {
		err = conn_write(conn, conn->frame.data, conn->frame.len);
		if (err < 0)
			return err;
		if (conn->noack) {
			log_packet(conn, "putpkt", "putpkt", conn->frame.data,
				   conn->frame.len, "[noack mode]");
			return 0;
		}
		log_packet(conn, "putpkt", "putpkt", conn->frame.data,
			   conn->frame.len, "[looking for ack]");
		err = wait_ack(conn);
		if (err <= 0)
			return err;
		if (resends == RSP_MAX_RESEND)
			return -pse_checksum;
	}
}

int rsp_send_notification(struct rsp_conn *conn, const char *name,
			  const void *payload, size_t len)
{
	struct ps_buf frame;
	int err;

	ps_buf_init(&frame);
	err = ps_buf_printf(&frame, "%%%s:", name);
	if (!err)
		err = ps_buf_append(&frame, payload, len);
	if (!err)
		err = ps_buf_printf(&frame, "#%02x",
				    ps_checksum(frame.data + 1, frame.len - 1));
	if (!err)
		err = conn_write(conn, frame.data, frame.len);
	if (!err)
		log_packet(conn, "putpkt", "putpkt", frame.data, frame.len,
			   "[notif]");
	ps_buf_fini(&frame);
	return err;
}

int rsp_send_str(struct rsp_conn *conn, const char *payload)
{
	return rsp_send_packet(conn, payload, strlen(payload));
}

int rsp_conn_check_interrupt(struct rsp_conn *conn)
{
	int err;

	for (;;) {
		/* Skip and look at what lies between packets only.  */
		while (conn->in_pos < conn->in_len &&
		       conn->in[conn->in_pos] != '$') {
			if (conn->in[conn->in_pos] == rsp_ctrl_c)
				conn->interrupt_pending = 1;
			conn->in_pos++;
		}
		if (conn->in_pos < conn->in_len) {
			err = 0;
			break;
		}
		err = conn_fill(conn, 0);
		if (err <= 0)
			break;
	}
	if (conn->interrupt_pending) {
		conn->interrupt_pending = 0;
		return 1;
	}
	return err < 0 ? err : 0;
}
