/* A scripted remote-protocol stub for the client tests: a child process
   on a loopback port that answers each request with the reply the
   script gives (bodies as sent on the wire: escapes and repeats are the
   script's), and an empty reply otherwise.  Test-only.  */
#ifndef BT_FAKE_STUB_H
#define BT_FAKE_STUB_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

struct bt_fake_reply {
	const char *request;
	const char *reply;        /* the body on the wire */
};

struct bt_fake_stub {
	pid_t pid;
	char hostport[32];
};

static inline void bt_fake_serve(int fd, const struct bt_fake_reply *script,
				 int bad_checksum)
{
	char req[4096];
	unsigned char c;

	for (;;) {
		size_t n = 0;
		const char *body = "";
		unsigned int sum = 0;
		char *out;
		size_t len;

		do
			if (read(fd, &c, 1) != 1)
				return;
		while (c != '$');
		while (read(fd, &c, 1) == 1 && c != '#' && n + 1 < sizeof(req))
			req[n++] = (char) c;
		req[n] = 0;
		if (read(fd, &c, 1) != 1 || read(fd, &c, 1) != 1)
			return;
		if (write(fd, "+", 1) != 1)
			return;
		for (const struct bt_fake_reply *s = script; s->request; ++s)
			if (strcmp(s->request, req) == 0) {
				body = s->reply;
				break;
			}
		for (const char *p = body; *p; ++p)
			sum += (unsigned char) *p;
		len = strlen(body) + 5;
		out = malloc(len);
		snprintf(out, len, "$%s#%02x", body,
			 (sum + (bad_checksum ? 1 : 0)) & 0xff);
		if (write(fd, out, len - 1) != (ssize_t) (len - 1)) {
			free(out);
			return;
		}
		free(out);
	}
}

/* Start the stub; its address is in STUB->hostport.  */
static inline int bt_fake_start(struct bt_fake_stub *stub,
				const struct bt_fake_reply *script,
				int bad_checksum)
{
	struct sockaddr_in addr;
	socklen_t alen = sizeof(addr);
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *) &addr, sizeof(addr)) < 0
	    || listen(lfd, 1) < 0 ||
	    getsockname(lfd, (struct sockaddr *) &addr, &alen) < 0)
		return -1;
	snprintf(stub->hostport, sizeof(stub->hostport), "127.0.0.1:%u",
		 ntohs(addr.sin_port));
	stub->pid = fork();
	if (stub->pid < 0)
		return -1;
	if (stub->pid == 0) {
		int fd = accept(lfd, NULL, NULL);

		if (fd >= 0)
			bt_fake_serve(fd, script, bad_checksum);
		_exit(0);
	}
	close(lfd);
	return 0;
}

static inline void bt_fake_stop(struct bt_fake_stub *stub)
{
	kill(stub->pid, SIGTERM);
	waitpid(stub->pid, NULL, 0);
}

#endif
