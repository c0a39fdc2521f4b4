/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTTP/1.1 responder of http.h: one thread, one poll() over an
 * eventfd (stop), the listening socket and at most max_conns
 * non-blocking connections, each in one of three states: reading its
 * request head (bounded in bytes and in time from the accept, so a
 * client that sends a byte a second gains nothing), writing its one
 * response (bounded in time: a client that never reads is dropped), and
 * draining (after the response, our side shut down: what the client
 * still sends is read and discarded for a moment, so that closing does
 * not reset the connection under a response it has not read yet).
 *
 * Trade-off: the body is made synchronously on this thread (a scrape of
 * vsw's telemetry takes milliseconds); other connections wait that long,
 * and scrapes never run two at once, which also bounds what HTTP
 * clients can cost the control plane.
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http.h"

#define DRAIN_MS 1000	    /* reading what follows a response, at most */
#define ACCEPT_PAUSE_MS 100 /* after accept failed for want of fds */
#define MAX_CONNS_CAP 64

enum conn_state { C_READ, C_WRITE, C_DRAIN };

struct conn {
	int fd; /* -1: free slot */
	enum conn_state st;
	uint64_t born_ms, deadline_ms;
	size_t inlen;
	char in[VSW_HTTP_REQ_MAX];
	char *out; /* the response, malloc'd */
	size_t outlen, outoff;
};

struct vsw_http_server {
	int lfd, stop_fd;
	uint64_t accept_after_ms; /* listening socket not polled before */
	struct vsw_http_params p;
	struct conn *conns; /* p.max_conns slots */
	struct pollfd *pfd; /* 2 + p.max_conns */
};

/* ---- parsing --------------------------------------------------------- */

/* The end of the head (after its empty line) in buf[0..len), or 0. */
static size_t head_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* Line [s, nl) without its CR: its length. */
static size_t line_len(const char *s, const char *nl)
{
	size_t n = (size_t)(nl - s);

	return n > 0 && s[n - 1] == '\r' ? n - 1 : n;
}

static int parse_method(const char *s, size_t n, struct vsw_http_req *req)
{
	if (n == 0 || n > 16 || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") < n)
		return 400;
	if (n == 3 && memcmp(s, "GET", 3) == 0)
		req->method = VSW_HTTP_GET;
	else if (n == 4 && memcmp(s, "HEAD", 4) == 0)
		req->method = VSW_HTTP_HEAD;
	else
		req->method = VSW_HTTP_OTHER;
	return 0;
}

/* origin-form: "/" and visible ASCII; the query is dropped. */
static int parse_target(const char *s, size_t n, struct vsw_http_req *req)
{
	const char *q;
	size_t plen;

	if (n == 0 || s[0] != '/')
		return 400;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return 400;
	if (n >= sizeof(req->path))
		return 414;
	q = memchr(s, '?', n);
	plen = q != NULL ? (size_t)(q - s) : n;
	memcpy(req->path, s, plen);
	req->path[plen] = '\0';
	return 0;
}

static int parse_version(const char *s, size_t n)
{
	if (n == 8 &&
	    (memcmp(s, "HTTP/1.1", 8) == 0 || memcmp(s, "HTTP/1.0", 8) == 0))
		return 0;
	if (n >= 5 && memcmp(s, "HTTP/", 5) == 0)
		return 505;
	return 400;
}

/* "METHOD SP TARGET SP VERSION", single spaces. */
static int parse_request_line(const char *s, size_t n, struct vsw_http_req *req)
{
	const char *sp1 = memchr(s, ' ', n), *sp2;
	int rc;

	if (sp1 == NULL)
		return 400;
	sp2 = memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - s));
	if (sp2 == NULL || memchr(sp2 + 1, ' ', n - (size_t)(sp2 + 1 - s)))
		return 400;
	if ((rc = parse_method(s, (size_t)(sp1 - s), req)) != 0 ||
	    (rc = parse_version(sp2 + 1, n - (size_t)(sp2 + 1 - s))) != 0)
		return rc;
	return parse_target(sp1 + 1, (size_t)(sp2 - sp1 - 1), req);
}

/* "Name: value": a name of visible characters, no space before ':'. */
static bool header_ok(const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);

	if (colon == NULL || colon == s)
		return false;
	for (const char *c = s; c < colon; c++)
		if ((unsigned char)*c <= 0x20 || (unsigned char)*c >= 0x7f)
			return false;
	return true;
}

int vsw_http_parse(const char *buf, size_t len, struct vsw_http_req *req)
{
	size_t skip = 0, end;
	const char *p, *stop, *nl;
	int rc;

	/* empty lines before the request line are ignored (RFC 9112 2.2) */
	while (skip < len && (buf[skip] == '\r' || buf[skip] == '\n'))
		skip++;
	end = head_end(buf + skip, len - skip);
	if (end == 0)
		return 0;
	p = buf + skip;
	stop = p + end;
	if (memchr(p, '\0', end) != NULL)
		return 400;
	nl = memchr(p, '\n', (size_t)(stop - p));
	rc = parse_request_line(p, line_len(p, nl), req);
	if (rc != 0)
		return rc;
	for (p = nl + 1; p < stop; p = nl + 1) {
		size_t n;

		nl = memchr(p, '\n', (size_t)(stop - p));
		n = line_len(p, nl);
		if (n == 0)
			break; /* the empty line */
		if (!header_ok(p, n))
			return 400;
	}
	return 1;
}

/* ---- responses ------------------------------------------------------- */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 414:
		return "URI Too Long";
	case 431:
		return "Request Header Fields Too Large";
	case 505:
		return "HTTP Version Not Supported";
	default:
		return "Service Unavailable";
	}
}

/* The whole response into c->out; the body is freed. NULL body: text. */
static void respond(struct conn *c, int status, const char *ctype, char *body,
		    size_t blen, bool head_only)
{
	char text[64];
	FILE *f;

	if (body == NULL) {
		blen = (size_t)snprintf(text, sizeof(text), "%d %s\n", status,
					reason(status));
		ctype = "text/plain; charset=utf-8";
	}
	free(c->out);
	c->out = NULL;
	c->outlen = c->outoff = 0;
	f = open_memstream(&c->out, &c->outlen);
	if (f != NULL) {
		fprintf(f,
			"HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
			"Content-Length: %zu\r\nConnection: close\r\n%s\r\n",
			status, reason(status), ctype, blen,
			status == 405 ? "Allow: GET, HEAD\r\n" : "");
		if (!head_only)
			fwrite(body != NULL ? body : text, 1, blen, f);
		fclose(f);
	}
	free(body);
	c->st = C_WRITE;
}

static void serve(struct vsw_http_server *s, struct conn *c, int status,
		  const struct vsw_http_req *req)
{
	char *body = NULL;
	size_t blen = 0;

	if (status == 1 && strcmp(req->path, s->p.path) != 0)
		status = 404;
	else if (status == 1 && req->method == VSW_HTTP_OTHER)
		status = 405;
	else if (status == 1)
		status = s->p.body(s->p.arg, &body, &blen) == 0 ? 200 : 503;
	respond(c, status, s->p.content_type, body, blen,
		status == 200 && req->method == VSW_HTTP_HEAD);
	c->deadline_ms = now_ms() + s->p.write_ms;
}

/* ---- connections ----------------------------------------------------- */

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->out);
	c->out = NULL;
}

/* A free slot; when none, the oldest connection goes. */
static struct conn *conn_slot(struct vsw_http_server *s)
{
	struct conn *old = NULL;

	for (unsigned int i = 0; i < s->p.max_conns; i++) {
		struct conn *c = &s->conns[i];

		if (c->fd < 0)
			return c;
		if (old == NULL || c->born_ms < old->born_ms)
			old = c;
	}
	conn_close(old);
	return old;
}

/* At most max_conns per wake-up: a flood of connections cannot hold
 * the thread. */
static void accept_all(struct vsw_http_server *s)
{
	for (unsigned int i = 0; i < s->p.max_conns; i++) {
		int fd = accept4(s->lfd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *c;

		if (fd < 0 && (errno == EMFILE || errno == ENFILE ||
			       errno == ENOBUFS || errno == ENOMEM)) {
			/* the connection waits in the backlog: do not spin */
			s->accept_after_ms = now_ms() + ACCEPT_PAUSE_MS;
			return;
		}
		if (fd < 0)
			return; /* EAGAIN, or an aborted connection */
		c = conn_slot(s);
		c->fd = fd;
		c->st = C_READ;
		c->inlen = 0;
		c->born_ms = now_ms();
		c->deadline_ms = c->born_ms + s->p.read_ms;
	}
}

static void conn_read(struct vsw_http_server *s, struct conn *c)
{
	struct vsw_http_req req;
	ssize_t n;
	int rc;

	if (c->st == C_WRITE)
		return; /* one request per connection: the rest is ignored */
	if (c->st == C_DRAIN) {
		char sink[4096];

		/* one read per wake-up: a flood cannot hold the thread */
		n = recv(c->fd, sink, sizeof(sink), 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			conn_close(c);
		return;
	}
	n = recv(c->fd, c->in + c->inlen, sizeof(c->in) - c->inlen, 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		conn_close(c);
		return;
	}
	if (n < 0)
		return;
	c->inlen += (size_t)n;
	rc = vsw_http_parse(c->in, c->inlen, &req);
	if (rc == 0 && c->inlen == sizeof(c->in))
		rc = 431;
	if (rc != 0)
		serve(s, c, rc, &req);
}

static void conn_write(struct conn *c)
{
	ssize_t n;

	if (c->out == NULL) { /* out of memory: nothing to say */
		conn_close(c);
		return;
	}
	n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff,
		 MSG_NOSIGNAL);
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		conn_close(c);
		return;
	}
	if (n > 0)
		c->outoff += (size_t)n;
	if (c->outoff < c->outlen)
		return;
	shutdown(c->fd, SHUT_WR);
	c->st = C_DRAIN;
	c->deadline_ms = now_ms() + DRAIN_MS;
}

/* ---- the loop -------------------------------------------------------- */

/* Fill the poll set; the poll timeout to the nearest deadline. */
static int poll_set(struct vsw_http_server *s, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	s->pfd[0] = (struct pollfd){.fd = s->stop_fd, .events = POLLIN};
	s->pfd[1] =
		(struct pollfd){.fd = now >= s->accept_after_ms ? s->lfd : -1,
				.events = POLLIN};
	if (now < s->accept_after_ms)
		next = s->accept_after_ms;
	for (unsigned int i = 0; i < s->p.max_conns; i++) {
		struct conn *c = &s->conns[i];

		s->pfd[2 + i] = (struct pollfd){
			.fd = c->fd,
			.events = c->st == C_WRITE ? POLLOUT : POLLIN};
		if (c->fd >= 0 && c->deadline_ms < next)
			next = c->deadline_ms;
	}
	if (next == UINT64_MAX)
		return -1;
	return next <= now ? 0 : (int)(next - now);
}

int vsw_http_run(struct vsw_http_server *s)
{
	for (;;) {
		int timeout = poll_set(s, now_ms()), n;
		uint64_t now;

		n = poll(s->pfd, 2 + s->p.max_conns, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (s->pfd[0].revents)
			return 0;
		now = now_ms();
		for (unsigned int i = 0; i < s->p.max_conns; i++) {
			struct conn *c = &s->conns[i];
			short ev = s->pfd[2 + i].revents;

			if (c->fd < 0)
				continue;
			if (c->deadline_ms <= now)
				conn_close(c); /* too slow, or drained */
			else if (ev & (POLLERR | POLLNVAL))
				conn_close(c);
			else if (c->st == C_WRITE && (ev & (POLLOUT | POLLHUP)))
				conn_write(c);
			else if (ev & (POLLIN | POLLHUP))
				conn_read(s, c);
		}
		if (s->pfd[1].revents & POLLIN)
			accept_all(s);
	}
}

/* ---- life cycle ------------------------------------------------------ */

int vsw_http_listen(const struct vsw_listen *l, const char *what, char *err,
		    size_t errlen)
{
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};
	struct sockaddr_in a4 = {.sin_family = AF_INET};
	int one = 1, fd, rc;

	fd = socket(l->family == 4 ? AF_INET : AF_INET6,
		    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: socket: %s", what, strerror(-rc));
		return rc;
	}
	/* a previous vsw's connections in TIME_WAIT do not block a restart;
	 * a socket that listens there still does */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memcpy(&a4.sin_addr, l->addr, 4);
	a4.sin_port = htons(l->port);
	memcpy(&a6.sin6_addr, l->addr, 16);
	a6.sin6_port = htons(l->port);
	if ((l->family == 4
		     ? bind(fd, (struct sockaddr *)&a4, sizeof(a4))
		     : bind(fd, (struct sockaddr *)&a6, sizeof(a6))) < 0 ||
	    listen(fd, 16) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot listen there: %s%s", what,
			 strerror(-rc),
			 rc == -EADDRINUSE ? " (another process has the port)"
					   : "");
		close(fd);
		return rc;
	}
	return fd;
}

struct vsw_http_server *vsw_http_create(int lfd,
					const struct vsw_http_params *p)
{
	struct vsw_http_server *s = NULL;

	if (p->max_conns == 0 || p->max_conns > MAX_CONNS_CAP) {
		close(lfd);
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		close(lfd);
		errno = ENOMEM;
		return NULL;
	}
	s->p = *p;
	s->lfd = lfd;
	s->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	s->conns = calloc(p->max_conns, sizeof(*s->conns));
	s->pfd = calloc(2 + p->max_conns, sizeof(*s->pfd));
	for (unsigned int i = 0; s->conns != NULL && i < p->max_conns; i++)
		s->conns[i].fd = -1;
	if (s->stop_fd < 0 || s->conns == NULL || s->pfd == NULL) {
		vsw_http_destroy(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void vsw_http_stop(struct vsw_http_server *s)
{
	uint64_t one = 1;

	if (write(s->stop_fd, &one, sizeof(one)) < 0) {
		/* only EAGAIN (counter full): already stopping */
	}
}

void vsw_http_destroy(struct vsw_http_server *s)
{
	if (s == NULL)
		return;
	for (unsigned int i = 0; s->conns != NULL && i < s->p.max_conns; i++)
		conn_close(&s->conns[i]);
	close(s->lfd);
	if (s->stop_fd >= 0)
		close(s->stop_fd);
	free(s->conns);
	free(s->pfd);
	free(s);
}
