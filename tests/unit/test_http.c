/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit test for switch/http.c, metrics-listen's HTTP/1.1 responder (no
 * EAL, no root): the request parser on good, partial and hostile heads,
 * then the server itself on a loopback port with a fake body: 200 with
 * the exposition content type, HEAD, 404, 405 with Allow, 400, 431, a
 * client that never completes its request (slowloris) and one that never
 * reads do not block others, more slow clients than connection slots
 * still leave room for a scrape, and stop joins at once.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "vsw_test.h"

#define BODY "# TYPE x counter\nx_total 1\n"
#define CTYPE "text/plain; version=0.0.4; charset=utf-8"

static int parse(const char *s, struct vsw_http_req *r)
{
	return vsw_http_parse(s, strlen(s), r);
}

static void test_parse(void)
{
	struct vsw_http_req r;
	char big[600];

	CHECK(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", &r) == 1 &&
	      r.method == VSW_HTTP_GET && strcmp(r.path, "/metrics") == 0);
	CHECK(parse("\r\nHEAD /metrics?a=b HTTP/1.0\n\n", &r) == 1 &&
	      r.method == VSW_HTTP_HEAD && strcmp(r.path, "/metrics") == 0);
	CHECK(parse("POST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
		    &r) == 1 &&
	      r.method == VSW_HTTP_OTHER);
	/* incomplete */
	CHECK(parse("", &r) == 0);
	CHECK(parse("GET /metrics HTTP/1.1\r\n", &r) == 0);
	CHECK(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n\r", &r) == 0);
	CHECK(parse("\r\n\r\n", &r) == 0);
	/* bad */
	CHECK(parse("GET  /metrics HTTP/1.1\r\n\r\n", &r) == 400);
	CHECK(parse("GET /metrics\r\n\r\n", &r) == 400);
	CHECK(parse("GET metrics HTTP/1.1\r\n\r\n", &r) == 400);
	CHECK(parse("get /metrics HTTP/1.1\r\n\r\n", &r) == 400);
	CHECK(parse("GET /metrics HTTP/1.1 x\r\n\r\n", &r) == 400);
	CHECK(parse("GET /metrics FTP/1.1\r\n\r\n", &r) == 400);
	CHECK(parse("GET /metrics HTTP/2.0\r\n\r\n", &r) == 505);
	CHECK(parse("GET /metrics HTTP/1.1\r\nNoColon\r\n\r\n", &r) == 400);
	CHECK(parse("GET /metrics HTTP/1.1\r\nBad Name: v\r\n\r\n", &r) == 400);
	CHECK(parse("GET /metrics HTTP/1.1\r\n: v\r\n\r\n", &r) == 400);
	CHECK(parse("GET /m\x01 HTTP/1.1\r\n\r\n", &r) == 400);
	CHECK(vsw_http_parse("GET /\0 HTTP/1.1\r\n\r\n", 20, &r) == 400);
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET /", 5);
	snprintf(big + 500, 100, " HTTP/1.1\r\n\r\n");
	CHECK(parse(big, &r) == 414);
}

/* ---- the server on loopback ---- */

static struct vsw_http_server *srv;
static pthread_t thread;
static uint16_t port;
static int fail_body;

static int body_fn(void *arg, char **body, size_t *len)
{
	(void)arg;
	if (fail_body)
		return -1;
	*body = strdup(BODY);
	*len = strlen(BODY);
	return 0;
}

static void *run_fn(void *arg)
{
	(void)arg;
	CHECK(vsw_http_run(srv) == 0);
	return NULL;
}

static int connect_srv(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons(port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct timeval tv = {.tv_sec = 5};

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send @req whole, read the response until the server closes. */
static char *request(const char *req, size_t reqlen)
{
	static char resp[65536];
	size_t n = 0;
	ssize_t r;
	int fd = connect_srv();

	resp[0] = '\0';
	if (fd < 0)
		return resp;
	if (send(fd, req, reqlen, MSG_NOSIGNAL) != (ssize_t)reqlen) {
		close(fd);
		return resp;
	}
	while (n + 1 < sizeof(resp) &&
	       (r = recv(fd, resp + n, sizeof(resp) - 1 - n, 0)) > 0)
		n += (size_t)r;
	resp[n] = '\0';
	close(fd);
	return resp;
}

static char *get(const char *req)
{
	return request(req, strlen(req));
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void server_start(void)
{
	struct vsw_listen l = {.family = 4, .addr = {127, 0, 0, 1}};
	struct vsw_http_params p = {
		.path = "/metrics",
		.content_type = CTYPE,
		.body = body_fn,
		.max_conns = 4,
		.read_ms = 1500,
		.write_ms = 1500,
	};
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	char err[256];
	int fd = vsw_http_listen(&l, "test", err, sizeof(err));

	CHECK(fd >= 0);
	getsockname(fd, (struct sockaddr *)&a, &alen);
	port = ntohs(a.sin_port);
	srv = vsw_http_create(fd, &p);
	CHECK(srv != NULL);
	CHECK(pthread_create(&thread, NULL, run_fn, NULL) == 0);
}

static void test_responses(void)
{
	char *r, big[VSW_HTTP_REQ_MAX + 100];

	r = get("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 200 OK\r\n"));
	CHECK(strstr(r, "\r\nContent-Type: " CTYPE "\r\n") != NULL);
	CHECK(strstr(r, "\r\nContent-Length: 27\r\n") != NULL);
	CHECK(strstr(r, "\r\n\r\n" BODY) != NULL);
	r = get("HEAD /metrics HTTP/1.0\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 200 OK\r\n") &&
	      strstr(r, "Content-Length: 27\r\n") != NULL &&
	      strstr(r, "\r\n\r\n")[4] == '\0');
	r = get("GET / HTTP/1.1\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 404 Not Found\r\n"));
	r = get("POST /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello");
	CHECK(starts(r, "HTTP/1.1 405 Method Not Allowed\r\n") &&
	      strstr(r, "\r\nAllow: GET, HEAD\r\n") != NULL);
	r = get("BREW /metrics HTTP/1.1\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 405 "));
	r = get("GET /metrics HTTP/3\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 505 "));
	r = get("nonsense\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 400 Bad Request\r\n"));
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET /metrics HTTP/1.1\r\nX: ", 26);
	r = request(big, sizeof(big));
	CHECK(starts(r, "HTTP/1.1 431 "));
	fail_body = 1;
	r = get("GET /metrics HTTP/1.1\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 503 "));
	fail_body = 0;
}

/* Slow clients: more than the slots, one never reading; scrapes go on. */
static void test_slow_clients(void)
{
	int slow[6], big = connect_srv();
	double t0 = now_s();
	char *r;

	for (size_t i = 0; i < 6; i++) {
		slow[i] = connect_srv();
		CHECK(slow[i] >= 0);
		send(slow[i], "GET /metr", 9, MSG_NOSIGNAL);
	}
	/* a client that asks and never reads (the body is small: it fits
	 * the socket buffers; the server must just not wait on it) */
	send(big, "GET /metrics HTTP/1.1\r\n\r\n", 25, MSG_NOSIGNAL);
	r = get("GET /metrics HTTP/1.1\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 200 OK\r\n"));
	CHECK(now_s() - t0 < 1.0); /* served at once, no timeout waited */
	/* the slow ones are cut after read_ms: the server closes them */
	for (size_t i = 0; i < 6; i++) {
		char c;
		struct pollfd pf = {.fd = slow[i], .events = POLLIN};

		CHECK(poll(&pf, 1, 4000) == 1);
		CHECK(recv(slow[i], &c, 1, 0) <= 0);
		close(slow[i]);
	}
	close(big);
	r = get("GET /metrics HTTP/1.1\r\n\r\n");
	CHECK(starts(r, "HTTP/1.1 200 OK\r\n"));
}

static void test_listen_errors(void)
{
	struct vsw_listen l = {.family = 4, .addr = {127, 0, 0, 1}};
	char err[256];
	int fd;

	l.port = port; /* ours: in use */
	CHECK(vsw_http_listen(&l, "metrics-listen = x", err, sizeof(err)) ==
	      -EADDRINUSE);
	CHECK(strstr(err, "metrics-listen = x: cannot listen there: ") == err &&
	      strstr(err, "(another process has the port)") != NULL);
	l.addr[0] = 192; /* 192.0.0.1: not this host's */
	l.addr[1] = 0;
	CHECK(vsw_http_listen(&l, "k", err, sizeof(err)) == -EADDRNOTAVAIL);
	/* [::1]:any, where the host has IPv6 */
	memset(&l, 0, sizeof(l));
	l.family = 6;
	l.addr[15] = 1;
	fd = vsw_http_listen(&l, "k", err, sizeof(err));
	CHECK(fd >= 0 || fd == -EADDRNOTAVAIL || fd == -EAFNOSUPPORT);
	if (fd >= 0)
		close(fd);
}

static void test_stop(void)
{
	double t0 = now_s();
	int idle = connect_srv(); /* open at stop: closed by destroy */

	vsw_http_stop(srv);
	CHECK(pthread_join(thread, NULL) == 0);
	CHECK(now_s() - t0 < 1.0);
	vsw_http_destroy(srv);
	close(idle);
}

int main(void)
{
	RUN(test_parse);
	server_start();
	RUN(test_responses);
	RUN(test_slow_clients);
	RUN(test_listen_errors);
	RUN(test_stop);
	return TEST_EXIT();
}
