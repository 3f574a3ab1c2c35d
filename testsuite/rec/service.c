/* A small threaded service for the recorder's attach test and bench
   (rec_service.sh, bench_service.py): a listening socket on loopback
   and a pool of worker threads, each connection handed to the next
   worker in turn, so that N requests in a row reach every worker and a
   snapshot holds a trace for each.  The request is fixed ("ping\n"),
   the reply a checksum worked out for it ("pong HEX\n"), the same
   every time, so the client can tell a wrong answer from a right one.
     service PORTFILE [WORKERS]
   writes the port it listens on to PORTFILE and serves until killed;
   WORKERS 0 is a thread per request instead of the pool (what a new
   thread costs under the recorder, bench_service.py).  */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_WORKERS 16

/* Each worker reads the connections it is given from its own pipe.  */
struct worker {
	pthread_t thread;
	int pipe[2];
};

/* Some work per request, as a service does: a checksum over a buffer
   made from the request.  */
static uint64_t __attribute__((noinline)) answer(const char *req, size_t len)
{
	unsigned char buf[4096];
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char) (req[i % len] + i);
	for (int round = 0; round < 4; round++)
		for (size_t i = 0; i < sizeof(buf); i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	return h;
}

static void __attribute__((noinline)) serve(int fd)
{
	char req[64], reply[64];
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(req) - 1 && !memchr(req, '\n', got)) {
		n = read(fd, req + got, sizeof(req) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t) n;
	}
	if (got == 5 && !memcmp(req, "ping\n", 5))
		snprintf(reply, sizeof(reply), "pong %llx\n",
			 (unsigned long long) answer(req, got));
	else
		snprintf(reply, sizeof(reply), "what?\n");
	if (write(fd, reply, strlen(reply)) < 0)
		perror("service: write");
	close(fd);
}

/* WORKERS 0: the connection's own thread, detached.  */
static void *work_once(void *arg)
{
	serve((int) (intptr_t) arg);
	return NULL;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int fd;

	for (;;) {
		ssize_t n = read(w->pipe[0], &fd, sizeof(fd));

		if (n == sizeof(fd))
			serve(fd);
		else if (n < 0 && errno == EINTR)
			continue;
		else
			return NULL;
	}
}

int main(int argc, char **argv)
{
	struct worker workers[MAX_WORKERS];
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int nworkers = argc > 2 ? atoi(argv[2]) : 4;
	int ls, one = 1;
	unsigned long next = 0;
	FILE *f;

	if (argc < 2 || nworkers < 0 || nworkers > MAX_WORKERS) {
		fprintf(stderr, "usage: service PORTFILE [WORKERS]\n");
		return 2;
	}
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one,
				 sizeof(one)) < 0 ||
	    bind(ls, (struct sockaddr *) &addr, sizeof(addr)) < 0 ||
	    listen(ls, 128) < 0 ||
	    getsockname(ls, (struct sockaddr *) &addr, &len) < 0) {
		perror("service: socket");
		return 1;
	}
	for (int i = 0; i < nworkers; i++)
		if (pipe(workers[i].pipe) < 0 ||
		    pthread_create(&workers[i].thread, NULL, work,
				   &workers[i])) {
			perror("service: worker");
			return 1;
		}
	/* The port goes out once the service can answer: written whole to
	   a temporary name, then renamed, so a reader never sees half.  */
	{
		char tmp[4096];

		snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
		f = fopen(tmp, "w");
		if (!f || fprintf(f, "%d\n", ntohs(addr.sin_port)) < 0 ||
		    fclose(f) || rename(tmp, argv[1])) {
			perror("service: port file");
			return 1;
		}
	}
	for (;;) {
		int fd = accept(ls, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR)
				continue;
			perror("service: accept");
			return 1;
		}
		if (!nworkers) {
			pthread_t t;
			pthread_attr_t attr;

			pthread_attr_init(&attr);
			pthread_attr_setdetachstate(&attr,
						    PTHREAD_CREATE_DETACHED);
			if (pthread_create(&t, &attr, work_once,
					   (void *) (intptr_t) fd)) {
				perror("service: thread");
				return 1;
			}
			pthread_attr_destroy(&attr);
			continue;
		}
		if (write(workers[next++ % nworkers].pipe[1], &fd,
			  sizeof(fd)) != sizeof(fd)) {
			perror("service: dispatch");
			return 1;
		}
	}
}
