/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small HTTP/1.1 responder for one read-only resource (vsw's GET
 * /metrics): plain POSIX, no EAL, so tests/unit/test_http.c runs it on
 * loopback.  One thread polls the listening socket and every connection;
 * each connection gets one response and is closed (Connection: close).
 * Hostile clients are bounded: a request head of VSW_HTTP_REQ_MAX bytes
 * at most (431 beyond), the whole head within read_ms of the accept and
 * the whole response within write_ms (a slow sender or a client that
 * never reads is dropped, not waited for), max_conns connections at once
 * (a new one evicts the oldest).  GET and HEAD of the path are served,
 * another method on it is 405 (Allow: GET, HEAD), any other path 404.
 */
#ifndef VSW_HTTP_H
#define VSW_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "config/vsw_config.h"

#define VSW_HTTP_REQ_MAX 4096 /* request line and headers, bytes */
#define VSW_HTTP_PATH_MAX 256 /* request target, bytes (414 beyond) */

enum vsw_http_method { VSW_HTTP_GET, VSW_HTTP_HEAD, VSW_HTTP_OTHER };

/* A parsed request head. */
struct vsw_http_req {
	enum vsw_http_method method;
	char path[VSW_HTTP_PATH_MAX]; /* the target without its query */
};

/*
 * Parse the head of a request in @buf[0..@len) (request line and
 * headers up to the empty line; CRLF or bare LF): 0 while incomplete,
 * 1 when complete (@req filled), or the HTTP status of a bad request:
 * 400 (malformed), 414 (target too long), 505 (not HTTP/1.x).  The
 * caller answers 431 to a head still incomplete at VSW_HTTP_REQ_MAX.
 */
int vsw_http_parse(const char *buf, size_t len, struct vsw_http_req *req);

/*
 * The body of the resource: 0 with a malloc'd @body of @len bytes, or
 * -1 (answered 503).  Called on the server's thread, one at a time.
 */
typedef int vsw_http_body_fn(void *arg, char **body, size_t *len);

struct vsw_http_params {
	const char *path;	  /* "/metrics" */
	const char *content_type; /* of the 200 */
	vsw_http_body_fn *body;
	void *arg;
	unsigned int max_conns; /* connections at once */
	unsigned int read_ms;	/* the whole request head, from accept */
	unsigned int write_ms;	/* the whole response */
};

struct vsw_http_server;

/*
 * A listening TCP socket on @l (port 0: any free port); the fd, or
 * -errno with a message in @err naming @what (the key and value).
 */
int vsw_http_listen(const struct vsw_listen *l, const char *what, char *err,
		    size_t errlen);

/* A server on listening socket @lfd (it takes the fd); NULL: -errno. */
struct vsw_http_server *vsw_http_create(int lfd,
					const struct vsw_http_params *p);
/* Serve until vsw_http_stop; 0, or -errno if poll fails. */
int vsw_http_run(struct vsw_http_server *s);
/* Make vsw_http_run return (any thread, async-signal-safe). */
void vsw_http_stop(struct vsw_http_server *s);
/* Close every connection and the listening socket; after run returned. */
void vsw_http_destroy(struct vsw_http_server *s);

#endif /* VSW_HTTP_H */
