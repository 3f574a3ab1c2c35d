/* Fuzz target: the packet dispatcher and every handler behind it, on a
   real stopped inferior (testsuite/programs/bin/plain, or $FUZZ_PROG)
   under a real nat_target.  The input is packets separated by '\n';
   each goes to srv_dispatch as srv_serve hands it over, and the reply
   is framed and sent (to a socket this target drains).  Packets that
   would run, kill, detach or replace the inferior, or write files
   (vFile open/pwrite/unlink, monitor commands), are skipped: the
   inferior never runs, so nothing the fuzzer writes into its memory or
   registers executes.  */
#define _GNU_SOURCE
#include "common/ps_buf.h"
#include "nat/target.h"
#include "server/rsp_conn.h"
#include "server/server.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct nat_target target;
static struct srv_options opts;
static struct srv srv;
static struct rsp_conn conn;
static int fds[2] = { -1, -1 };
static char prog[4096];

static const char *const skipped[] = {
	"c", "C", "s", "S", "vCont;", "vRun", "vAttach", "vKill", "k", "D",
	"R", "!", "i", "I", "vFile:open", "vFile:pwrite", "vFile:unlink",
	"qRcmd", "vCtrlC", "QNonStop", "vStopped", "QStartupWithShell",
};

static int skip(const char *pkt, size_t len)
{
	for (size_t i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++) {
		size_t n = strlen(skipped[i]);

		if (len >= n && !memcmp(pkt, skipped[i], n))
			return 1;
	}
	return 0;
}

static void drain(void)
{
	char buf[65536];

	while (recv(fds[1], buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

static void start(void)
{
	char *argv[] = { prog, NULL };

	if (nat_first_process(&target) || !prog[0])
		return;
	srv_start_program(&srv, argv);
}

static void setup(void)
{
	const char *top = getenv("top_builddir");
	const char *p = getenv("FUZZ_PROG");

	if (p)
		snprintf(prog, sizeof(prog), "%s", p);
	else
		snprintf(prog, sizeof(prog), "%s/testsuite/programs/bin/plain",
			 top ? top : ".");
	if (access(prog, X_OK) < 0) {
		fprintf(stderr, "fuzz_dispatch: no %s: packets run without "
			"a process\n", prog);
		prog[0] = 0;
	}
	nat_target_init(&target);
	target.start.startup_with_shell = 0;
	srv_init(&srv, &target, &opts);
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	rsp_conn_init(&conn, fds[0], fds[0]);
	rsp_conn_set_noack(&conn, 1);
	srv.conn = &conn;
	start();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *) data, *end = p + size;

	if (fds[0] < 0)
		setup();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t len = (size_t) ((nl ? nl : end) - p);
		char *pkt;

		if (len && !skip(p, len) && (pkt = malloc(len + 1))) {
			int r;

			/* Handlers get the payload NUL-terminated, as
			   rsp_read_packet leaves it.  */
			memcpy(pkt, p, len);
			pkt[len] = 0;
			ps_buf_reset(&srv.reply);
			r = srv_dispatch(&srv, pkt, len);
			if (r == srv_reply)
				rsp_send_packet(&conn, srv.reply.data,
						srv.reply.len);
			drain();
			free(pkt);
		}
		p += len + 1;
	}
	/* A packet that slipped through and ended the process: a new one
	   for the next input.  */
	srv.disconnect = srv.exit_server = 0;
	start();
	return 0;
}
