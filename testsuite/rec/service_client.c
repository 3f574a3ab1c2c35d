/* The client of rec_service.sh and bench_service.py: N requests to a
   service on loopback, each on a connection of its own, from CONC
   threads at once, each request timed from connect to the reply's end.
     service_client PORT N [CONC] [http]
   sends service's "ping\n" (or, with http, "GET / HTTP/1.0") and prints
     answered=K requests=N best_us=B median_us=M p90_us=P total_s=T reply=R
   where R is the reply's first line (with spaces as '_'), the same for
   every answer or the run fails.  Exit status 0 only if every request
   got that answer.  A request waits at most 20 s.  */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define REPLY_MAX 256

struct client {
	int port, http;
	long first, count;      /* this thread's requests */
	double *us;             /* every request's latency, by index */
	char reply[REPLY_MAX];  /* the first line of its first answer */
	long answered, mismatched;
	pthread_t thread;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* One request; the first line of the answer in LINE, 0 or -1.  */
static int request(const struct client *c, char *line)
{
	static const char ping[] = "ping\n";
	static const char get[] = "GET / HTTP/1.0\r\n\r\n";
	const char *req = c->http ? get : ping;
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct timeval limit = { 20, 0 };
	char buf[4096];
	size_t got = 0;
	ssize_t n;
	int fd, ok = -1;

	addr.sin_port = htons((unsigned short) c->port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
	if (connect(fd, (struct sockaddr *) &addr, sizeof(addr)) < 0 ||
	    write(fd, req, strlen(req)) != (ssize_t) strlen(req))
		goto out;
	/* The whole answer: the service closes the connection after it.  */
	while ((n = read(fd, got < sizeof(buf) - 1 ? buf + got : buf,
			 got < sizeof(buf) - 1 ? sizeof(buf) - 1 - got
					       : sizeof(buf) - 1)) > 0)
		if (got < sizeof(buf) - 1)
			got += (size_t) n;
	if (n < 0 || !got)
		goto out;
	buf[got] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	snprintf(line, REPLY_MAX, "%s", buf);
	ok = 0;
out:
	close(fd);
	return ok;
}

static void *run(void *arg)
{
	struct client *c = arg;
	char line[REPLY_MAX];

	for (long i = 0; i < c->count; i++) {
		double t0 = now_us();

		if (request(c, line) < 0)
			continue;
		c->us[c->first + i] = now_us() - t0;
		if (!c->answered++)
			memcpy(c->reply, line, sizeof(line));
		else if (strcmp(c->reply, line))
			c->mismatched++;
	}
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct client cs[64];
	long n = argc > 2 ? atol(argv[2]) : 0, answered = 0, bad = 0, k = 0;
	int conc = argc > 3 ? atoi(argv[3]) : 1;
	int http = argc > 4 && !strcmp(argv[4], "http");
	const char *reply = NULL;
	double *us, t0;

	if (argc < 3 || n < 1 || conc < 1 || conc > 64) {
		fprintf(stderr, "usage: service_client PORT N [CONC] [http]\n");
		return 2;
	}
	us = calloc((size_t) n, sizeof(*us));
	if (!us)
		return 1;
	t0 = now_us();
	for (int i = 0; i < conc; i++) {
		cs[i] = (struct client) { .port = atoi(argv[1]), .http = http,
					  .first = n * i / conc,
					  .count = n * (i + 1) / conc - n * i / conc,
					  .us = us };
		if (pthread_create(&cs[i].thread, NULL, run, &cs[i]))
			return 1;
	}
	for (int i = 0; i < conc; i++) {
		pthread_join(cs[i].thread, NULL);
		answered += cs[i].answered;
		bad += cs[i].mismatched;
		if (cs[i].answered && !reply)
			reply = cs[i].reply;
		else if (cs[i].answered && strcmp(reply, cs[i].reply))
			bad++;
	}
	/* The answered requests' latencies (an unanswered one stays 0).  */
	for (long i = 0; i < n; i++)
		if (us[i] > 0)
			us[k++] = us[i];
	qsort(us, (size_t) k, sizeof(*us), by_value);
	printf("answered=%ld requests=%ld best_us=%.1f median_us=%.1f "
	       "p90_us=%.1f total_s=%.4f reply=", answered - bad, n,
	       k ? us[0] : 0, k ? us[k / 2] : 0, k ? us[k * 9 / 10] : 0,
	       (now_us() - t0) / 1e6);
	for (const char *p = reply ? reply : "none"; *p; p++)
		putchar(*p == ' ' ? '_' : *p);
	putchar('\n');
	free(us);
	return answered - bad == n ? 0 : 1;
}
